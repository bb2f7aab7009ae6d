// Package scanbeam is runaway's scan as an Apache Beam pipeline: the same
// ingest, run store, detectors and report code as `runaway scan`, spread
// over workers. Sources are read one per element, each run's rows are
// grouped by run id (a shuffle), and each run is analysed on its own, which
// gives the run the result a scan gives it: the analysis of a run depends
// on its rows only.
//
// It imports the main module's packages; nothing in the main module
// imports it, so the runaway binary does not carry the Beam SDK.
package scanbeam
