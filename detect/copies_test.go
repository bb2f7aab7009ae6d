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
