module example.com/grain

go 1.26
