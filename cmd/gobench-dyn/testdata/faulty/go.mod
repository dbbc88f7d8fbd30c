module example.com/faulty

go 1.26
