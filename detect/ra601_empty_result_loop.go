package detect

import (
	"fmt"
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// EmptyResultLoop finds an agent rephrasing its query for one intent (the
// logged intent, else queries of one tool sharing most of their words) while
// every result comes back empty (guide A: "a tool returns empty or
// not-found twice for the same intent: stop and answer with assumptions,
// unknowns and questions").
var EmptyResultLoop = &Detector{
	ID:        "RA601",
	Slug:      "empty-result-loop",
	Title:     "Empty results for one intent, again and again",
	RootCause: CauseEmptyResultLoop,
	Guard:     "stop after 2 empty results per intent and answer with assumptions, unknowns and questions for the user",
	Reads:     []string{"empty_results"},
	Params:    []string{"empty_results_suspicious", "empty_results_runaway"},
	run:       runEmptyResultLoop,
}

func runEmptyResultLoop(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.EmptyResults < int64(p.EmptySuspicious) {
		return nil
	}
	type search struct {
		first, last int
		shown       int // a call whose args evidence can show, -1 if none
		empties     int
		queries     map[uint64]bool
		tool        int32
		words       uint64 // of the last query; 0 for a search grouped by tool alone
		firstOrd    int    // call ordinal of its first empty result
		lastOrd     int    // call ordinal of its last empty result
		// prev is the search of the same intent, or of the same tool and
		// words, that ended just before this one began (resumeGap).
		prev *search
	}
	// Searches ended by a useful result or by things learned, by intent and
	// by tool: a search that starts soon after is that hunt resumed.
	endedByIntent := map[int32]*search{}
	endedByTool := map[int32]*search{}
	// The intent groups calls. Without one, the empty calls of one tool whose
	// queries share most of their words are one search rephrased; queries
	// without words group by tool.
	byIntent := map[int32]*search{}
	var byWords []*search
	var best *search
	for ord, i := range a.calls {
		f := v.Flags[i]
		if f&flagResult == 0 || f&flagError != 0 {
			continue
		}
		if v.Names.IntentName(v.Intent[i]) == schema.IntentEdit {
			// An edit answers nothing when it worked (sed -i, a file
			// written): silence, not a search that found nothing.
			continue
		}
		var s *search
		if in := v.Intent[i]; in != 0 {
			if f&flagEmpty == 0 {
				if o := byIntent[in]; o != nil {
					endedByIntent[in] = o
				}
				delete(byIntent, in) // a useful result ends the search
				continue
			}
			if s = byIntent[in]; s != nil && (ord-s.lastOrd > p.Window || a.learnedBetween(s.last, i)) {
				endedByIntent[in] = s
				s = nil // empties far apart, or with things learned between, are searches of their own
			}
			if s == nil {
				s = &search{first: i, firstOrd: ord, shown: -1, queries: map[uint64]bool{}, prev: endedByIntent[in]}
				byIntent[in] = s
			}
		} else {
			if f&flagEmpty == 0 {
				// The result's words are not kept: it ends every search of its tool.
				byWords = slices.DeleteFunc(byWords, func(o *search) bool {
					if o.tool != v.Tool[i] {
						return false
					}
					endedByTool[o.tool] = o
					return true
				})
				continue
			}
			w := v.Words[i]
			for _, o := range byWords {
				if o.tool == v.Tool[i] && ((w == 0 && o.words == 0) || schema.WordOverlap(w, o.words)) && !a.learnedBetween(o.last, i) {
					s = o
					break
				}
			}
			if s == nil {
				s = &search{first: i, firstOrd: ord, shown: -1, queries: map[uint64]bool{}, tool: v.Tool[i]}
				if o := endedByTool[v.Tool[i]]; o != nil && ((w == 0 && o.words == 0) || schema.WordOverlap(w, o.words)) {
					s.prev = o
				}
				byWords = append(byWords, s)
			}
			s.words = w
		}
		s.last, s.lastOrd = i, ord
		if s.shown < 0 && v.Names.HasShortArgs(v.Norm[i]) {
			s.shown = i
		}
		s.empties++
		s.queries[v.call[i]] = true
		if best == nil || s.empties > best.empties {
			best = s
		}
	}
	if best == nil || best.empties < p.EmptySuspicious {
		return nil
	}
	first, last := best.first, best.last
	// The onset is where the hunt began: a search that resumes one ended
	// a few calls before (a hit that did not end the hunt, a file read
	// between two lookups) continues it, unless a change that worked came
	// between. Only the onset and the stretch move; the count is the
	// search's own.
	for s := best; s.prev != nil && s.firstOrd-s.prev.lastOrd <= resumeGap && !changedBetween(v, a, s.prev.lastOrd, s.firstOrd); s = s.prev {
		first = s.prev.first
	}
	what := v.Names.IntentName(v.Intent[first])
	if what == "" {
		shown := best.shown
		if shown < 0 {
			shown = first
		}
		what = "queries like " + v.callText(shown)
	} else {
		what = "intent " + what
	}
	n := int64(best.empties)
	resumed := ""
	if first != best.first {
		resumed = fmt.Sprintf(", resuming the search begun at step %d", v.Step[first])
	}
	return &hit{
		Finding: Finding{
			Severity: severityFor(n, p.EmptySuspicious, p.EmptyRunaway),
			Message: fmt.Sprintf("%d empty results for %s (%d different queries), steps %d-%d%s",
				n, what, len(best.queries), v.Step[best.first], v.Step[last], resumed),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{what},
				Counts: []Count{{"empty_results", n}, {"distinct_queries", int64(len(best.queries))}},
			},
		},
		first:       first,
		last:        last,
		repeatShare: 1 - float64(len(best.queries))/float64(best.empties),
	}
}

// resumeGap is how near, in calls, a search must begin after one of the
// same intent (or tool and words) ended to count as that hunt resumed for
// its onset: at most three other calls between them.
const resumeGap = 4

// changedBetween reports whether a call strictly between call ordinals
// from and to was a change that worked (an edit that brought something
// new, a first install): after it, a search is asked of a changed state.
func changedBetween(v *Run, a *analysis, from, to int) bool {
	for ord := from + 1; ord < to; ord++ {
		if i := a.calls[ord]; editedAnew(v, a, i) || installedAnew(v, a, i) {
			return true
		}
	}
	return false
}
