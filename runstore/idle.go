package runstore

import "github.com/runawayhq/runaway/detect"

// What spill needs to analyze the runs that look finished while the input
// is still being read (spill.Options.CloseIdle), and carry the others over.

// Idle reports, for each run (by its index in the collector), whether none
// of its steps is among the last window(maxGap) steps collected, and how
// many steps the other, active, runs hold. maxGap is the longest stretch of
// steps of other runs seen between two consecutive steps of one run: how
// long a run that is still going has been seen to stay silent. Stretches
// of half the collector or more are left out: such a run came back after
// it would have been taken for finished anyway, and one of them must not
// make every run look active.
func (c *Collector) Idle(window func(maxGap int) int) (idle []bool, activeRows int) {
	n := len(c.runIDs)
	last := make([]int32, n) // row+1 of the run's last step
	count := make([]int32, n)
	maxGap, row, half := 0, int32(0), c.run.len()/2
	for ci := range c.run.chunks {
		for _, r := range c.run.chunks[ci] {
			row++
			if l := last[r]; l > 0 {
				if gap := int(row - l - 1); gap < half {
					maxGap = max(maxGap, gap)
				}
			}
			last[r] = row
			count[r]++
		}
	}
	from := int32(max(int(row)-window(maxGap), 0))
	idle = make([]bool, n)
	for r := range idle {
		if idle[r] = last[r] <= from; !idle[r] {
			activeRows += int(count[r])
		}
	}
	return idle, activeRows
}

// RunID is the id of a run by its index, as Idle and PartitionRuns number
// runs.
func (c *Collector) RunID(run int) string { return c.runIDs[run] }

// StreamRuns is Stream over the runs whose index has keep set.
func (c *Collector) StreamRuns(p detect.Policy, workers int, keep []bool, emit func(*detect.RunResult) error) error {
	return c.stream(&p, workers, keep, nil, emit)
}

// SourceRanges gives, for each run, the lowest and highest src_file its
// steps came from: a run analyzed in pieces is read again from those
// sources only.
func (c *Collector) SourceRanges() func(runID string) (lo, hi int32) {
	n := len(c.runIDs)
	lo, hi := make([]int32, n), make([]int32, n)
	for r := range lo {
		lo[r] = -1
	}
	row := int32(0)
	for ci := range c.run.chunks {
		for _, r := range c.run.chunks[ci] {
			f := c.file.at(row)
			if lo[r] < 0 || f < lo[r] {
				lo[r] = f
			}
			hi[r] = max(hi[r], f)
			row++
		}
	}
	return func(id string) (int32, int32) {
		r, ok := c.runIndex[id]
		if !ok || lo[r] < 0 {
			return 0, 0
		}
		return lo[r], hi[r]
	}
}
