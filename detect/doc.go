// Package detect computes runaway's loop indicators per run in one columnar
// pass over Arrow record batches of schema.StepArrowSchema, runs the
// detectors over them, and classifies each run: verdict, root cause, onset
// step and waste.
//
// The per-run analysis has no global state: AnalyzeBatch analyzes the steps
// of any set of runs and gives the same RunResult for a run whatever else was
// in the input, so results from any grouping merge by sorting on run id.
package detect
