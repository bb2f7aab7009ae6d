package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// LookOnly finds an agent that reads and searches on and on without
// changing or running anything: file view after file view, grep after
// grep, for tens of calls. Each page is new text, so nothing repeats byte
// for byte and every call looks like progress; but an agent that has
// looked thirty times in a row without acting on what it saw is paging
// through files it does not use (a config file read fifty lines at a
// time to its end), or circling the same code with rephrased searches.
// A read is a call of a file-reading tool (an editor's view: a call of
// an editor tool without the edit intent; Claude Code's Read, SWE-agent's
// open and scroll) or a search of files (looks). A shell command that is
// no search is not known to be a read (it may run a test) and ends the
// stretch, as any other call does.
var LookOnly = &Detector{
	ID:        "RA207",
	Slug:      "look-only",
	Title:     "Files read and searched on and on, nothing changed or run",
	RootCause: CauseToolRetryLoop,
	Guard:     "a cap on looking: after 20 reads and searches in a row without an edit or a run, go to EVAL: say what is known and what is missing, then act or stop",
	Params:    []string{"look_only_suspicious", "look_only_runaway", "window"},
	run:       runLookOnly,
}

func runLookOnly(v *Run, a *analysis, p *Policy) *hit {
	bestFrom, bestN, from, n := 0, 0, 0, 0 // positions in a.calls
	for x, i := range a.calls {
		if !looks(v, i) {
			n = 0
			continue
		}
		if n == 0 {
			from = x
		}
		if x+1 < len(a.calls) && resentRead(v, i, a.calls[x+1]) {
			// A read the tool refused, sent again at once with other
			// numbers: one read, its slip corrected.
			continue
		}
		if n++; n > bestN {
			bestFrom, bestN = from, n
		}
	}
	if bestN < p.LookOnlySuspicious {
		return nil
	}
	stretch := a.calls[bestFrom : bestFrom+bestN]
	first, last := stretch[0], stretch[len(stretch)-1]
	onset := firstRepeated(v, a, p, stretch)
	return &hit{
		Finding: Finding{
			Severity:  severityFor(int64(bestN), p.LookOnlySuspicious, p.LookOnlyRunaway),
			Message:   fmt.Sprintf("%d reads and searches in a row, nothing changed or run, steps %d-%d", bestN, v.Step[first], v.Step[last]),
			OnsetStep: v.Step[onset],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: []Count{{"reads_in_a_row", int64(bestN)}},
			},
		},
		first: onset,
		last:  last,
	}
}

// lookingTools are tools whose every call reads: a file's window, a
// directory, a search over files.
var lookingTools = map[string]bool{
	"view": true, "read_file": true, "open": true, "goto": true, "scroll_up": true, "scroll_down": true,
	"find_file": true, "search_dir": true, "search_file": true, "Read": true, "Grep": true, "Glob": true, "LS": true,
}

// looks reports whether call i only reads files: a search of them (a
// shell's grep or find, a file-search tool), a reading tool's call, or an
// editor's call that edits nothing. A web search or a lookup in a
// service is not a read of the code: an agent whose work is to search
// (a research agent, a booking agent) does it by design.
func looks(v *Run, i int) bool {
	t := v.Names.ToolName(v.Tool[i])
	switch v.Names.IntentName(v.Intent[i]) {
	case schema.IntentSearch:
		return schema.IsShellTool(t) || lookingTools[t]
	case "":
		return lookingTools[t] || schema.EditorTools[t]
	}
	return false
}

// firstRepeated is the onset of a stretch of reads: the first call of it
// that is made again (the same call), or whose answer comes again (the
// same window, the same empty search), at least twice within Window calls
// later in the stretch: the first instance of what then repeats. A read
// made twice is a look back; made three times, a circle. Without one,
// the stretch's first call.
func firstRepeated(v *Run, a *analysis, p *Policy, stretch []int) int {
	for k, i := range stretch {
		end := min(len(stretch), k+1+p.Window)
		n := 0
		for _, j := range stretch[k+1 : end] {
			if v.sameCall(i) == v.sameCall(j) || (v.Flags[i]&(flagResult|flagEmpty) == flagResult && v.sameReply(i, j, a.simBits)) {
				if n++; n >= 2 {
					return i
				}
			}
		}
	}
	return stretch[0]
}

// resentRead reports whether read i failed and call j, the next, is the
// same read sent again with other numbers (the same tool, the same args
// shape: a view range cut to the file's length the tool's refusal gave).
// The tool showed nothing for i; a person reading the run counts the two
// as one look.
func resentRead(v *Run, i, j int) bool {
	return v.Flags[i]&flagError != 0 && v.Tool[i] == v.Tool[j] && v.Shape[i] != 0 && v.Shape[i] == v.Shape[j] && looks(v, j)
}
