module example.com/warmcalls

go 1.26
