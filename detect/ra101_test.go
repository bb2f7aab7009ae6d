package detect_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// The same edit of one file, refused the same way again and again, is one
// change retried however much work on other files lies between: only a
// change to its own file could make it land (RA101, an error storm, from
// the first refusal). An edit that changed that file between two refusals
// is another attempt.
func TestRefusedEditRetriedAcrossOtherFiles(t *testing.T) {
	refused := `"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"file":"src/roster.html","search":"<tbody></tbody>","replace":"<tbody></tbody>"}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":"SEARCH block failed to match src/roster.html"}`
	other := func(n int) string {
		return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"file":"src/roster.ts","search":"load%d()","replace":"load%d(page)"}},"tool_result":{"ok":true,"data":"Applied edit %d to src/roster.ts"}`, n, n, n)
	}
	same := func(n int) string {
		return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"file":"src/roster.html","search":"<table id=%d>","replace":"<table id=%d class=wide>"}},"tool_result":{"ok":true,"data":"Applied edit %d to src/roster.html"}`, n, n, n)
	}
	for _, c := range []struct {
		name    string
		between func(int) string
		runaway bool
	}{
		{"edits of another file between the refusals", other, true},
		{"edits of the refused edit's own file between", same, false},
	} {
		r := newRun("refused")
		r.add(`"state":"PLAN","decision":{"reason":"show the data in the table"}`)
		for k := range 4 {
			if k > 0 {
				r.add(c.between(k))
			}
			r.add(refused)
		}
		res := one(t, detect.DefaultPolicy(), r.text())
		got := res.Verdict == detect.Runaway && slices.Contains(detectors(res), "RA101")
		if got != c.runaway {
			t.Errorf("%s: %v %v %v onset %d, want RA101 runaway %v", c.name, res.Verdict, res.RootCause, detectors(res), res.OnsetStep, c.runaway)
			continue
		}
		if c.runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1) {
			t.Errorf("%s: %v onset %d, want an error storm from the first refusal (step 1)", c.name, res.RootCause, res.OnsetStep)
		}
	}
}
