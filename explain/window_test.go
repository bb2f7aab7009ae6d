package explain_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/explain"
)

// longRun is a run of n steps, each a call of its own, with a goal at
// step 0, until onset; from there the same call, failing, again and again.
func longRun(id string, n, onset int) string {
	var b strings.Builder
	for i := range n {
		goal := ""
		if i == 0 {
			goal = `"goal":"find the report",`
		}
		if i < onset {
			fmt.Fprintf(&b, `{"run_id":%q,"step":%d,%s"state":"ACT","tool_call":{"name":"search","args":{"q":"query %d"}},"tool_result":{"ok":true,"data":"result %d"}}`+"\n", id, i, goal, i, i)
		} else {
			fmt.Fprintf(&b, `{"run_id":%q,"step":%d,"state":"ACT","tool_call":{"name":"fetch","args":{"url":"https://x.test/a"}},"tool_result":{"ok":false,"error":{"type":"TIMEOUT","message":"timed out"}}}`+"\n", id, i)
		}
	}
	return b.String()
}

// A long run's timeline shows its start, its onset and its end, and folds
// the rest into gaps that say how many steps they hold: the drawing and
// the tables stay small whatever the run's length, and a run of
// MaxShownSteps steps is shown whole.
func TestLongRunIsFolded(t *testing.T) {
	const n, onset = 30000, 12000
	run := explainText(t, longRun("long", n, onset), nil, "long")[0]
	if run.Result.OnsetStep < onset || run.Result.OnsetStep > onset+10 {
		t.Fatalf("onset %d, want about %d", run.Result.OnsetStep, onset)
	}
	if len(run.Steps) > explain.MaxShownSteps || len(run.Gaps) < 2 {
		t.Fatalf("%d steps shown in %d gaps, want at most %d in at least 2", len(run.Steps), len(run.Gaps), explain.MaxShownSteps)
	}
	folded := 0
	for _, g := range run.Gaps {
		folded += g.Steps
	}
	if folded+len(run.Steps) != n {
		t.Errorf("%d steps shown and %d folded, want %d in all", len(run.Steps), folded, n)
	}
	shown := map[int64]bool{}
	for _, s := range run.Steps {
		shown[s.Step] = true
	}
	for _, step := range []int64{0, 299, run.Result.OnsetStep - 300, run.Result.OnsetStep, run.Result.OnsetStep + 699, n - 300, n - 1} {
		if !shown[step] {
			t.Errorf("step %d is not shown", step)
		}
	}
	if run.Goal != "find the report" {
		t.Errorf("goal %q", run.Goal)
	}

	svg, err := explain.TimelineSVG(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(svg) > 600<<10 {
		t.Errorf("the timeline is %d bytes, want at most 600 KB", len(svg))
	}
	for _, want := range []string{">onset</text>", "steps folded …</text>", fmt.Sprintf("steps 300-%d: ", run.Result.OnsetStep-301)} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the timeline lacks %q", want)
		}
	}
	for _, format := range []string{"text", "md", "html"} {
		out := render(t, format, run)
		if len(out) > 1<<20 {
			t.Errorf("%s: %d bytes, want at most 1 MB", format, len(out))
		}
		gap := fmt.Sprintf("300-%d", run.Result.OnsetStep-301)
		if !strings.Contains(out, "steps folded ...") || !strings.Contains(out, gap) || !strings.Contains(out, "onset") {
			t.Errorf("%s: no gap of steps %s, or no onset", format, gap)
		}
	}
	text := render(t, "text", run)
	if lines := strings.Count(text, "\n"); lines > 1000 {
		t.Errorf("the text report has %d lines", lines)
	}
	if want := regexp.MustCompile(`Note: +30,000 steps: the timeline shows 1,\d{3} of them`); !want.MatchString(text) {
		t.Errorf("the text report does not say the timeline is folded:\n%s", text[:min(len(text), 2000)])
	}

	short := explainText(t, longRun("short", explain.MaxShownSteps, 1500), nil, "short")[0]
	if len(short.Steps) != explain.MaxShownSteps || len(short.Gaps) != 0 {
		t.Errorf("a run of %d steps: %d shown, %d gaps; want all, none", explain.MaxShownSteps, len(short.Steps), len(short.Gaps))
	}
}
