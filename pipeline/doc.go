// Package pipeline holds what runaway's commands do once their flags are
// read: the read, analyse and write pipeline of a scan (inputs, memory
// budgets, spilling or collecting in memory, the reports streamed or
// written at the end, atomically, the html overview's second read for its
// timelines, the rejects file, --keep-going, --fail-on), and the read path
// eval, replay, explain, fixture and verify share with it.
//
// Each job has a configuration of plain values (ScanConfig, EvalConfig,
// ReplayConfig, ExplainConfig, FixtureConfig, VerifyConfig, all holding
// the shared Config, and GenConfig) and one entry point (Scan, Eval,
// Replay, Explain, Fixture, Verify, Gen). Warnings, notes and the progress bar go to the stderr
// a job is given; why a job stopped is its error, typed so that ExitCode
// maps it to the CLI's exit code: *UsageError, *InputError, *OutputError,
// *InterruptedError, *PartialError, and *FindingsError for a job that ran
// and whose result fails its gate.
//
// The package does not tune the Go runtime (the memory limit, GOGC): that
// is the process's, which cmd/runaway sets before it calls a job. It imports the packages below it (ingest, runstore,
// spill, detect, report, explain, replay, fixture, redact, pricing, synth); it
// must not import cmd, and none of them may import it.
package pipeline
