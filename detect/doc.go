// Package detect holds the detector contract and the detectors: the
// Detector type and Registry (ra*.go), the policy and its thresholds, the
// indicator pass, onset, classification into a RunResult, and what
// `runaway detectors` and the generated docs read.
//
// Its one entry point is Analyzer.Analyze: it analyzes one run given its
// columns (Run, which a run store fills) and the policy the caller passes,
// with no state shared with any other run, so results from any grouping
// merge by sorting on run id. Adding a detector touches this package only.
//
// It must not import runstore, spill, ingest, report or cmd: storage and
// input sit above it and hand it a run's columns.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package detect
