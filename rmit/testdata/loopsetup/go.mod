module example.com/loopsetup

go 1.26
