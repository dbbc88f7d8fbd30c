//go:build !unix

package main

// catchSIGPIPE does nothing: a closed pipe is an EPIPE error here.
func catchSIGPIPE() {}
