// Package session is one gobench-dyn run: it plans it (packages, shards,
// configurations), prepares it (builds, calibrates, checks out the
// baseline), assembles the stopping policy, resumes an interrupted run,
// runs the schedule, compares the two versions of a baseline run and
// profiles the changes it decided. Its Result holds what was measured and
// what the run noticed on the way (benchmarks that drift or never
// settled, values that are not numbers, failures); package runreport
// writes it for a reader.
//
// Every process a run starts goes through the seams of Env, so that a run
// can be tested with fake test binaries that print benchmark output
// instantly.
package session
