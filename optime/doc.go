// Package optime finds, from one recorded full run, the smallest
// configuration of each benchmark that still gives a stable result: the
// µOpTime approach of Japke, Grambow, Laaber and Bermbach.
//
// A configuration is a tuple (s, i, d): suite runs, iterations of the
// benchmark per suite run, and measurement slices per iteration. Optimize
// simulates every smaller configuration on the prefix subset of the
// recorded samples, computes a stability Metric on it, and keeps the
// cheapest one whose metric is below a threshold. The result is written as
// a ConfigFile, which "gobench-dyn run --config" obeys.
//
// The package is pure: samples in, decisions out. It starts no processes
// and reads no files except through ParseConfig and ReadConfigFile.
package optime
