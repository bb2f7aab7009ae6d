// Package replay replays runtime guards over logged runs, offline, step by
// step: each guard sees a run's steps in order, as it would have at run time,
// and says at which step it would have stopped the run. The Replayer
// compares those stops with the truth (runaway's verdicts, or labels) and
// totals, per guard, the runaway runs stopped and missed, how soon after the
// loop's onset, the steps, tokens and cost saved, and the healthy runs
// stopped by mistake, with the guard's reason.
//
// The built-in guards (Registry) are the guides' guards and the loop checks of
// agent frameworks, with their published defaults and, where the sources
// document them, their defects: the point is to show which guard would have
// worked. docs/replay.md describes each one.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package replay
