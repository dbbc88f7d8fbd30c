// Package dataset reads published benchmark research data into raw records,
// so that replay, optimize and compare can be checked against the figures
// published with it.
package dataset
