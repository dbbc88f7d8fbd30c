// Package session is one gobench-dyn run: it plans it (packages, shards,
// configurations), prepares it (builds, calibrates, checks out the
// baseline), assembles the stopping policy, resumes an interrupted run,
// runs the schedule and summarizes the outcome.
//
// RunAndReport is a whole run of the run command: it opens the results
// files, runs, and writes the summary, comparison and verdicts, so that a
// command only turns flags into Options and Files and maps the Result to
// an exit status. Every process a run starts goes
// through the seams of Env, so that a run can be tested with fake test
// binaries that print benchmark output instantly.
package session
