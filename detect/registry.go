package detect

// Detector is one loop pattern: data that documents it, plus the function
// that finds it in a run. IDs are permanent and never reused; the families
// are RA1xx tool calls, RA2xx control flow, RA3xx errors, RA4xx budgets,
// RA5xx memory, RA6xx results.
// Every detector has docs/detectors/<ID>.md and positive and negative
// fixtures under fixtures/detectors/ (TestRegistryDocsAndFixtures).
type Detector struct {
	ID        string
	Slug      string
	Title     string
	RootCause RootCause
	// Symptom detectors (no progress, budget overrun) name a root cause only
	// when no loop-pattern detector fired (docs/root-causes.md).
	Symptom bool
	// Guard is the runtime guard that would have stopped the pattern.
	Guard string
	// Reads names the indicators (json names) the detector reads.
	Reads []string
	// Params names the policy keys that set its thresholds.
	Params []string

	run func(v *Run, a *analysis, p *Policy) *hit
}

// Registry lists every detector, sorted by ID. It is explicit on purpose: no
// init() registration, so what runs is what is listed here.
var Registry = []*Detector{
	RepeatedCall,
	CallCycle,
	NearDuplicateCall,
	PagingLoop,
	SameThoughtPaging,
	ReplanLoop,
	NoProgress,
	NoTerminalState,
	Monologue,
	StaleTalk,
	RepeatedFinish,
	LookOnly,
	RestatedTurn,
	ErrorStreak,
	NonRetryableRetry,
	RateLimitNoBackoff,
	UnchangedReport,
	BudgetOverrun,
	MemoryContamination,
	EmptyResultLoop,
	RephrasedSearch,
}

// Lookup returns the detector with the given ID or slug, or nil.
func Lookup(idOrSlug string) *Detector {
	for _, d := range Registry {
		if d.ID == idOrSlug || d.Slug == idOrSlug {
			return d
		}
	}
	return nil
}

// hit is a detector's finding plus the loop segment it covers, which root
// cause precedence compares across detectors.
type hit struct {
	Finding
	first, last int // indices into the run view
	// errorShare is the share of failed calls in the segment, and
	// nonRetryableShare the share that failed with a non-retryable error.
	errorShare        float64
	nonRetryableShare float64
	// repeatShare is, for an empty-result loop, the share of its empty
	// results that repeated a query already made: the same search again is
	// a retry loop, a rephrased one a search loop.
	repeatShare float64
	// cause, when set, is the root cause the evidence shows, in place of
	// the detector's own (a stretch without progress made of calls and no
	// plans is a retry loop, not a re-planning one).
	cause RootCause
	// asFound marks a stretch whose actions are new each time (one change
	// retried through different failures): its onset is its first step,
	// not the first instance of an action that comes back.
	asFound bool
	// marginal marks a finding that is runaway only at its detector's
	// lower bound (RA301: the same error back three times with the agent
	// acting between): another runaway loop explains the run before it.
	marginal bool
}

func severityFor(value int64, suspicious, runaway int) Verdict {
	switch {
	case value >= int64(runaway):
		return Runaway
	case value >= int64(suspicious):
		return Suspicious
	}
	return Healthy
}

// chain is one thing coming back: the step indices of its first and last
// instances and how many there are.
type chain struct{ first, last, n int }

// stretchHit is the finding of a loop found as one stretch of steps, first
// to last (step indices): its onset is the first, its evidence the range
// and one count.
func stretchHit(v *Run, first, last int, sev Verdict, message string, count Count) *hit {
	return &hit{
		Finding: Finding{
			Severity:  sev,
			Message:   message,
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: []Count{count},
			},
		},
		first: first,
		last:  last,
	}
}

// streak is the longest run of consecutive positions that match, over the
// step indices in order; positions for which skip is true neither break nor
// extend it. first and last are step indices; n is 0 when nothing matched.
type streak struct {
	first, last, n int
	asFound        bool   // hit.asFound
	shape          string // what the storm is, when its failures alone do not say: a format with one %d, its failures (RA301's message)
	check, checked int    // RA301: the call after the storm that answered as the one before it did, and that one (unchangedCheck); -1 or 0 when none
}

func longestStreak(indices func(yield func(int) bool), skip, match func(i int) bool) streak {
	var best, cur streak
	for i := range indices {
		if skip != nil && skip(i) {
			continue
		}
		if !match(i) {
			cur.n = 0
			continue
		}
		if cur.n == 0 {
			cur.first = i
		}
		cur.n++
		cur.last = i
		if cur.n > best.n {
			best = cur
		}
	}
	return best
}

// steps yields 0..n-1; calls yields the indices of steps with a tool call.
func steps(n int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func (a *analysis) callSteps(yield func(int) bool) {
	for _, i := range a.calls {
		if !yield(i) {
			return
		}
	}
}
