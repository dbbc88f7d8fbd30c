// Package asm declares a function without a Go body.
package asm

// Add is implemented in assembly (stub.s holds none: nothing calls it).
func Add(a, b int) int

// Sub has a body.
func Sub(a, b int) int { return a - b }
