// Package runreport writes what a run measured for a reader: the
// end-of-run summary with its table of results, the notes on benchmarks
// that were not steady, failed or reported no number, where each decided
// change went, and the verdicts file. RunAndReport is a whole run of the
// run command: it opens the outputs, runs the session, and writes them in
// order, so that a command only turns flags into session.Options and
// Files and maps the Result to an exit status.
//
// Package session measures and keeps the Result; this package only reads
// it, as benchstat reads what benchmath computes.
package runreport
