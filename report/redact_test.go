package report

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// fakeRedactor marks what it replaced, so a test sees where it was applied.
type fakeRedactor struct{}

func (fakeRedactor) Text(s string) string { return "T(" + strings.ToUpper(s) + ")" }

// Secrets and SecretsIn take "SECRET-" and the letters after it for a secret.
func (fakeRedactor) Secrets(s string) string { return fakeSecret.ReplaceAllString(s, "S") }
func (fakeRedactor) SecretsIn(s string, fn func(secret, placeholder string)) {
	for _, m := range fakeSecret.FindAllString(s, -1) {
		fn(m, "S")
	}
}

var fakeSecret = regexp.MustCompile(`SECRET-[A-Z]+`)

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

// RedactRun leaves no secret in any string of a run that can come from the
// input: every string field, slice element and map key of a RunResult is
// filled with a secret of its own (by reflection, so a field added to
// RunResult is filled too), and only runaway's own words (detector ids,
// slugs, root causes, signals, guards), which never hold input, may keep
// theirs. A new field that holds input fails here until RedactRun covers
// it, or is added to ownWords when it cannot hold input.
func TestRedactRunLeavesNoSecretInAnyField(t *testing.T) {
	ownWords := map[string]bool{".RootCause": true, ".Signals[]": true, ".Findings[].Detector": true,
		".Findings[].Slug": true, ".Findings[].RootCause": true, ".Findings[].Guard": true}
	var r detect.RunResult
	n := 0
	secret := func() string {
		// Distinct secrets, none the start of another: letters A-Y for n,
		// then Z.
		n++
		code := ""
		for k := n; k > 0; k /= 25 {
			code = string(rune('A'+k%25)) + code
		}
		return "SECRET-" + code + "Z"
	}
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("x " + secret() + " y")
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i))
				}
			}
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			fill(v.Index(0))
			fill(v.Index(1))
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k)
			fill(e)
			m.SetMapIndex(k, e)
			v.Set(m)
		}
	}
	fill(reflect.ValueOf(&r).Elem())
	// An error type is its own map key, alone, and is glued to "error_"
	// by a word character in a count's name, where the pattern would not
	// find it: the secret seen alone is replaced there too.
	errType := secret()
	r.Indicators.ToolErrorsByType = map[string]int64{errType: 3}
	r.Findings[0].Evidence.Counts[0].Name = "error_" + errType
	before, _ := json.Marshal(r)
	got := RedactRun(r, scrubbingRedactor{})
	if after, _ := json.Marshal(r); string(after) != string(before) {
		t.Fatal("RedactRun modified its input")
	}
	var check func(v reflect.Value, path string)
	check = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.String:
			if strings.Contains(v.String(), "SECRET-") && !ownWords[path] {
				t.Errorf("%s: %q keeps its secret", path, v.String())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					check(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				check(v.Index(i), path+"[]")
			}
		case reflect.Map:
			iter := v.MapRange()
			for iter.Next() {
				check(iter.Key(), path+"{key}")
				check(iter.Value(), path+"{}")
			}
		}
	}
	check(reflect.ValueOf(got), "")
}

// scrubbingRedactor is fakeRedactor whose secrets are found only with a
// non-word character (or the start) before them, as redact's patterns
// find most secrets.
type scrubbingRedactor struct{ fakeRedactor }

var boundedSecret = regexp.MustCompile(`(^|[^A-Za-z0-9_])(SECRET-[A-Z]+)`)

func (scrubbingRedactor) Secrets(s string) string {
	return boundedSecret.ReplaceAllString(s, "${1}S")
}

func (scrubbingRedactor) SecretsIn(s string, fn func(secret, placeholder string)) {
	for _, m := range boundedSecret.FindAllStringSubmatch(s, -1) {
		fn(m[2], "S")
	}
}
