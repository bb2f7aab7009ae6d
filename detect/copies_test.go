package detect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// copyRun is a storm of one failure raised in /testbed/geo/masks/combine.py
// after edits of the copy at editRoot; first, when set, is an edit made
// before the storm of the copy at that root.
func copyRun(id, editRoot, first string) string {
	r := newRun(id)
	edit := func(root string, k int) {
		r.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":%q,"old_str":"v%d","new_str":"v%d"}},"tool_result":{"ok":true,"data":"edited"}`, root+"/geo/masks/combine.py", k, k+1))
	}
	fail := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python /workspace/repro.py"}},"tool_result":{"ok":false,"error_type":"TypeError","data":"Traceback (most recent call last):\n  File \"/workspace/repro.py\", line 4, in <module>\n  File \"/testbed/geo/masks/combine.py\", line 41, in merge\nTypeError: unsupported operand"}`
	if first != "" {
		edit(first, 0)
	}
	r.add(fail)
	for k := 1; k <= 5; k++ {
		edit(editRoot, k)
		r.add(fail)
	}
	return r.text()
}

// Edits of one copy while the failure comes back from another are the
// belief that the edits are live: memory-contamination. Edits of the copy
// that fails, or a run that changed it once, keep the storm's cause.
func TestEditsOfAnotherCopyAreMemoryContamination(t *testing.T) {
	p := detect.DefaultPolicy()
	r := one(t, p, copyRun("other", "/workspace/geo__geo__2.1", ""))
	if r.RootCause != detect.CauseMemoryContamination || r.Verdict != detect.Runaway || !strings.Contains(r.Headline, "another copy, never edited, ran") {
		t.Fatalf("edits of another copy: %s %s %q", r.Verdict, r.RootCause, r.Headline)
	}
	same := one(t, p, copyRun("same", "/testbed", ""))
	if same.RootCause != detect.CauseErrorStorm || same.Verdict != r.Verdict {
		t.Errorf("edits of the copy that fails: %s %s", same.Verdict, same.RootCause)
	}
	once := one(t, p, copyRun("once", "/workspace/geo__geo__2.1", "/testbed"))
	if once.RootCause != detect.CauseErrorStorm {
		t.Errorf("a run that edited the copy that fails: %s %s", once.Verdict, once.RootCause)
	}
}

// beliefRun edits /workspace's copy of combine.py, then probes the failure
// raised in /testbed's copy, works around it (views, probes that answer),
// and only later retries edits the editor refuses between the same
// failures: a storm. between, when set, is a call made after the first
// probes.
func beliefRun(id, between string) string {
	r := newRun(id)
	r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/workspace/geo__geo__2.1/geo/masks/combine.py","old_str":"v0","new_str":"v1"}},"tool_result":{"ok":true,"data":"edited"}`)
	fail := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python /workspace/repro.py"}},"tool_result":{"ok":false,"error_type":"TypeError","data":"Traceback (most recent call last):\n  File \"/workspace/repro.py\", line 4, in <module>\n  File \"/testbed/geo/masks/combine.py\", line 41, in merge\nTypeError: unsupported operand"}`
	probe := func(k int) {
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -c 'import geo; print(geo.part%d)'"}},"tool_result":{"ok":true,"data":"part %d"}`, k, k))
	}
	r.add(fail) // step 1: the edit did not reach the code that runs
	probe(1)
	probe(2)
	r.add(fail)
	if between != "" {
		r.add(between)
	}
	probe(3)
	probe(4)
	for k := 0; k < 3; k++ {
		for j := 0; j < 2; j++ {
			r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/workspace/geo__geo__2.1/geo/masks/combine.py","old_str":"v0","new_str":"v2"}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":"No replacement was performed, old_str v0 did not appear verbatim"}`)
		}
		r.add(fail)
	}
	return r.text()
}

// A loop whose failures come from the copy the agent never edited began
// where the edit of the other copy first failed to show: the first such
// failure, however much probing came between it and the storm, unless a
// change that worked (an edit of another file) came between.
func TestEditsOfAnotherCopyBeginAtTheFirstFailureAfterThem(t *testing.T) {
	p := detect.DefaultPolicy()
	r := one(t, p, beliefRun("belief", ""))
	if r.RootCause != detect.CauseMemoryContamination || r.OnsetStep != 1 {
		t.Fatalf("the belief's first failure: %s %s onset %d, want memory-contamination at 1", r.Verdict, r.RootCause, r.OnsetStep)
	}
	changed := one(t, p, beliefRun("changed", `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/workspace/geo__geo__2.1/tests/test_merge.py","old_str":"pass","new_str":"assert merge(a, b)"}},"tool_result":{"ok":true,"data":"The file tests/test_merge.py has been edited: assert merge(a, b)"}`))
	if changed.RootCause != detect.CauseMemoryContamination || changed.OnsetStep <= 5 {
		t.Errorf("after an edit of another file that worked: %s %s onset %d, want the storm's", changed.Verdict, changed.RootCause, changed.OnsetStep)
	}
}

// BenchmarkStormInAnotherCopy analyzes one long run of edits of one copy
// of a file, each followed by the failure raised in another copy: reading
// which copy each failure ran against must stay linear in the run's length.
func BenchmarkStormInAnotherCopy(b *testing.B) {
	p := detect.DefaultPolicy()
	r := newRun("long")
	fail := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python /workspace/repro.py"}},"tool_result":{"ok":false,"error_type":"TypeError","data":"Traceback (most recent call last):\n  File \"/workspace/repro.py\", line 4, in <module>\n  File \"/testbed/geo/masks/combine.py\", line 41, in merge\nTypeError: unsupported operand"}`
	for k := range 4000 {
		r.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/workspace/geo__geo__2.1/geo/masks/combine.py","old_str":"v%d","new_str":"v%d"}},"tool_result":{"ok":true,"data":"edited"}`, k, k+1))
		r.add(fail)
	}
	c := collect(b, p, r.text())
	for b.Loop() {
		if rs := c.Results(p, 1); rs[0].RootCause != detect.CauseMemoryContamination {
			b.Fatalf("root cause %s", rs[0].RootCause)
		}
	}
}
