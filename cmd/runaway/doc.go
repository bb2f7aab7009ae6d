// Command runaway finds AI-agent runs that ran away: it reads agent step logs
// (JSON Lines), computes loop indicators per run and reports which runs
// looped, why, from which step, and what it cost.
//
// It is the command line only: each subcommand's file binds its flags,
// turns them into a pipeline configuration, calls one pipeline job and
// exits with pipeline.ExitCode of its error (run.go dispatches). It also
// owns what belongs to the process rather than to a job: signals, the
// profiles of $RUNAWAY_CPUPROFILE and the like, and the Go runtime's
// settings (the memory limit and GOGC), set before the job is called.
// Nothing may import it.
package main
