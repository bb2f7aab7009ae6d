package detect

import (
	"math"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// analyze runs the indicator pass and every detector over one run and
// classifies it. a is scratch reused across runs.
func analyze(v *Run, a *analysis, p *Policy) RunResult {
	indicatorPass(v, p, a)
	var hits []*hit
	for _, d := range Registry {
		h := d.run(v, a, p)
		if h == nil || h.Severity == Healthy {
			continue
		}
		h.Detector, h.Slug, h.RootCause, h.Guard = d.ID, d.Slug, d.RootCause, d.Guard
		if h.cause != "" {
			h.RootCause = h.cause
		}
		h.WastedSteps, h.WastedTokens, h.WastedCostUSD = wasteFrom(v, h.first)
		hits = append(hits, h)
	}
	res := RunResult{
		RunID:            v.ID,
		OnsetStep:        -1,
		Steps:            int64(v.Len()),
		Indicators:       a.ind,
		Findings:         []Finding{},
		Signals:          []string{},
		DataProblems:     v.DataProblems,
		DuplicateSteps:   v.Duplicates,
		ConflictingSteps: v.Conflicts,
	}
	if v.Duplicates+v.Conflicts > int64(len(v.DataProblems)) {
		res.DataProblems = append(res.DataProblems, moreProblems(v.Duplicates+v.Conflicts-int64(len(v.DataProblems))))
	}
	res.CostLogged = a.ind.CostUSD > 0
	res.CostEstimated = a.rowFlags&flagCostEst != 0
	if len(hits) == 0 {
		return res
	}
	primary := choosePrimary(v, a, hits)
	fail := asOtherCopy(v, a, primary)
	probe := -1
	if fail < 0 {
		probe = asUnseenProbe(v, a, primary)
	}
	for _, h := range hits {
		res.Verdict = max(res.Verdict, h.Severity)
		res.Signals = append(res.Signals, h.Slug)
	}
	res.RootCause = primary.RootCause
	onset := onsetOf(v, a, p, primary, hits)
	if primary.Detector == ErrorStreak.ID && primary.RootCause == CauseReplanLoop {
		onset = wordsAgain(v, a, onset, primary.last)
	}
	if fail >= 0 {
		onset = beliefOnset(v, a, fail, onset)
	}
	if probe >= 0 {
		onset = probeOnset(v, a, probe, onset)
	}
	res.OnsetStep = v.Step[onset]
	res.Headline = primary.Message
	res.WastedSteps, res.WastedTokens, res.WastedCostUSD = wasteFrom(v, onset)
	slices.SortStableFunc(hits, func(x, y *hit) int {
		switch {
		case x == primary:
			return -1
		case y == primary:
			return 1
		case x.Severity != y.Severity:
			return int(y.Severity) - int(x.Severity)
		}
		return strings.Compare(x.Detector, y.Detector)
	})
	for _, h := range hits {
		res.Findings = append(res.Findings, h.Finding)
	}
	return res
}

// choosePrimary applies the root-cause precedence of docs/root-causes.md:
//
//  1. Loop patterns explain a run before symptoms do: no progress and a
//     budget overrun name the cause only when no pattern fired at least as
//     severe as they did (budget first, as guide B lists it as a pattern
//     of its own).
//  2. A memory written from inference or a tool error and retrieved through
//     the loop (RA501) is what drives the patterns it overlaps.
//  3. A pattern whose segment overlaps an error streak and is mostly failed
//     calls is that error storm (an error storm on one call is an
//     error-storm, not a tool-retry-loop), unless the call kept failing
//     with a non-retryable error (SCHEMA_ERROR, retryable:false): retrying
//     what cannot succeed is a tool-retry-loop.
//  4. A repeated call, near-duplicate, paging loop, cycle or rephrased
//     search inside a re-planning loop is the re-planning loop: the agent
//     went back through PLAN each time it repeated itself.
//  5. Of two overlapping findings of one root cause, the more specific
//     detector gives the evidence (RA302 and RA102 over RA101, RA303 over
//     RA301, RA105 over RA104; RA601, RA101, RA103 and RA102 over a
//     rephrased search, RA602, as they say what the answers were; RA601
//     over pages read under one thought, RA105, the pages having come
//     back empty) when it is at least as severe; any loop
//     found in the steps of a stretch of reads (RA207), at least as
//     severe, gives them over it.
//  6. Otherwise the worst severity wins, then a finding runaway by its
//     detector's own threshold before one runaway only at the lower
//     bound (hit.marginal), then the loop that began first.
//
// Then the cause of the finding chosen: a repeat of one instruction (a
// turn from one of the run's agents to another, handed out again), or a
// cycle with one in its laps, is re-planning (the document's rule 8); a
// repeat of one edit, not a file written whole, is one change tried again
// and again, an error storm (its rule 3), also when no output was logged.
func choosePrimary(v *Run, a *analysis, hits []*hit) *hit {
	byID := map[string]*hit{}
	var patterns, symptoms []*hit
	worstPattern, worstSymptom := Healthy, Healthy
	for _, h := range hits {
		byID[h.Detector] = h
		if Lookup(h.Detector).Symptom {
			symptoms = append(symptoms, h)
			worstSymptom = max(worstSymptom, h.Severity)
		} else {
			patterns = append(patterns, h)
			worstPattern = max(worstPattern, h.Severity)
		}
	}
	if len(patterns) == 0 || worstPattern < worstSymptom {
		// Budget goes before no-progress (registry order has RA202 first).
		slices.SortStableFunc(symptoms, func(x, y *hit) int {
			return boolRank(y.RootCause == CauseBudgetIgnored) - boolRank(x.RootCause == CauseBudgetIgnored)
		})
		return pickWorst(symptoms)
	}
	dropped := map[*hit]bool{}
	// A suspect memory retrieved through the loop is what drives it.
	if mem := byID[MemoryContamination.ID]; mem != nil {
		for _, h := range patterns {
			if h != mem && overlaps(h, mem) {
				dropped[h] = true
			}
		}
	}
	storm := byID[ErrorStreak.ID]
	// A repeated call's own chain says how many of its calls failed.
	isRepeat := func(h *hit) bool { return h.Detector == RepeatedCall.ID || h.Detector == NearDuplicateCall.ID }
	if storm != nil && !dropped[storm] {
		for _, h := range patterns {
			if h == storm || dropped[h] || h.RootCause == CauseErrorStorm || h.RootCause == CauseMemoryContamination || !overlaps(h, storm) {
				continue
			}
			if h.Detector == NonRetryableRetry.ID || (isRepeat(h) && h.errorShare >= 0.5 && 2*h.nonRetryableShare >= h.errorShare) {
				// Retrying a call that failed for good is the agent's loop,
				// not a failing dependency: tool-retry-loop.
				dropped[storm] = true
				continue
			}
			if h.Detector == RepeatedFinish.ID && h.Severity >= storm.Severity && 2*refusedFinishes(v, a, storm.first, storm.last) >= evidenceCount(storm, "failed_calls") {
				// The storm is mostly the agent's finish, refused by the
				// harness and sent again: the finish retried, which the
				// repeated finish says from its first.
				dropped[storm] = true
				continue
			}
			if isRepeat(h) && h.errorShare < 0.5 && !talked(v, h.first) && h.Severity >= storm.Severity && h.last > storm.last &&
				evidenceCount(h, "identical_calls")+evidenceCount(h, "near_duplicate_calls") > evidenceCount(storm, "failed_calls") {
				// A call that went through, made again more times than the
				// storm's calls failed and on past its last failure: the
				// failures were beside the loop, the repeat is the loop.
				dropped[storm] = true
				continue
			}
			share := h.errorShare
			if !isRepeat(h) || talked(v, h.first) {
				// A chain of turns of conversation fails in none of its
				// own calls: what failed around them says whether they
				// are the storm's.
				share = segmentErrorShare(v, a, h.first, h.last)
			}
			if share >= 0.5 {
				dropped[h] = true
			}
		}
	}
	// Searches that come back empty because the same query is sent again
	// and again are a retry loop: the repeat or cycle gives the evidence.
	if empty := byID[EmptyResultLoop.ID]; empty != nil && empty.repeatShare >= 0.5 {
		for _, id := range []string{RepeatedCall.ID, CallCycle.ID, NearDuplicateCall.ID, PagingLoop.ID, SameThoughtPaging.ID} {
			if h := byID[id]; h != nil && overlaps(empty, h) && h.Severity >= empty.Severity {
				dropped[empty] = true
			}
		}
	}
	if replan := byID[ReplanLoop.ID]; replan != nil && !dropped[replan] {
		for _, id := range []string{RepeatedCall.ID, CallCycle.ID, NearDuplicateCall.ID, PagingLoop.ID, RephrasedSearch.ID} {
			if h := byID[id]; h != nil && overlaps(replan, h) {
				dropped[h] = true
			}
		}
	}
	// The more specific detector of one root cause gives the evidence.
	for _, pair := range [][2]string{
		{NonRetryableRetry.ID, RepeatedCall.ID},
		{CallCycle.ID, RepeatedCall.ID},
		{RateLimitNoBackoff.ID, ErrorStreak.ID},
		{SameThoughtPaging.ID, PagingLoop.ID},
		{EmptyResultLoop.ID, RephrasedSearch.ID},
		{RepeatedCall.ID, RephrasedSearch.ID},
		{NearDuplicateCall.ID, RephrasedSearch.ID},
		{CallCycle.ID, RephrasedSearch.ID},
		{EmptyResultLoop.ID, SameThoughtPaging.ID},
	} {
		specific, generic := byID[pair[0]], byID[pair[1]]
		if specific != nil && generic != nil && !dropped[specific] && overlaps(specific, generic) && specific.Severity >= generic.Severity {
			dropped[generic] = true
		}
	}
	// A stretch of reads spans all the looking around a loop and before
	// it; a loop found in the same steps, at least as severe, says what
	// repeated and where it began.
	if look := byID[LookOnly.ID]; look != nil {
		for _, h := range patterns {
			if h != look && !dropped[h] && overlaps(h, look) && h.Severity >= look.Severity {
				dropped[look] = true
			}
		}
	}
	var kept []*hit
	for _, h := range patterns {
		if !dropped[h] {
			kept = append(kept, h)
		}
	}
	if len(kept) == 0 {
		return pickWorst(patterns) // the rules cannot drop everything, but never guess empty
	}
	p := pickWorst(kept)
	if p.RootCause == CauseToolRetryLoop && ((isRepeat(p) && v.instructs(p.first)) || (p.Detector == CallCycle.ID && instructsIn(v, p.first, p.last))) {
		// The same instruction handed out again by one of the run's
		// agents to another (alone, or in each lap of a cycle) is the
		// team re-planning, not a tool retried.
		p.RootCause = CauseReplanLoop
	}
	if isRepeat(p) && p.RootCause == CauseToolRetryLoop && v.Flags[p.first]&flagCreate == 0 && v.Names.IntentName(v.Intent[p.first]) == schema.IntentEdit &&
		!(p.errorShare >= 0.5 && 2*p.nonRetryableShare >= p.errorShare) {
		// One change sent again word for word cannot have landed each
		// time (the text it replaced is gone after the first): it is one
		// change tried again and again, whatever its output, which a log
		// without outputs does not show. An edit that failed for good
		// (a text replaced by itself: it changes nothing however often
		// it is sent) is the agent's retry loop, as any call retried
		// after a non-retryable failure is.
		p.RootCause = CauseErrorStorm
	}
	if p.Detector == ErrorStreak.ID && p.RootCause == CauseErrorStorm && 2*p.nonRetryableShare > 1 {
		// A storm mostly of failures that say the same call
		// cannot succeed (edits that put back the text they replace,
		// sent again under new names) is the agent retrying what cannot
		// succeed, as a repeated call of them is: tool-retry-loop. Only
		// as the primary finding: beside another, the storm stays the
		// evidence of the failures it holds.
		p.RootCause = CauseToolRetryLoop
	}
	if failingRetry(p) {
		// The same failing call retried without a real change is an error
		// storm, also when it is one call each time; retrying what failed
		// for good (a non-retryable error) stays the agent's retry loop.
		p.RootCause = CauseErrorStorm
	}
	return p
}

// instructsIn reports whether a step in [first, last] is an instruction
// from one of the run's agents to another (Run.instructs).
func instructsIn(v *Run, first, last int) bool {
	for i := first; i <= last; i++ {
		if v.instructs(i) {
			return true
		}
	}
	return false
}

// failingRetry: a repeated call, cycle or paging sweep whose calls mostly
// failed, and not mostly with a non-retryable error.
func failingRetry(h *hit) bool {
	switch h.Detector {
	case RepeatedCall.ID, NearDuplicateCall.ID, CallCycle.ID, PagingLoop.ID:
		return h.errorShare >= 0.5 && 2*h.nonRetryableShare < h.errorShare
	}
	return false
}

// wasteFrom is what the run spent from step index first to its end.
func wasteFrom(v *Run, first int) (steps, tokens int64, cost float64) {
	for i := first; i < v.Len(); i++ {
		tokens += v.Tokens[i]
		cost += v.Cost[i]
	}
	return int64(v.Len() - first), tokens, roundCost(cost)
}

// roundCost keeps sums of float costs to a nano-dollar, so reports do not
// carry binary rounding noise (0.012130999999999998).
func roundCost(c float64) float64 { return math.Round(c*1e9) / 1e9 }

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pickWorst(hs []*hit) *hit {
	best := hs[0]
	for _, h := range hs[1:] {
		switch {
		case h.Severity != best.Severity:
			if h.Severity > best.Severity {
				best = h
			}
		case h.marginal != best.marginal:
			if !h.marginal {
				best = h
			}
		case h.first < best.first:
			best = h
		}
	}
	return best
}

func overlaps(x, y *hit) bool { return x.first <= y.last && y.first <= x.last }

// refusedFinishes counts the failed finish calls (STOP) in [first, last]:
// finishes the harness refused, the run going on.
func refusedFinishes(v *Run, a *analysis, first, last int) int64 {
	var n int64
	for _, i := range a.calls {
		if i >= first && i <= last && v.Flags[i]&flagError != 0 && v.State[i] == schema.StateStop {
			n++
		}
	}
	return n
}

func segmentErrorShare(v *Run, a *analysis, first, last int) float64 {
	calls, errs := 0, 0
	for _, i := range a.calls {
		if i < first || i > last || v.Flags[i]&flagResult == 0 || talked(v, i) {
			continue
		}
		calls++
		if v.Flags[i]&flagError != 0 {
			errs++
		}
	}
	if calls == 0 {
		return 0
	}
	return float64(errs) / float64(calls)
}

func moreProblems(n int64) string {
	return "... and " + itoa(n) + " more duplicate steps"
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// evidenceCount is the finding's count of that name, 0 when it has none.
func evidenceCount(h *hit, name string) int64 {
	for _, c := range h.Evidence.Counts {
		if c.Name == name {
			return c.Value
		}
	}
	return 0
}
