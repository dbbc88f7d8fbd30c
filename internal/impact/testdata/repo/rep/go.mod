module example.com/rep

go 1.26
