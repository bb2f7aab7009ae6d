package synth

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Root causes, as the labels spell them. They are the same strings as
// detect.RootCause; synth does not import detect, so that the corpus the
// detectors are scored on is written without knowledge of how they work.
const (
	CauseToolRetryLoop       = "tool-retry-loop"
	CauseReplanLoop          = "replan-loop"
	CauseMemoryContamination = "memory-contamination"
	CauseBudgetIgnored       = "budget-ignored"
	CauseEmptyResultLoop     = "empty-result-loop"
	CauseErrorStorm          = "error-storm"
)

// AllCauses lists the root causes Generate injects by default, in report order.
var AllCauses = []string{CauseToolRetryLoop, CauseReplanLoop, CauseMemoryContamination,
	CauseBudgetIgnored, CauseEmptyResultLoop, CauseErrorStorm}

// Label values.
const (
	LabelRunaway = "runaway"
	LabelHealthy = "healthy"
)

// Config says what corpus to generate. The same Config always yields the same
// bytes: nothing depends on the clock, map order or the machine.
type Config struct {
	Runs        int     // number of runs (ignored when TargetBytes > 0)
	RunawayRate float64 // fraction of runs that get one injected runaway pattern, 0..1
	Seed        uint64
	// Interleave is how many runs are open at once in the output; the next
	// line comes from one of them picked at random. Default 16; 1 writes
	// runs one after the other.
	Interleave int
	// Causes are the root causes to inject, round-robin in shuffled blocks so
	// that each gets an equal share; default AllCauses.
	Causes []string
	// TargetBytes, when > 0, keeps opening runs until about this many bytes
	// are written (the runs already open are finished, so the output ends
	// at most one run per open slot past it). For benchmark corpora.
	TargetBytes int64
	// Start is the base timestamp (default 2026-11-29T00:00:00Z). Runs start
	// a few seconds apart from it.
	Start time.Time
}

// Summary counts what Generate wrote.
type Summary struct {
	Runs, RunawayRuns, Lines int
	Bytes                    int64
}

const defaultInterleave = 16

var defaultStart = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// normalized fills the defaults and rejects what cannot be generated.
func (c Config) normalized() (Config, error) {
	if c.Runs < 0 {
		return c, fmt.Errorf("synth: runs %d is negative", c.Runs)
	}
	if math.IsNaN(c.RunawayRate) || c.RunawayRate < 0 || c.RunawayRate > 1 {
		return c, fmt.Errorf("synth: runaway rate %v is outside 0..1", c.RunawayRate)
	}
	if c.Interleave < 0 {
		return c, fmt.Errorf("synth: interleave %d is negative", c.Interleave)
	}
	if c.TargetBytes < 0 {
		return c, fmt.Errorf("synth: target bytes %d is negative", c.TargetBytes)
	}
	if c.Interleave == 0 {
		c.Interleave = defaultInterleave
	}
	if c.Start.IsZero() {
		c.Start = defaultStart
	}
	if len(c.Causes) == 0 {
		c.Causes = AllCauses
	}
	seen := map[string]bool{}
	for _, cause := range c.Causes {
		if !isCause(cause) {
			return c, fmt.Errorf("synth: unknown root cause %q (want one of %v)", cause, AllCauses)
		}
		if seen[cause] {
			return c, fmt.Errorf("synth: root cause %q listed twice", cause)
		}
		seen[cause] = true
	}
	if c.RunawayRate > 0 && len(c.Causes) == 0 {
		return c, errors.New("synth: no root causes to inject")
	}
	return c, nil
}

func isCause(s string) bool {
	for _, c := range AllCauses {
		if c == s {
			return true
		}
	}
	return false
}
