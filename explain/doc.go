// Package explain builds the post-mortem of one run for `runaway explain`:
// its steps in order from the raw log lines, folded where the agent
// repeated itself, the loop segment and its onset, the memory that
// contaminated the loop, the verdict with its evidence, and the runtime
// guard that would have stopped it, found by replaying the guards.
//
// Build makes the model (Run) inside runstore.Collector.Visit, where the
// run's steps are at hand; WriteText, WriteMarkdown and WriteHTML render
// it. The renderers live here, next to the model they walk, and take their
// escaping from package report, so every format escapes log text with the
// same functions as the scan's reports.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package explain
