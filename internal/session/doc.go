// Package session is one gobench-dyn run: it plans it (packages, shards,
// configurations), prepares it (builds, calibrates, checks out the
// baseline), assembles the stopping policy, resumes an interrupted run,
// runs the schedule and summarizes the outcome.
//
// A command only turns flags into Options, opens the results files and
// maps the Result to an exit status. Every process a run starts goes
// through the seams of Env, so that a run can be tested with fake test
// binaries that print benchmark output instantly.
package session
