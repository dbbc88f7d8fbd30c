module example.com/family

go 1.26
