package detect_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// A result that only repeats what the run was shown (tool_result.seen) is
// no progress: 25 views of one file through shifting windows over lines
// already read are a stretch without progress, runaway; the same views
// each showing new lines (paging through the file once) are progress.
func TestSeenResultsAreNoProgress(t *testing.T) {
	view := func(r *runBuilder, i int, seen bool) {
		body := fmt.Sprintf(`"state":"ACT","tool_call":{"name":"view","args":{"path":"a.py","from":%d}},"tool_result":{"ok":true,"data":"lines %d-%d"`, i, i, i+20)
		if seen {
			body += `,"seen":true`
		}
		r.add(body + `}`)
	}
	reread, paging := newRun("reread"), newRun("paging")
	for i := range 25 {
		view(reread, i, i > 0)
		view(paging, i, false)
	}
	res := scan(t, detect.DefaultPolicy(), reread.text(), paging.text())
	byID := map[string]detect.RunResult{}
	for _, r := range res {
		byID[r.RunID] = r
	}
	if r := byID["reread"]; r.Verdict != detect.Runaway || r.Indicators.ProgressEvents != 1 || !slices.Contains(detectors(r), "RA202") {
		t.Errorf("re-reading: %s, %d progress events, %v", r.Verdict, r.Indicators.ProgressEvents, detectors(r))
	}
	// Paging is progress: no stretch without it. Twenty-five reads in a
	// row with nothing changed or run are still looking without acting
	// (RA207's suspicious count), never runaway.
	if r := byID["paging"]; r.Verdict == detect.Runaway || r.Indicators.ProgressEvents != 25 || slices.Contains(detectors(r), "RA202") {
		t.Errorf("paging: %s, %d progress events, %v", r.Verdict, r.Indicators.ProgressEvents, detectors(r))
	}
}
