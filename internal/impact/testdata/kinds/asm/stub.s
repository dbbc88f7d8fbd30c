// An assembly file lets asm.go declare a function without a body.
