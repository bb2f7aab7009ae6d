package detect_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// viewLines adds a SWE-agent file view of lines lo to hi, answered with their text.
func viewLines(r *runBuilder, lo, hi int) {
	r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"args":"view /testbed/a.py --view_range %d %d"}},"tool_result":{"ok":true,"data":"lines %d-%d"}`, lo, hi, lo, hi))
}

func pagingFinding(r detect.RunResult) *detect.Finding {
	for i := range r.Findings {
		if r.Findings[i].Detector == "RA104" {
			return &r.Findings[i]
		}
	}
	return nil
}

func TestPagingLoopBackAndForth(t *testing.T) {
	b := newRun("paging")
	b.add(`"state":"PLAN","decision":{"next_state":"ACT","reason":"read a.py"}`)
	for lo := 600; lo > 300; lo -= 30 { // 10 views down
		viewLines(b, lo, lo+20)
	}
	// A step without a call does not break the sweep.
	b.add(`"state":"EVAL","decision":{"next_state":"ACT","reason":"look further up"}`)
	for lo := 345; lo < 600; lo += 30 { // 9 new views up
		viewLines(b, lo, lo+24)
	}
	for _, lo := range []int{600, 570, 540, 510, 480} { // 5 views read before
		viewLines(b, lo, lo+20)
	}
	r := one(t, detect.DefaultPolicy(), b.text())
	f := pagingFinding(r)
	if f == nil || f.Severity != detect.Runaway || r.RootCause != detect.CauseToolRetryLoop {
		t.Fatalf("24 views back and forth: got %v %v", r.RootCause, r.Findings)
	}
	if f.OnsetStep != 1 || f.Evidence.Steps[0] != (detect.StepRange{From: 1, To: 25}) {
		t.Fatalf("onset %d, steps %v; want the sweep's first call, steps 1-25", f.OnsetStep, f.Evidence.Steps)
	}
	want := "24 calls of str_replace_editor that differ only in their numbers, 5 of them repeating an earlier call, steps 1-25"
	if f.Message != want {
		t.Fatalf("message %q, want %q", f.Message, want)
	}
	counts := map[string]int64{}
	for _, c := range f.Evidence.Counts {
		counts[c.Name] = c.Value
	}
	if counts["paging_calls"] != 24 || counts["distinct_args"] != 19 || counts["revisits"] != 5 {
		t.Fatalf("counts %v", f.Evidence.Counts)
	}

	// Twelve views of which one reads a range again: suspicious.
	b = newRun("short")
	for lo := 0; lo < 330; lo += 30 {
		viewLines(b, lo, lo+20)
	}
	viewLines(b, 0, 20)
	if f := pagingFinding(one(t, detect.DefaultPolicy(), b.text())); f == nil || f.Severity != detect.Suspicious {
		t.Fatalf("12 views, one again: want suspicious RA104, got %v", f)
	}
	// Another tool's call ends the sweep: two sweeps of 6, neither flagged.
	b = newRun("broken")
	for k := 0; k < 2; k++ {
		for lo := 0; lo < 150; lo += 30 {
			viewLines(b, lo, lo+20)
		}
		viewLines(b, 0, 20)
		b.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"pytest"}},"tool_result":{"ok":true,"data":"1 failed"}`)
	}
	if f := pagingFinding(one(t, detect.DefaultPolicy(), b.text())); f != nil {
		t.Fatalf("sweeps broken by another action: %v", f)
	}
}

