package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// NonRetryableRetry finds a call retried after it failed with an error that
// says retrying cannot help: SCHEMA_ERROR (guide B: maxRetries 0, fix
// the args or the prompt) or retryable:false (guide D: do not call again).
var NonRetryableRetry = &Detector{
	ID:        "RA302",
	Slug:      "nonretryable-retry",
	Title:     "Call retried after a non-retryable error",
	RootCause: CauseToolRetryLoop,
	Guard:     "retry policy by error type: SCHEMA_ERROR and retryable:false stop the call and move to RECOVER to repair the args",
	Reads:     []string{"tool_errors", "tool_errors_by_type"},
	Params:    []string{"nonretryable_retries_suspicious", "nonretryable_retries_runaway"},
	run:       runNonRetryableRetry,
}

func nonRetryable(v *Run, i int) bool {
	f := v.Flags[i]
	return f&flagError != 0 && (f&flagRetryableF != 0 || v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrSchemaError)
}

func runNonRetryableRetry(v *Run, a *analysis, p *Policy) *hit {
	type state struct {
		firstFail int // step index of the failure whose retries are counted
		lastIdx   int
		retries   int
		failing   bool // the key's last result was a non-retryable error
	}
	keys := map[uint64]*state{}
	var best *state
	for _, i := range a.calls {
		k := v.call[i]
		s := keys[k]
		if s != nil && s.failing {
			s.retries++
			s.lastIdx = i
			if best == nil || s.retries > best.retries {
				best = s
			}
		}
		if v.Flags[i]&flagResult == 0 {
			continue
		}
		if nonRetryable(v, i) {
			if s == nil || !s.failing {
				s = &state{firstFail: i, lastIdx: i}
				keys[k] = s
			}
			s.failing = true
		} else if s != nil {
			s.failing = false
		}
	}
	if best == nil || best.retries < p.NonRetryableSuspicious {
		return nil
	}
	first, last := best.firstFail, best.lastIdx
	tool := v.Names.ToolName(v.Tool[first])
	n := int64(best.retries)
	h := stretchHit(v, first, last, severityFor(n, p.NonRetryableSuspicious, p.NonRetryableRunaway),
		fmt.Sprintf("%s retried %d times after a non-retryable %s, steps %d-%d",
			tool, n, v.Names.ErrTypeName(v.ErrType[first]), v.Step[first], v.Step[last]),
		Count{"retries", n})
	h.Evidence.Keys = []string{v.callText(first)}
	h.errorShare, h.nonRetryableShare = segmentErrorShare(v, a, first, last), 1
	return h
}
