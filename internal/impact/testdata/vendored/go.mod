module example.com/vendored

go 1.26

require example.com/vend v1.0.0
