module example.com/dayone

go 1.26
