package detect

import "fmt"

// MemoryContamination finds a memory written from a guess or a failure
// (tagged inference or tool_error, or an entry with low confidence) that
// the agent then retrieves at step after step of a stretch without
// progress: the wrong fact keeps pulling it back (guide B).
var MemoryContamination = &Detector{
	ID:        "RA501",
	Slug:      "memory-contamination",
	Title:     "A memory written from inference or a tool error drives the loop",
	RootCause: CauseMemoryContamination,
	Guard:     "type every memory (observation, decision, constraint) with source and confidence, filter inference and tool errors on read, keep tool errors in their own channel",
	Reads:     []string{"no_progress_steps", "progress_events"},
	Params:    []string{"memory_reads_suspicious", "memory_reads_runaway", "memory_share"},
	run:       runMemoryContamination,
}

func runMemoryContamination(v *Run, a *analysis, p *Policy) *hit {
	if len(v.Suspect) == 0 || len(v.MemReads) < p.MemoryReadsSuspicious {
		return nil
	}
	var best *hit
	var bestReads int
	for _, w := range v.Suspect {
		// Walk the stretches without progress after the write, counting the
		// steps in each that retrieved this memory.
		reads := map[int]bool{}
		for _, r := range v.MemReads {
			if r.At > w.At && r.ID == w.ID {
				reads[r.At] = true
			}
		}
		if len(reads) < p.MemoryReadsSuspicious {
			continue
		}
		start := -1
		for i := w.At + 1; i <= v.Len(); i++ {
			if i < v.Len() && !a.progress[i] {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if h, n := contaminationIn(v, p, w, reads, start, i-1); h != nil && (best == nil || n > bestReads) {
					best, bestReads = h, n
				}
			}
			start = -1
		}
	}
	return best
}

func contaminationIn(v *Run, p *Policy, w SuspectWrite, reads map[int]bool, start, end int) (*hit, int) {
	n, first, last := 0, -1, -1
	for i := start; i <= end; i++ {
		if reads[i] {
			n++
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if n < p.MemoryReadsSuspicious {
		return nil, 0
	}
	// The loop's first pass may still have made first-time calls (progress,
	// so outside the stretch) while already retrieving the memory: extend the
	// loop back over retrievals at most two steps apart, after the write.
	for i := first - 1; i > w.At && i >= first-2; i-- {
		if reads[i] {
			first = i
			n++
		}
	}
	// The loop runs from the first retrieval to the end of the stretch.
	loopSteps := end - first + 1
	share := float64(n) / float64(loopSteps)
	if share < p.MemoryShare {
		return nil, 0
	}
	return &hit{
		Finding: Finding{
			Severity: severityFor(int64(n), p.MemoryReadsSuspicious, p.MemoryReadsRunaway),
			Message: fmt.Sprintf("memory %s (written at step %d, %s) retrieved at %d of %d steps without progress, steps %d-%d",
				w.Name, v.Step[w.At], w.Why, n, loopSteps, v.Step[first], v.Step[end]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps: []StepRange{{v.Step[w.At], v.Step[w.At]}, {v.Step[first], v.Step[end]}},
				Keys:  []string{w.Name},
				Counts: []Count{{"written_at_step", v.Step[w.At]}, {"retrievals", int64(n)}, {"loop_steps", int64(loopSteps)},
					{"share_percent", int64(share*100 + 0.5)}},
			},
		},
		first: first,
		last:  max(end, last),
	}, n
}
