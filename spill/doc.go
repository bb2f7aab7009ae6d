// Package spill bounds a scan's memory. Every batch goes to a
// runstore.Collector; when the collector's estimate passes a byte budget, its
// steps are split by partition of run ids (a run's steps all land in one
// partition) and appended, as one segment per partition
// (runstore.Partitioned.WriteSegment: the collector's compact columns, about
// 80 bytes a step), to the partition's file in a temporary directory, and a
// fresh collector goes on. The analysis then goes partition by partition: a
// fresh collector reads the partition's segments in the order they were
// written, then takes the partition's runs from the last collector, still in
// memory. Each run's steps reach it in input order, so its results are byte
// for byte what one collector gives; they come out in run-id order.
//
// Before it spills, a store with Options.CloseIdle first tries to make room
// by analyzing the runs that look finished and carrying only the others to
// the fresh collector (idle.go); it spills only when most runs are still
// going once its budget is reached.
//
// It imports runstore (the collector, segments and result files) and
// detect (the policy and results it hands on); it must not import ingest,
// report or cmd.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package spill
