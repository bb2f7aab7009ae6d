// Package scanbeam is runaway's scan as an Apache Beam pipeline: the same
// ingest, run store, detectors and report code as `runaway scan`, spread
// over workers. Sources are read one per element, each run's rows are
// grouped by run id (a shuffle; spans of tracing exports by trace and then
// by run first), each run is analysed on its own, which gives the run the
// result a scan gives it (the analysis of a run depends on its rows only),
// and the results are written by shard, sorted, with the scan's summary
// merged from parts.
//
// Files: scan.go (the pipeline and its options), read.go (a source's rows
// and dead letters), spans.go (traces across files), shuffle.go (rows as
// Arrow IPC messages), analyse.go (one run), write.go (the outputs).
//
// It imports the main module's packages; nothing in the main module
// imports it, so the runaway binary does not carry the Beam SDK.
package scanbeam
