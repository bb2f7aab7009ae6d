package detect

// What spill needs to analyze the runs that look finished while the input
// is still being read (spill.Options.CloseIdle), and carry the others over.

// Idle reports, for each run (by its index in the collector), whether none
// of its steps is among the last recent steps collected, and how many steps
// the other, active, runs hold.
func (c *Collector) Idle(recent int) (idle []bool, activeRows int) {
	idle = make([]bool, len(c.runIDs))
	for i := range idle {
		idle[i] = true
	}
	from := int32(max(c.run.len()-recent, 0))
	for row := from; row < int32(c.run.len()); row++ {
		idle[c.run.at(row)] = false
	}
	for ci := range c.run.chunks {
		for _, r := range c.run.chunks[ci] {
			if !idle[r] {
				activeRows++
			}
		}
	}
	return idle, activeRows
}

// StreamRuns is Stream over the runs whose index has keep set.
func (c *Collector) StreamRuns(workers int, keep []bool, emit func(*RunResult) error) error {
	c.only = keep
	defer func() { c.only = nil }()
	return c.stream(workers, nil, emit)
}
