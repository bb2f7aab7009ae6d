package detect

import "fmt"

// NearDuplicateCall finds the same call made again and again with cosmetic
// changes (a fresh request id or timestamp, other case or spacing, another
// key order) and the same result. An exact-args dedup guard, Gemini CLI's
// or guide D's, never sees two of them as equal, so the loop runs on.
var NearDuplicateCall = &Detector{
	ID:        "RA103",
	Slug:      "near-duplicate-call",
	Title:     "Same call with cosmetic changes to its args, same result",
	RootCause: CauseToolRetryLoop,
	Guard:     "dedup guard on (tool, normalised args): compare args after dropping request ids, timestamps and nonces and ignoring case, white space and key order",
	Reads:     []string{"tool_calls", "same_norm_args_count"},
	Params:    []string{"window", "repeat_suspicious", "repeat_runaway", "result_similarity", "volatile_keys"},
	run:       runNearDuplicateCall,
}

func runNearDuplicateCall(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.SameNormArgsMax < int64(p.RepeatSuspicious) {
		return nil
	}
	best := longestChain(v, a, p, func(i int) uint64 {
		if v.Norm[i] == 0 {
			return 0
		}
		return callIdentity(v.Tool[i], uint64(v.Norm[i]))
	}, func(c *callChain) bool {
		// A chain of one exact args is RA101's finding, not this one's.
		return distinctArgs(v, c.idx) >= 2 && !pollsUntilChanged(v, c)
	})
	if best == nil {
		return nil
	}
	variants := distinctArgs(v, best.idx)
	how := fmt.Sprintf("with args that differ only in volatile keys, case, spacing or key order (%d variants)", variants)
	return chainHit(v, a, p, best, how, Count{"near_duplicate_calls", int64(len(best.idx))}, Count{"args_variants", int64(variants)})
}

// distinctArgs counts the different exact args among the calls at idx.
func distinctArgs(v *Run, idx []int) int {
	seen := make(map[uint64]bool, 4)
	for _, i := range idx {
		seen[v.Args[i]] = true
	}
	return len(seen)
}

// pollsUntilChanged recognises polling: the same question asked with a
// fresh timestamp or request id until the answer changed. The chain ended
// because the next such call returned new, successful, non-empty data, and
// the chain itself was answers, not errors.
func pollsUntilChanged(v *Run, c *callChain) bool {
	if c.brokenBy < 0 || c.errors > 0 {
		return false
	}
	f := v.Flags[c.brokenBy]
	return f&flagResult != 0 && f&(flagError|flagEmpty) == 0
}
