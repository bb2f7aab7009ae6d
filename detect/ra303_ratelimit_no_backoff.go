package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// RateLimitNoBackoff finds calls retried after RATE_LIMIT (or HTTP 429)
// without waiting longer each time: hammering a throttled API keeps it
// throttled (guide B: exponential backoff, at most 2 retries). It reads
// ts; a run without ts gets no finding from it rather than a false one.
var RateLimitNoBackoff = &Detector{
	ID:        "RA303",
	Slug:      "ratelimit-no-backoff",
	Title:     "RATE_LIMIT retried without growing backoff",
	RootCause: CauseErrorStorm,
	Guard:     "exponential backoff on RATE_LIMIT (base 800 ms, x2) with a retry cap of 2, then a circuit breaker",
	Reads:     []string{"tool_errors_by_type", "duration_ms"},
	Params:    []string{"backoff_growth", "ratelimit_no_backoff_suspicious", "ratelimit_no_backoff_runaway"},
	run:       runRateLimitNoBackoff,
}

func runRateLimitNoBackoff(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.ToolErrorsByType[schema.ErrRateLimit] < 2 {
		return nil
	}
	type state struct {
		first, last int
		prevIdx     int
		prevGap     int64
		limited     bool // the key's last call was rate limited
		flat        int  // retries whose gap did not grow
	}
	keys := map[uint64]*state{}
	var best *state
	for _, i := range a.calls {
		k := v.call[i]
		s := keys[k]
		if s != nil && s.limited && v.TS[i] != NoTS && v.TS[s.prevIdx] != NoTS {
			gap := v.TS[i] - v.TS[s.prevIdx]
			// The first retry has nothing to grow from; later ones must wait
			// backoff_growth times longer than the previous retry did.
			if s.prevGap > 0 && float64(gap) < p.BackoffGrowth*float64(s.prevGap) {
				s.flat++
				s.last = i
				if best == nil || s.flat > best.flat {
					best = s
				}
			}
			s.prevGap = gap
		}
		limited := v.Flags[i]&flagError != 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrRateLimit
		switch {
		case limited && (s == nil || !s.limited):
			s = &state{first: i, last: i}
			keys[k] = s
		case !limited && s != nil:
			s.limited = false
			s.prevGap = 0
		}
		if s != nil {
			s.prevIdx = i
			if limited {
				s.limited = true
			}
		}
	}
	if best == nil || best.flat < p.RateLimitSuspicious {
		return nil
	}
	first, last := best.first, best.last
	tool := v.Names.ToolName(v.Tool[first])
	n := int64(best.flat)
	h := stretchHit(v, first, last, severityFor(n, p.RateLimitSuspicious, p.RateLimitRunaway),
		fmt.Sprintf("%s retried %d times after RATE_LIMIT without backing off, steps %d-%d", tool, n, v.Step[first], v.Step[last]),
		Count{"retries_without_backoff", n})
	h.Evidence.Keys = []string{v.callText(first)}
	h.errorShare = segmentErrorShare(v, a, first, last)
	return h
}
