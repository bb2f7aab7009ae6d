package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// RepeatedCall finds the same call (tool and canonical args) made again and
// again with the same result: the agent asked the same question and got the
// same answer, so it learned nothing (guide B).
var RepeatedCall = &Detector{
	ID:        "RA101",
	Slug:      "repeated-identical-call",
	Title:     "Same tool call repeated with the same result",
	RootCause: CauseToolRetryLoop,
	Guard:     "dedup guard on (tool, canonical args): block the 3rd identical call within 10 calls and move to RECOVER",
	Reads:     []string{"tool_calls", "same_args_hash_count", "same_args_hash_max_window", "same_args_hash_max_streak"},
	Params:    []string{"window", "repeat_suspicious", "repeat_runaway", "result_similarity"},
	run:       runRepeatedCall,
}

// callChain is a sequence of calls of one key where each call got the same
// answer as the previous call of that key (equal or near-identical:
// answers.go), at most Window calls apart, with no progress made in
// between: re-running a check after a change that worked is an
// experiment, not a repeat.
type callChain struct {
	key      uint64
	idx      []int // step indices
	lastOrd  int   // call ordinal of the last call
	brokenBy int   // step index of the call of this key that broke the chain with a new result, -1 if none
	errors   int
	// nonRetryable counts errors that say retrying cannot help: SCHEMA_ERROR
	// or retryable:false (guide B: SCHEMA_ERROR is never retried).
	nonRetryable int
	finalized    bool
}

func runRepeatedCall(v *Run, a *analysis, p *Policy) *hit {
	best := longestChain(v, a, p, func(i int) uint64 { return v.call[i] }, func(c *callChain) bool {
		return !pollingWithBackoff(v, a, c)
	})
	if best == nil {
		return nil
	}
	return chainHit(v, a, p, best, "with the same args", Count{"identical_calls", int64(len(best.idx))})
}

// chainHit is the finding of a chain of repeated calls: how (the args) and
// the counts that come first in the evidence.
func chainHit(v *Run, a *analysis, p *Policy, best *callChain, how string, counts ...Count) *hit {
	n := int64(len(best.idx))
	first, last := best.idx[0], best.idx[len(best.idx)-1]
	what := " and the same result"
	switch {
	case best.errors == len(best.idx):
		what = " and the same error (" + v.Names.ErrTypeName(v.ErrType[first]) + ")"
	case v.toUser(first) && !v.sameReplies(best.idx, a.simBits):
		// The replies differed; the agent said the same regardless
		// (answers.go).
		what = ", whatever the replies"
	}
	sev := severityFor(n, p.RepeatSuspicious, p.RepeatRunaway)
	calls := callsBetween(a, first, last)
	if sev == Suspicious && calls >= lowerBoundSpan*int(n) {
		// The same call and answer at the suspicious count, through a
		// stretch of calls that brought nothing lasting and changed
		// nothing (the chain would have broken): a stuck stretch long
		// enough that a person reading it calls it a loop.
		sev = Runaway
	}
	return &hit{
		Finding: Finding{
			Severity: sev,
			Message: fmt.Sprintf("%s called %d times %s%s, steps %d-%d",
				v.Names.ToolName(v.Tool[first]), n, how, what, v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{v.callText(first)},
				Counts: append(counts, Count{"errors", int64(best.errors)}, Count{"calls_in_segment", int64(calls)}),
			},
		},
		first:             first,
		last:              last,
		errorShare:        float64(best.errors) / float64(n),
		nonRetryableShare: float64(best.nonRetryable) / float64(n),
	}
}

