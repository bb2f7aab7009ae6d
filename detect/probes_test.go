package detect_test

import (
	"os"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// A print put in the code that the check, run again, never shows says
// the edits do not reach the code that runs: memory-contamination, from
// the first check after that edit. A print that shows keeps the storm's
// cause. The runs are the fixtures causes/edits-print-never-shown and
// causes/edits-print-shown.
func TestUnseenPrintIsMemoryContamination(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../fixtures/causes/" + name + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	p := detect.DefaultPolicy()
	r := one(t, p, read("edits-print-never-shown"))
	if r.RootCause != detect.CauseMemoryContamination || r.Verdict != detect.Runaway || !strings.Contains(r.Headline, "never showed") {
		t.Fatalf("a print never shown: %s %s %q", r.Verdict, r.RootCause, r.Headline)
	}
	shown := one(t, p, read("edits-print-shown"))
	if shown.RootCause != detect.CauseErrorStorm || shown.Verdict != detect.Runaway {
		t.Errorf("a print shown: %s %s %q", shown.Verdict, shown.RootCause, shown.Headline)
	}
}
