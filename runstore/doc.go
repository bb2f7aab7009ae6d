// Package runstore holds a run's data between ingest and detect: the
// Collector, which copies Arrow batches of schema.StepArrowSchema into
// compact per-step columns (interned names, side tables for facts most
// steps lack, idle and size accounting), groups them by run, builds each
// run's detect.Run and hands it, with the policy the caller passes at
// analysis time, to detect.Analyzer.Analyze. It also holds the two binary
// formats the scan writes to disk: segments (a partition's share of a
// collector, segment.go) and result files (results.go).
//
// It imports detect and schema; it must not import spill, ingest, report
// or cmd: deciding when to spill, and where files go, is spill's.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package runstore
