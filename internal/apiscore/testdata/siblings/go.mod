module example.com/siblings

go 1.26
