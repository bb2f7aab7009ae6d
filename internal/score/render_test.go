package score

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"

	"github.com/runawayhq/runaway/detect"
)

// The tables of figures fit a terminal by being stacked, never cut: at 80
// and 100 columns every line of them fits and every figure is printed as
// often as at width 0, which, as a width wide enough, changes nothing.
func TestTablesFitByStacking(t *testing.T) {
	labels := map[string]Label{}
	var results []detect.RunResult
	for k, c := range detect.RootCauses {
		for j, src := range []string{"swe-agent", "openhands"} {
			id := string(c) + "-" + src
			labels[id] = Label{RunID: id, Label: LabelRunaway, RootCause: string(c), OnsetStep: 3, Source: src}
			got := c
			if k%2 == j {
				got = detect.RootCauses[(k+1)%len(detect.RootCauses)]
			}
			results = append(results, detect.RunResult{RunID: id, Verdict: detect.Runaway, RootCause: got, OnsetStep: 3 + int64(k)})
		}
	}
	labels["calm"] = Label{RunID: "calm", Label: "healthy", OnsetStep: -1, Confounder: "polling", Source: "openhands"}
	results = append(results, detect.RunResult{RunID: "calm", Verdict: detect.Suspicious})
	r := Score(labels, results)
	if len(r.Sources) != 2 {
		t.Fatalf("sources: %v", r.Sources)
	}
	render := func(width int) string {
		var b strings.Builder
		if err := WriteTable(&b, r, nil, width); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	plain := render(0)
	if render(10000) != plain {
		t.Errorf("a width wide enough changed the tables:\n%s", render(10000))
	}
	for _, width := range []int{80, 100} {
		out := render(width)
		if out == plain {
			t.Fatalf("width %d: nothing stacked:\n%s", width, out)
		}
		for _, l := range tableRows(out) {
			if w := displaywidth.String(l); w > width {
				t.Errorf("width %d: a line %d wide: %q", width, w, l)
			}
		}
		if got, want := figuresOf(out), figuresOf(plain); !slices.Equal(got, want) {
			t.Errorf("width %d: figures\n%v\nwant\n%v\n%s", width, got, want, out)
		}
	}
}

// tableRows are the lines of the tables in out: from a header's line of
// dashes to the blank line or the end.
func tableRows(out string) []string {
	var rows []string
	in, prev := false, ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "---"):
			in = true
			rows = append(rows, prev, l)
		case l == "":
			in = false
		case in:
			rows = append(rows, l)
		}
		prev = l
	}
	return rows
}

// figuresOf are the figures of out's tables, sorted.
func figuresOf(out string) []string {
	figure := regexp.MustCompile(`^[(~$+-]*[0-9][0-9,./%]*\)?$`)
	var fs []string
	for _, l := range tableRows(out) {
		for _, f := range strings.Fields(l) {
			if figure.MatchString(f) {
				fs = append(fs, f)
			}
		}
	}
	slices.Sort(fs)
	return fs
}
