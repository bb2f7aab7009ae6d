package adapters

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// samples is the directory of the sample trajectories (fixtures/trajectories).
var samples = filepath.Join("..", "..", "fixtures", "trajectories")

// readSample reads a sample file, relative to samples.
func readSample(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(samples, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sampleLines splits a JSON Lines sample into its non-blank lines.
func sampleLines(t testing.TB, rel string) [][]byte {
	t.Helper()
	return nonBlankLines(readSample(t, rel))
}

// converted is what a document became: its steps in emitted order, and by
// run then step.
type converted struct {
	steps []*schema.Step
	runs  []string // run ids in order of first appearance
	by    map[string]map[int64]*schema.Step
}

// step returns step n of the run, failing the test when there is none.
func (c *converted) step(t testing.TB, run string, n int64) *schema.Step {
	t.Helper()
	s := c.by[run][n]
	if s == nil {
		t.Fatalf("run %q has no step %d (steps: %v)", run, n, c.numbers(run))
	}
	return s
}

// calls checks what run's steps numbered in want called and how each
// ended, as "tool result" (result as result() spells it).
func (c *converted) calls(t testing.TB, run string, want map[int64]string) {
	t.Helper()
	for n, w := range want {
		if s := c.step(t, run, n); tool(s)+" "+result(s) != w {
			t.Errorf("step %d: %s %s, want %s", n, tool(s), result(s), w)
		}
	}
}

// numbers lists the step numbers of a run in emitted order.
func (c *converted) numbers(run string) []int64 {
	var out []int64
	for _, s := range c.steps {
		if s.RunID == run {
			out = append(out, *s.Step)
		}
	}
	return out
}

// convert reads raw as the document of source at line (whole: the whole
// file) and converts it with want, which must be the format Detect picks.
// Every step must pass schema validation, and no run may number two steps
// alike.
// convertStripped converts the document raw with format f, read
// without its tools' output (--strip-output), and returns its one run.
func convertStripped(t testing.TB, f *Format, raw []byte) (*converted, string) {
	t.Helper()
	var d *Doc
	if f.Text != nil && !OpensJSON(raw) {
		d = TextDoc("t.json", 1, raw) // a plain-text log (ChatDev's)
	} else {
		var err error
		if d, err = ParseDoc("t.json", 1, true, raw); err != nil {
			t.Fatal(err)
		}
	}
	d.StripOutput = true
	c := newConverted()
	if err := ConvertDoc(f, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	if len(c.runs) != 1 {
		t.Fatalf("%d runs, want 1", len(c.runs))
	}
	return c, c.runs[0]
}

func convert(t testing.TB, want *Format, source string, line int64, whole bool, raw []byte) *converted {
	t.Helper()
	var d *Doc
	if want.Text != nil && !OpensJSON(raw) {
		if f := DetectText(raw); f != want {
			t.Fatalf("DetectText picked %v, want %s", f, want.Name)
		}
		d = TextDoc(source, line, raw)
	} else {
		var err error
		if d, err = ParseDoc(source, line, whole, raw); err != nil {
			t.Fatalf("ParseDoc: %v", err)
		}
		if f, err := Detect(d); err != nil || f != want {
			t.Fatalf("Detect picked %v (%v), want %s", f, err, want.Name)
		}
	}
	if err := want.Recognize(d); err != nil {
		t.Fatalf("%s does not recognise %s: %v", want.Name, source, err)
	}
	c := newConverted()
	if err := ConvertDoc(want, d, c.adder(t)); err != nil {
		t.Fatalf("Convert: %v", err)
	}
	return c
}

func newConverted() *converted { return &converted{by: map[string]map[int64]*schema.Step{}} }

// adder collects steps into c, checking each: it passes schema validation,
// marshals, and no run numbers two steps alike.
func (c *converted) adder(t testing.TB) func(*schema.Step) error {
	return func(s *schema.Step) error {
		if err := s.Validate(); err != nil {
			t.Errorf("invalid step %+v: %v", s, err)
		}
		if _, err := AppendStepJSON(nil, s); err != nil {
			t.Errorf("step does not marshal: %v", err)
		}
		if c.by[s.RunID] == nil {
			c.by[s.RunID] = map[int64]*schema.Step{}
			c.runs = append(c.runs, s.RunID)
		}
		if c.by[s.RunID][*s.Step] != nil {
			t.Errorf("run %q: step %d twice", s.RunID, *s.Step)
		}
		c.by[s.RunID][*s.Step] = s
		c.steps = append(c.steps, s)
		return nil
	}
}

// nonBlankLines splits a JSON Lines file into its non-blank lines.
func nonBlankLines(raw []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// spansOfDocs reads each document as a read of the inputs does (each one
// detected as f's on its own; whole when it is the only one) and returns
// the spans of all of them.
func spansOfDocs(t testing.TB, f *Format, docs ...[]byte) []Span {
	t.Helper()
	var spans []Span
	for i, doc := range docs {
		d, err := ParseDoc("t.jsonl", int64(i+1), len(docs) == 1, doc)
		if err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
		if got, err := Detect(d); err != nil || got != f {
			t.Fatalf("document %d: Detect picked %v (%v), want %s", i+1, got, err, f.Name)
		}
		if err := f.Spans(d, func(sp *Span) error { spans = append(spans, *sp); return nil }); err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
	}
	return spans
}

// assembleSpans assembles spans into runs as a read of every input does,
// checking every step.
func assembleSpans(t testing.TB, spans []Span) *converted {
	t.Helper()
	c := newConverted()
	if err := AssembleAll(slices.Clone(spans), false, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	return c
}

// convertOne converts a document that holds one run and returns its steps.
func convertOne(t testing.TB, f *Format, raw []byte) (*converted, string) {
	t.Helper()
	c := convert(t, f, "t.json", 1, true, raw)
	if len(c.runs) != 1 {
		t.Fatalf("%d runs, want 1", len(c.runs))
	}
	return c, c.runs[0]
}

// convertRead is convertOne, or convertStripped when strip is set.
func convertRead(t testing.TB, f *Format, raw []byte, strip bool) (*converted, string) {
	t.Helper()
	if strip {
		return convertStripped(t, f, raw)
	}
	return convertOne(t, f, raw)
}

// result describes a step's tool result in one string, for comparisons:
// "ok", "ok empty", "error TYPE", or "none".
func result(s *schema.Step) string {
	r := s.ToolResult
	switch {
	case r == nil:
		return "none"
	case r.IsError():
		return "error " + r.NormalizedErrorType()
	case r.Empty != nil && *r.Empty:
		return "ok empty"
	}
	return "ok"
}

// data is a step's result data as the text it holds.
func data(t testing.TB, s *schema.Step) string {
	t.Helper()
	if s.ToolResult == nil || len(s.ToolResult.Data) == 0 {
		return ""
	}
	var out string
	if err := json.Unmarshal(s.ToolResult.Data, &out); err != nil {
		t.Fatalf("data %s is not a string: %v", s.ToolResult.Data, err)
	}
	return out
}

// args decodes a step's call args into a map.
func args(t testing.TB, s *schema.Step) map[string]any {
	t.Helper()
	if s.ToolCall == nil {
		t.Fatalf("step %d has no call", *s.Step)
	}
	var m map[string]any
	if err := json.Unmarshal(s.ToolCall.Args, &m); err != nil {
		t.Fatalf("args %s: %v", s.ToolCall.Args, err)
	}
	return m
}

func tool(s *schema.Step) string {
	if s.ToolCall == nil {
		return ""
	}
	return s.ToolCall.Name
}

func reason(s *schema.Step) string {
	if s.Decision == nil {
		return ""
	}
	return s.Decision.Reason
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// usageSum adds up the usage of a run's steps.
func usageSum(c *converted, run string) (prompt, completion int64, cost float64, steps int) {
	for _, s := range c.steps {
		if s.RunID != run || s.Usage == nil {
			continue
		}
		steps++
		prompt += s.Usage.PromptTokens
		completion += s.Usage.CompletionTokens
		cost += s.Usage.CostUSD
	}
	return
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// readFileOf reads a file of format f as ingest reads it: one JSON object
// (pretty-printed) as a document, a JSON Lines file whole, its first line
// saying what it is.
func readFileOf(t *testing.T, f *Format, file string, raw []byte) *converted {
	t.Helper()
	if OpensJSON(raw) && strings.HasPrefix(strings.TrimSpace(string(raw)), "{\n") {
		return convert(t, f, file, 1, true, raw)
	}
	first, err := ParseDoc(file, 1, false, nonBlankLines(raw)[0])
	if err != nil || !f.Transcript(first) {
		t.Fatalf("%s: its first line does not open a %s file (%v)", file, f.Name, err)
	}
	d, err := ParseLines(file, 1, raw)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Detect(d); err != nil || got != f {
		t.Fatalf("Detect: %v %v", got, err)
	}
	c := newConverted()
	if err := ConvertDoc(f, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	return c
}
