module example.com/leaves

go 1.26