// longestChain finds the chain of calls of one key (0: the call takes no
// part) in which every call returned what the previous call of that key
// returned, at most Window calls apart, that is at least RepeatSuspicious
// long and that accept lets through: of the chains at the worst severity,
// the one that began first, as that is where the run ran away and where a
// guard would have stopped it (a longer chain later is the same loop come
// back). The chain is a's, valid until the next call.
func longestChain(v *Run, a *analysis, p *Policy, key func(i int) uint64, accept func(*callChain) bool) *callChain {
	clear(a.chainOf)
	a.chains = a.chains[:0]
	best := -1
	// changedBetween: a new install or a new edit that worked between
	// calls j and i is a change, as lasting progress is, though its output
	// says nothing new: a check re-run after a different edit is another
	// experiment. An edit made again is edits going in circles.
	changedBetween := func(j, i int) bool {
		// An edit that failed, sent again, failed on its own file: only
		// a change to that file could make it land.
		file := uint32(0)
		if v.Flags[j]&v.Flags[i]&flagError != 0 && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit {
			file = v.EditFile[i]
		}
		for k := j + 1; k < i && (a.anyInstall || a.anyEdit); k++ {
			if file != 0 {
				if a.newEdit[k] && v.EditFile[k] == file {
					return true
				}
				continue
			}
			if installedAnew(v, a, k) || a.newEdit[k] {
				return true
			}
		}
		return false
	}
	// brokenBetween: what ends a chain between its call j and the next, i.
	// A change does (changedBetween), and so does progress, as a check
	// re-run after news is another experiment; but the same call failing
	// the same way again, with at most maxRetryGap calls between, was
	// retried whatever the agent learned between. A malformed turn is no
	// call the agent chose to make: malformed turns between real work are
	// not retried.
	brokenBetween := func(j, i, callsBetween int) bool {
		if changedBetween(j, i) {
			return true
		}
		if callsBetween <= maxRetryGap && failedBoth(v, j, i) {
			return false
		}
		if v.sameInstruction(j, i) {
			return false // what came back between changed nothing it carries
		}
		return a.progressedBetween(j, i)
	}
	consider := func(ci int32) {
		c := &a.chains[ci]
		if len(c.idx) < p.RepeatSuspicious || !accept(c) {
			return
		}
		if best < 0 {
			best = int(ci)
			return
		}
		b := &a.chains[best]
		cs := severityFor(int64(len(c.idx)), p.RepeatSuspicious, p.RepeatRunaway)
		bs := severityFor(int64(len(b.idx)), p.RepeatSuspicious, p.RepeatRunaway)
		if cs > bs || (cs == bs && c.idx[0] < b.idx[0]) {
			best = int(ci)
		}
	}
	for ord, i := range a.calls {
		k := key(i)
		if k == 0 {
			continue
		}
		f := v.Flags[i]
		ci, open := a.chainOf[k]
		if !open {
			ci = a.newChain(k)
			a.chainOf[k] = ci
		} else if c := &a.chains[ci]; ord-c.lastOrd > p.Window || !v.sameAnswer(c.idx[len(c.idx)-1], i, a.simBits) ||
			brokenBetween(c.idx[len(c.idx)-1], i, ord-c.lastOrd-1) {
			if ord-c.lastOrd <= p.Window && !v.sameAnswer(c.idx[len(c.idx)-1], i, a.simBits) {
				c.brokenBy = i // the same call answered differently
			}
			c.finalized = true
			consider(ci)
			ci = a.newChain(k)
			a.chainOf[k] = ci
		}
		c := &a.chains[ci]
		c.idx = append(c.idx, i)
		c.lastOrd = ord
		if f&flagError != 0 {
			c.errors++
			if f&flagRetryableF != 0 || v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrSchemaError {
				c.nonRetryable++
			}
		}
	}
	// Close the chains still open. Any order picks the same best: no two
	// chains begin at the same step, so ties resolve the same way.
	for ci := range a.chains {
		if !a.chains[ci].finalized {
			consider(int32(ci))
		}
	}
	if best < 0 {
		return nil
	}
	return &a.chains[best]
}

// maxRetryGap is how many calls may come between two tries of a failing
// call for the second to be a retry whatever those calls brought: a look
// around (a view, a question) between tries, not a stretch of other work.
const maxRetryGap = 2

// failedBoth reports whether calls j and i both failed, neither a
// malformed turn (schema.ErrFormatError): the chain's same answer makes
// it the same failure.
func failedBoth(v *Run, j, i int) bool {
	failed := func(k int) bool {
		return v.Flags[k]&flagError != 0 && v.Names.ErrTypeName(v.ErrType[k]) != schema.ErrFormatError
	}
	return failed(j) && failed(i)
}

// newChain starts a chain of key k in a.chains, reusing the step list of
// the chain a previous run left in that place.
func (a *analysis) newChain(k uint64) int32 {
	n := len(a.chains)
	if n < cap(a.chains) {
		a.chains = a.chains[:n+1]
		a.chains[n] = callChain{key: k, idx: a.chains[n].idx[:0], brokenBy: -1}
	} else {
		a.chains = append(a.chains, callChain{key: k, brokenBy: -1})
	}
	return int32(n)
}

// pollingWithBackoff recognises legitimate polling: the chain ended because
// the same call finally answered differently (and successfully), and the
// agent waited longer and longer between tries. Without ts it cannot be told
// from a retry loop, so it is not exempt.
func pollingWithBackoff(v *Run, a *analysis, c *callChain) bool {
	if c.brokenBy >= 0 {
		return backoffThenChange(v, c.idx, c.brokenBy)
	}
	// A call waited on alongside another (status, then logs, then status)
	// ends when the wait ends: the next call after the chain brings news.
	last := c.idx[len(c.idx)-1]
	for _, i := range a.calls {
		if i > last {
			return a.progress[i] && backoffThenChange(v, c.idx, i)
		}
	}
	return false
}

// backoffThenChange: tries at idx, then the call at next answered with new,
// successful, non-empty data, and the gaps between the tries (next
// included) grew.
func backoffThenChange(v *Run, idx []int, next int) bool {
	if len(idx) < 2 || v.Flags[next]&(flagError|flagEmpty) != 0 || v.Flags[next]&flagResult == 0 {
		return false
	}
	times := make([]int64, 0, len(idx)+1)
	for _, i := range append(idx[:len(idx):len(idx)], next) {
		if v.TS[i] == NoTS {
			return false
		}
		times = append(times, v.TS[i])
	}
	// Model steps between the tries add jitter, so a gap may come out a
	// little shorter than the one before; a retry loop without backoff has
	// gaps that do not grow at all.
	firstGap := times[1] - times[0]
	prevGap := firstGap
	for j := 2; j < len(times); j++ {
		gap := times[j] - times[j-1]
		if 4*gap < 3*prevGap {
			return false
		}
		prevGap = gap
	}
	return firstGap > 0 && 2*prevGap >= 3*firstGap
}

// lowerBoundSpan is how many calls per repeat a chain's stretch must hold
// for a chain at the suspicious count to be runaway: three review cycles
// of a team, each sending the same prompt, getting the same comment and
// an empty hand-over back, are nine calls and more with nothing changed.
const lowerBoundSpan = 3

func callsBetween(a *analysis, first, last int) int {
	n := 0
	for _, i := range a.calls {
		if i >= first && i <= last {
			n++
		}
	}
	return n
}
