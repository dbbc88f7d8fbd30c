module quirks

go 1.26
