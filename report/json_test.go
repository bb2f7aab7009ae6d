package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

func TestJSONParsesBack(t *testing.T) {
	scan := sampleScan()
	// detect.Verdict has no UnmarshalText, so verdicts decode as strings.
	var doc struct {
		SchemaVersion *string `json:"schema_version"`
		Tool          struct{ Name, Version string }
		Summary       Summary
		Runs          []struct {
			RunID   string `json:"run_id"`
			Verdict string `json:"verdict"`
		}
	}
	if err := json.Unmarshal(render(t, "json", scan, Options{}), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion == nil || *doc.SchemaVersion != schema.OutputVersion {
		t.Fatalf("schema_version = %v, want %q", doc.SchemaVersion, schema.OutputVersion)
	}
	if doc.Tool.Name != "runaway" || doc.Tool.Version != schema.ProductVersion {
		t.Errorf("tool = %+v", doc.Tool)
	}
	if len(doc.Runs) != len(scan.Runs) {
		t.Fatalf("%d runs, want every run (%d), healthy included", len(doc.Runs), len(scan.Runs))
	}
	for i, r := range doc.Runs {
		if r.RunID != scan.Runs[i].RunID || r.Verdict != scan.Runs[i].Verdict.String() {
			t.Errorf("run %d = %s/%s, want %s/%s", i, r.RunID, r.Verdict, scan.Runs[i].RunID, scan.Runs[i].Verdict)
		}
	}
	s := doc.Summary
	if s.Runs != 3 || s.Runaway != 1 || s.Suspicious != 1 || s.Healthy != 1 || s.WastedSteps != 70 {
		t.Errorf("summary = %+v", s)
	}
}

// writeJSON streams the document run by run; it must be exactly what
// encoding the whole document at once gives.
func TestJSONStreamMatchesDocument(t *testing.T) {
	for name, scan := range map[string]*Scan{
		"sample": sampleScan(),
		"empty":  {Summary: Summarize(InputStats{}, nil)},
	} {
		t.Run(name, func(t *testing.T) {
			runs := make([]detect.RunResult, len(scan.Runs))
			for i := range scan.Runs {
				runs[i] = normalizeRun(scan.Runs[i])
			}
			if runs == nil {
				runs = []detect.RunResult{}
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", jsonIndent)
			if err := enc.Encode(jsonDocument{jsonHead: newJSONHead(scan.Summary), Runs: runs}); err != nil {
				t.Fatal(err)
			}
			if got := render(t, "json", scan, Options{}); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("streamed document differs:\n%s\n--- whole ---\n%s", got, want.Bytes())
			}
		})
	}
}

var requiredRunKeys = []string{
	"run_id", "verdict", "root_cause", "onset_step", "steps", "wasted_steps", "wasted_tokens",
	"wasted_cost_usd", "headline", "signals", "indicators", "findings",
}

func TestNDJSONOneObjectPerRun(t *testing.T) {
	scan := sampleScan()
	out := render(t, "ndjson", scan, Options{})
	if !bytes.HasSuffix(out, []byte("\n")) {
		t.Fatal("output does not end in a newline")
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(scan.Runs) {
		t.Fatalf("%d lines, want one per run (%d)", len(lines), len(scan.Runs))
	}
	for i, line := range lines {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, line)
		}
		for _, k := range requiredRunKeys {
			if _, ok := obj[k]; !ok {
				t.Errorf("line %d lacks %q", i+1, k)
			}
		}
		var id string
		json.Unmarshal(obj["run_id"], &id)
		if id != scan.Runs[i].RunID {
			t.Errorf("line %d is run %q, want %q (input order)", i+1, id, scan.Runs[i].RunID)
		}
	}
	if got := render(t, "ndjson", &Scan{}, Options{}); len(got) != 0 {
		t.Errorf("no runs gave %q, want nothing", got)
	}
}

// Consumers iterate findings, signals and evidence steps without null
// checks, whatever detect left nil.
func TestNilCollectionsEncodeEmpty(t *testing.T) {
	run := detect.RunResult{
		RunID:    "r",
		Verdict:  detect.Suspicious,
		Findings: []detect.Finding{{Detector: "RA1", Evidence: detect.Evidence{}}},
	}
	scan := &Scan{Runs: []detect.RunResult{run, {RunID: "s"}}}
	for _, format := range []string{"json", "ndjson"} {
		out := string(render(t, format, scan, Options{}))
		if strings.Contains(out, "null") {
			t.Errorf("%s output contains null:\n%s", format, out)
		}
	}
	if scan.Runs[0].Findings[0].Evidence.Steps != nil || scan.Runs[0].Signals != nil {
		t.Error("rendering modified the caller's results")
	}
}