func TestPagingLoopIsNotPaginationOrPolling(t *testing.T) {
	// Forward pagination: every page new, none read again.
	pages := newRun("pages")
	for page := 1; page <= 25; page++ {
		pages.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"search","args":{"q":"flaky test","page":%d}},"tool_result":{"ok":true,"data":[%d]}`, page, page))
	}
	if r := one(t, detect.DefaultPolicy(), pages.text()); slices.Contains(detectors(r), "RA104") {
		t.Fatalf("forward pagination: %v", r.Findings)
	}
	// Polling one status 25 times: the same exact call (RA101's to judge).
	poll := newRun("poll")
	ts := 0
	for k := 0; k < 25; k++ {
		ts += 2 + k
		poll.add(fmt.Sprintf(`"ts":%d,"state":"ACT","tool_call":{"name":"job_status","args":{"job_id":"j-7"}},"tool_result":{"ok":true,"data":{"done":%d}}`, 1764385200000+1000*ts, 4*k))
	}
	if r := one(t, detect.DefaultPolicy(), poll.text()); slices.Contains(detectors(r), "RA104") {
		t.Fatalf("polling: %v", r.Findings)
	}
	// Polling with a growing wait that comes back to its cap: mostly the
	// same exact call, so not paging.
	capped := newRun("capped")
	for k := 0; k < 25; k++ {
		capped.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"job_status","args":{"job_id":"j-7","wait":%d}},"tool_result":{"ok":true,"data":{"done":%d}}`, min(1<<k, 30), 4*k))
	}
	if r := one(t, detect.DefaultPolicy(), capped.text()); slices.Contains(detectors(r), "RA104") {
		t.Fatalf("polling with a capped wait: %v", r.Findings)
	}
	// Views of different files are different shapes.
	files := newRun("files")
	for k := 0; k < 12; k++ {
		files.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"view","args":{"path":"/src/%c.py","range":[1,40]}},"tool_result":{"ok":true,"data":"%c"}`, 'a'+k%6, 'a'+k%6))
	}
	if r := one(t, detect.DefaultPolicy(), files.text()); slices.Contains(detectors(r), "RA104") {
		t.Fatalf("views of different files: %v", r.Findings)
	}
}

func TestPagingLoopThresholdsArePolicy(t *testing.T) {
	b := newRun("p")
	for lo := 0; lo < 150; lo += 30 {
		viewLines(b, lo, lo+20)
	}
	viewLines(b, 0, 20)
	p := detect.DefaultPolicy()
	if f := pagingFinding(one(t, p, b.text())); f != nil {
		t.Fatalf("6 views under the default of 10: %v", f)
	}
	p.PagingSuspicious, p.PagingRunaway = 3, 6
	f := pagingFinding(one(t, p, b.text()))
	if f == nil || f.Severity != detect.Runaway || !strings.Contains(f.Message, "6 calls of str_replace_editor") {
		t.Fatalf("6 views at paging_runaway 6: %v", f)
	}
}

// A sweep of views that mostly fail (a range past the end of the file,
// asked again and again with other numbers) is the same failing call
// retried: an error storm, with RA104's finding as the evidence.
func TestPagingLoopOfFailuresIsAnErrorStorm(t *testing.T) {
	b := newRun("paging-failures")
	for k, lo := range []int{1200, 1180, 1160, 1200, 1140, 1180, 1120, 1100, 1160, 1080, 1060, 1200, 1040, 1020, 1140, 1000, 980, 1180, 960, 940, 1120} {
		if k%5 == 4 {
			viewLines(b, lo, lo+20) // one in five answered
			continue
		}
		b.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"args":"view /testbed/a.py --view_range %d %d"}},"tool_result":{"ok":false,"error_type":"USAGE_ERROR","data":"Invalid view_range [%d, %d]: past the end of the file"}`, lo, lo+20, lo, lo+20))
	}
	r := one(t, detect.DefaultPolicy(), b.text())
	if f := pagingFinding(r); f == nil || f.Severity != detect.Runaway {
		t.Fatalf("21 views back and forth: no runaway RA104 finding: %v", r.Findings)
	}
	if r.RootCause != detect.CauseErrorStorm {
		t.Fatalf("a paging sweep of failing views: root cause %v, want error-storm (%v)", r.RootCause, r.Findings)
	}
}
