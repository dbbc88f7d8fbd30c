module example.com/bench

go 1.26

require example.com/rep v0.0.0

replace example.com/rep => ../rep
