package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// fakeRedactor marks what it replaced, so a test sees where it was applied.
type fakeRedactor struct{}

func (fakeRedactor) Text(s string) string { return "T(" + strings.ToUpper(s) + ")" }
func (fakeRedactor) JSON(raw []byte) ([]byte, error) {
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	for k := range v {
		v[k] = "H"
	}
	return json.Marshal(v)
}

func TestSplitCallText(t *testing.T) {
	for in, want := range map[string][2]string{
		`web_search {"q":"x"}`:         {"web_search", `{"q":"x"}`},
		`web search {"q":"x y"}`:       {"web search", `{"q":"x y"}`},
		`list [1,2]`:                   {"list", `[1,2]`},
		`echo "a b"`:                   {"echo", `"a b"`},
		`tool sha256:0123456789abcdef`: {"tool", "sha256:0123456789abcdef"},
		`count 5`:                      {"count", "5"},
		`bare`:                         {"bare", ""},
		`odd {name} {"q":"v"}`:         {"odd", `{name} {"q":"v"}`},
	} {
		tool, args := SplitCallText(in)
		if tool != want[0] || args != want[1] {
			t.Errorf("SplitCallText(%q) = %q, %q; want %q, %q", in, tool, args, want[0], want[1])
		}
	}
}

// Evidence keys that name calls, and the messages quoting them, lose their
// args values; ids, budgets and counts stay; the input is not modified.
func TestRedactRun(t *testing.T) {
	r := detect.RunResult{
		RunID:    "run-1",
		Headline: `5 empty results for queries like drive_search {"q":"secret plan"} (5 different queries), steps 2-6`,
		Findings: []detect.Finding{
			{Detector: "RA601", Message: `5 empty results for queries like drive_search {"q":"secret plan"} (5 different queries), steps 2-6`,
				Evidence: detect.Evidence{Keys: []string{`queries like drive_search {"q":"secret plan"}`}}},
			{Detector: "RA101", Message: "drive_search called 5 times with the same args and the same result, steps 2-6",
				Evidence: detect.Evidence{Keys: []string{`drive_search {"q":"secret plan"}`}}},
			{Detector: "RA102", Evidence: detect.Evidence{Keys: []string{`a {"k":1}`, `b sha256:00000000000000ff`, "c 17"}}},
			{Detector: "RA601", Message: "3 empty results for intent pricing", Evidence: detect.Evidence{Keys: []string{"intent pricing"}}},
			{Detector: "RA501", Message: "memory m-2 (written at step 2, tagged inference)", Evidence: detect.Evidence{Keys: []string{"m-2"}}},
			{Detector: "RA401", Evidence: detect.Evidence{Keys: []string{"max_steps 40"}}},
		},
	}
	orig := r.Findings[0].Evidence.Keys[0]
	got := RedactRun(r, fakeRedactor{})
	if r.Findings[0].Evidence.Keys[0] != orig {
		t.Fatal("RedactRun modified its input")
	}
	want := `5 empty results for queries like drive_search {"q":"H"} (5 different queries), steps 2-6`
	if got.Headline != want || got.Findings[0].Message != want {
		t.Errorf("headline %q\nmessage %q\nwant %q", got.Headline, got.Findings[0].Message, want)
	}
	for k, want := range [][]string{
		{`queries like drive_search {"q":"H"}`},
		{`drive_search {"q":"H"}`},
		{`a {"k":"H"}`, `b sha256:00000000000000ff`, "c T(17)"},
		{"intent pricing"},
		{"m-2"},
		{"max_steps 40"},
	} {
		if g := got.Findings[k].Evidence.Keys; strings.Join(g, "\n") != strings.Join(want, "\n") {
			t.Errorf("finding %d keys %q, want %q", k, g, want)
		}
	}
	if strings.Contains(got.Headline+got.Findings[1].Message, "secret") {
		t.Error("args text survived")
	}
	// Cut args (no longer JSON) become one placeholder.
	if got := RedactArgs(`{"q":"a very long query`+"…", fakeRedactor{}); !strings.HasPrefix(got, "T(") {
		t.Errorf("cut args: %q", got)
	}
}
