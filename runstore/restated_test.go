package runstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// team is a log of runs of two agents in review cycles: a review prompt
// (an instruction), the reviewer's comment, the programmer's code handed
// back. In runs 3k the reviewer makes one point every cycle in new words;
// in runs 3k+1 a new point each cycle; in runs 3k+2 the one point is made
// by the prompts (instructions), the reviewer answering in a new point.
// Each run has cycles review cycles (at most five).
func team(runs, cycles int) string {
	same := []string{
		"The code is missing the import statement for the tkinter module in main.py, so creating the window fails.",
		"main.py seems to be missing the import statement for tkinter; creating the window fails without it.",
		"The import statement for the tkinter module is missing in main.py and the window fails to open.",
		"Creating the window fails: main.py is missing the import statement for the tkinter module.",
		"The code in main.py is still missing the tkinter import statement, so the window fails.",
	}
	different := []string{
		"The Roll button has no command, so clicking it does nothing at all for the user.",
		"The window has no title; call root.title before the main loop starts to name it.",
		"The result label starts with an instruction instead of a result; start it empty instead.",
		"Users cannot choose the number of sides; add an entry and read it in the roll method.",
		"Values that are not whole numbers above one must be rejected with a message box.",
	}
	var b strings.Builder
	for r := range runs {
		step := 0
		turn := func(state, from, to, text string) {
			fmt.Fprintf(&b, `{"run_id":"team-%03d","step":%d,"state":%q,"tool_call":{"name":"message","args":{"from":%q,"to":%q,"text":%q}},"tool_result":{"ok":true}}`+"\n", r, step, state, from, to, text)
			step++
		}
		for cycle := range cycles {
			prompt := fmt.Sprintf("Review the code of cycle %d against the regulations and give the one comment with the highest priority.", cycle)
			comment := same[cycle]
			switch r % 3 {
			case 1:
				comment = different[cycle]
			case 2:
				prompt, comment = same[cycle], different[cycle]
			}
			turn("PLAN", "Programmer", "Code Reviewer", prompt)
			turn("ACT", "Code Reviewer", "Programmer", comment)
			turn("ACT", "Programmer", "Code Reviewer", fmt.Sprintf("Done.\n```python\nimport random\n# version %d\nprint(random.randint(1, 6))\n```", cycle))
		}
	}
	return b.String()
}

// Turns of one agent to another that make one point in new words are
// restated (RA208, runaway at four, onset at the prompt the first
// answers); new points each cycle, and one point made by instructions,
// are not. Spilled and read back in partitions, the collectors reach the
// same marks and verdicts.
func TestRestatedTurnsAndSpills(t *testing.T) {
	text := team(12, 5)
	want := NewCollector([]string{"in.jsonl"})
	readLog(t, text, 16, want.Add)
	for _, r := range want.Results(detect.DefaultPolicy(), 2) {
		var restated *detect.Finding
		for k := range r.Findings {
			if r.Findings[k].Detector == detect.RestatedTurn.ID {
				restated = &r.Findings[k]
			}
		}
		var n int
		fmt.Sscanf(r.RunID, "team-%d", &n)
		if n%3 != 0 {
			if restated != nil {
				t.Errorf("%s: %s", r.RunID, restated.Message)
			}
			continue
		}
		if restated == nil || restated.Severity != detect.Runaway || r.RootCause != detect.CauseReplanLoop || r.OnsetStep != 0 {
			t.Errorf("%s: verdict %v cause %q onset %d, finding %+v; want RA208 runaway, replan-loop from step 0", r.RunID, r.Verdict, r.RootCause, r.OnsetStep, restated)
		}
	}
	spilledAlike(t, text, want)
}

// The same point made three times is suspicious; the fourth time, eight
// turns of two agents going round, runaway.
func TestRestatedPointCounts(t *testing.T) {
	for cycles, want := range map[int]detect.Verdict{2: detect.Healthy, 3: detect.Suspicious, 4: detect.Runaway} {
		c := NewCollector([]string{"in.jsonl"})
		readLog(t, team(1, cycles), 16, c.Add)
		res := c.Results(detect.DefaultPolicy(), 1)
		if len(res) != 1 || res[0].Verdict != want {
			t.Errorf("the same point in %d cycles: %+v, want %v", cycles, res, want)
		}
	}
}
