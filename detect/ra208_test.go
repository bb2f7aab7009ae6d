package detect_test

import (
	"fmt"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// A reviewer raises one point once, moves on to another it then restates
// cycle after cycle, and only much later comes back to the first. Both
// points reach four turns; the team went round the second first, so RA208
// reports the chain whose point came back first, not the one raised first.
func TestRestatedTurnPicksThePointThatCameBackFirst(t *testing.T) {
	a := []string{
		"The GUI class lacks the import statement for the tkinter module, so the window cannot open.",
		"The GUI class still lacks the import statement for the tkinter module, so the window cannot open.",
	}
	b := []string{
		"The roll method never updates the label text after choosing a random number between one and six.",
		"The roll method still never updates the label text after choosing a random number between one and six.",
	}
	cycles := [][]string{{a[0]}, {b[0]}, {b[1]}, {b[1]}, {b[1]}, {a[1]}, {a[1]}, {a[1]}}
	r := newRun("restated-two-points")
	onsetB := -1
	for k, c := range cycles {
		if k == 1 {
			onsetB = len(r.lines) + 1 // the comment, after its prompt
		}
		r.add(fmt.Sprintf(`"state":"PLAN","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","phase":"CodeReviewComment","text":"Review the code of cycle %d."}},"tool_result":{"ok":true}`, k))
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","text":%q}},"tool_result":{"ok":true}`, c[0]))
		r.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"write_file","args":{"path":"main.py","content":"print(%d)"}},"tool_result":{"ok":true}`, k))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	for _, f := range res.Findings {
		if f.Detector != "RA208" {
			continue
		}
		if f.Severity != detect.Runaway || f.OnsetStep != int64(onsetB) {
			t.Fatalf("RA208: got %v onset %d, want runaway onset %d (the point that came back first): %s", f.Severity, f.OnsetStep, onsetB, f.Message)
		}
		return
	}
	t.Fatalf("RA208 not found: %v", detectors(res))
}