// JSON output is printed on terminals too (`runaway scan --format json`
// without a pipe): it must not carry raw escape sequences, and it must
// decode back to the exact strings of the log.
func TestJSONHostileStrings(t *testing.T) {
	scan := hostileScan()
	for _, format := range []string{"json", "ndjson"} {
		out := render(t, format, scan, Options{})
		assertTerminalSafe(t, format, out)
		var got struct {
			RunID    string `json:"run_id"`
			Headline string `json:"headline"`
		}
		first := out
		if format == "json" {
			var doc struct{ Runs []json.RawMessage }
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			first = doc.Runs[0]
		} else {
			first, _, _ = bytes.Cut(out, []byte("\n"))
		}
		if err := json.Unmarshal(first, &got); err != nil {
			t.Fatal(err)
		}
		// Bytes that are not UTF-8 cannot be in a JSON string; encoding/json
		// writes U+FFFD for each, as it does when ingest decodes them.
		wantID := strings.ToValidUTF8(scan.Runs[0].RunID, "\uFFFD")
		if got.RunID != wantID || got.Headline != scan.Runs[0].Headline {
			t.Errorf("%s: strings did not survive the round trip: %q %q", format, got.RunID, got.Headline)
		}
	}
}

func TestEscapeInvisibles(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:                   `"plain"`,
		`"a` + "\u009b" + `31m"`:    `"a\u009b31m"`,
		`"` + "\u0080\u009f" + `"`:  `"\u0080\u009f"`,
		`"del` + "\x7f" + `"`:       `"del\u007f"`,
		`"é ü 日本"`:                  `"é ü 日本"`,
		`"` + "\u202e" + `gpj.exe"`: `"\u202egpj.exe"`,
		`"` + "\u2066x\u2069" + `"`: `"\u2066x\u2069"`,
	} {
		got := string(escapeInvisibles([]byte(in)))
		if got != want {
			t.Errorf("escapeInvisibles(%q) = %q, want %q", in, got, want)
		}
		var a, b string
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil || a != b {
			t.Errorf("%q decodes to %q, want %q (%v)", got, b, a, err)
		}
	}
}

// assertTerminalSafe fails if out holds anything a terminal would act on:
// a C0 control other than newline, DEL, a C1 control, a byte that is not
// UTF-8, or a bidirectional control.
func assertTerminalSafe(t *testing.T, what string, out []byte) {
	t.Helper()
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			t.Fatalf("%s: invalid UTF-8 byte %#x at %d:\n%s", what, out[i], i, out)
		case r == '\n':
		case r < 0x20 || r == 0x7f || isC1(r) || isBidiControl(r):
			t.Fatalf("%s: raw control %U at byte %d:\n%q", what, r, i, out)
		}
		i += size
	}
}

// JSON has no NaN or Infinity. A non-finite cost cannot be written, and the
// error must say which run holds it (detect and ingest should never let one
// through; this is the last line of defence, not a feature).
func TestNonFiniteCostNamesTheRun(t *testing.T) {
	runs := []detect.RunResult{{RunID: "ok"}, {RunID: "inf-cost", WastedCostUSD: math.Inf(1)}}
	scan := &Scan{Runs: runs}
	for _, format := range []string{"json", "ndjson"} {
		err := Write(io.Discard, format, scan, Options{})
		if err == nil || !strings.Contains(err.Error(), `"inf-cost"`) {
			t.Errorf("%s: err = %v, want an error naming run inf-cost", format, err)
		}
	}
	if err := Write(io.Discard, "table", scan, Options{}); err != nil {
		t.Errorf("table: %v", err)
	}
}

// escapeInvisibles skips eight plain bytes at a time; it must rewrite what
// the byte-by-byte scan rewrites, wherever in a word the bytes fall.
func FuzzEscapeInvisiblesMatchesByteByByte(f *testing.F) {
	for _, s := range []string{"", "plain ascii text, longer than a word", "\x7f", "ab\u0085cdefghij", "0123456\u202e", "\xff\xfe0123456789", "\u0080\u009f\u2066"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := escapeInvisiblesByteByByte(b)
		if got := escapeInvisibles(bytes.Clone(b)); !bytes.Equal(got, want) {
			t.Fatalf("escapeInvisibles(%q) = %q, want %q", b, got, want)
		}
	})
}

// escapeInvisiblesByteByByte is escapeInvisibles without the word skip.
func escapeInvisiblesByteByByte(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		if r == 0x7f || isC1(r) || isBidiControl(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
