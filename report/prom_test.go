package report

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/runawayhq/runaway/detect"
)

var sampleTiming = ScanTiming{Duration: 12500 * time.Millisecond, Completed: time.Unix(1764547200, 250e6)}

func renderProm(t *testing.T, s *Summary, timing ScanTiming) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteProm(&buf, s, timing); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parseProm parses text as node_exporter's textfile collector does, with
// the strict pre-UTF-8 name rules, so that older Prometheus servers accept
// the names too.
func parseProm(t *testing.T, text []byte) map[string]*dto.MetricFamily {
	t.Helper()
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("not valid exposition text: %v\n%s", err, text)
	}
	return families
}

// promValue is the value of the series of family name with exactly the
// given labels (name, value pairs).
func promValue(t *testing.T, families map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	f, ok := families[name]
	if !ok {
		t.Fatalf("no family %s", name)
	}
	for _, m := range f.GetMetric() {
		var got []string
		for _, l := range m.GetLabel() {
			got = append(got, l.GetName(), l.GetValue())
		}
		if slices.Equal(got, labels) {
			return m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no series %s%q", name, labels)
	return 0
}

// The sample scan's file parses with Prometheus' own parser, every family
// is a documented gauge without sample timestamps, and the values are the
// summary's.
func TestPromValues(t *testing.T) {
	scan := sampleScan()
	families := parseProm(t, renderProm(t, &scan.Summary, sampleTiming))

	var names []string
	for _, m := range promMetrics {
		names = append(names, m.name)
	}
	for name, f := range families {
		if !slices.Contains(names, name) {
			t.Errorf("unexpected family %s", name)
		}
		if f.GetType() != dto.MetricType_GAUGE || f.GetHelp() == "" {
			t.Errorf("%s: type %s, help %q; want a gauge with help", name, f.GetType(), f.GetHelp())
		}
		for _, m := range f.GetMetric() {
			if m.TimestampMs != nil {
				t.Errorf("%s has a sample timestamp: the textfile collector refuses them", name)
			}
		}
	}
	// Rejects by kind has series only for the kinds seen, all others one.
	if len(families) != len(promMetrics) {
		t.Errorf("%d families, want %d", len(families), len(promMetrics))
	}

	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"runaway_runs_scanned", nil, 3},
		{"runaway_runs", []string{"verdict", "healthy"}, 1},
		{"runaway_runs", []string{"verdict", "runaway"}, 1},
		{"runaway_runs", []string{"verdict", "suspicious"}, 1},
		{"runaway_flagged_runs", []string{"root_cause", "tool-retry-loop", "verdict", "runaway"}, 1},
		{"runaway_flagged_runs", []string{"root_cause", "tool-retry-loop", "verdict", "suspicious"}, 0},
		{"runaway_flagged_runs", []string{"root_cause", "replan-loop", "verdict", "suspicious"}, 1},
		{"runaway_flagged_runs", []string{"root_cause", "replan-loop", "verdict", "runaway"}, 0},
		{"runaway_flagged_runs", []string{"root_cause", "error-storm", "verdict", "runaway"}, 0},
		{"runaway_wasted_steps", nil, 70},
		{"runaway_wasted_tokens", nil, 261900},
		{"runaway_wasted_cost_usd", nil, 5.2381},
		{"runaway_input_files", nil, 2},
		{"runaway_input_lines_read", nil, 1093},
		{"runaway_input_lines_rejected", nil, 4},
		{"runaway_input_lines_rejected_by_kind", []string{"kind", "malformed_json"}, 3},
		{"runaway_input_lines_rejected_by_kind", []string{"kind", "missing_field"}, 1},
		{"runaway_input_sources_failed", nil, 0},
		{"runaway_scan_partial", nil, 0},
		{"runaway_scan_duration_seconds", nil, 12.5},
		{"runaway_scan_completion_timestamp_seconds", nil, 1764547200.25},
	} {
		if got := promValue(t, families, c.name, c.labels...); got != c.want {
			t.Errorf("%s%q = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// Every root cause is present for both flagged verdicts, so an alert on
	// one never meets a missing series.
	if n := len(families["runaway_flagged_runs"].GetMetric()); n != 2*len(detect.RootCauses) {
		t.Errorf("runaway_flagged_runs has %d series, want %d", n, 2*len(detect.RootCauses))
	}
}

// The exact text, reviewed like code: families in a fixed order, series
// sorted by label values. go test ./report -update rewrites it.
func TestPromGolden(t *testing.T) {
	scan := sampleScan()
	got := renderProm(t, &scan.Summary, sampleTiming)
	path := filepath.Join("testdata", "scan.prom")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("scan.prom differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", got, want)
	}
	// Map iteration order must not leak into the file.
	for range 20 {
		s := sampleScan().Summary
		if again := renderProm(t, &s, sampleTiming); !bytes.Equal(again, got) {
			t.Fatal("two renders of the same summary differ")
		}
	}
}

// Label values that need escaping, or that carry terminal controls and bad
// UTF-8, still give a file that parses back to the same values; a root
// cause detect does not list yet still shows up; a partial scan says so.
func TestPromEscapingAndPartial(t *testing.T) {
	scan := hostileScan()
	s := scan.Summary
	s.Input.RejectsByKind["quote\"back\\slash\nnewline"] = 2
	s.Input.RejectsByKind["bad-\xff"] = 1
	families := parseProm(t, renderProm(t, &s, sampleTiming))
	for kind, want := range map[string]float64{"kind\x1b[5m": 1, "quote\"back\\slash\nnewline": 2, "bad-\uFFFD": 1} {
		if got := promValue(t, families, "runaway_input_lines_rejected_by_kind", "kind", kind); got != want {
			t.Errorf("kind %q = %v, want %v", kind, got, want)
		}
	}
	if got := promValue(t, families, "runaway_flagged_runs", "root_cause", "loop\x1b]0;pwned\x07", "verdict", "runaway"); got != 1 {
		t.Errorf("unknown root cause: %v runs, want 1", got)
	}
	if got := promValue(t, families, "runaway_scan_partial"); got != 1 {
		t.Errorf("partial = %v, want 1", got)
	}
	if got := promValue(t, families, "runaway_input_sources_failed"); got != 1 {
		t.Errorf("sources failed = %v, want 1", got)
	}
}

// An empty scan (no runs, no input) still gives a valid file in which
// every always-present series is 0.
func TestPromEmptyScan(t *testing.T) {
	s := Summarize(InputStats{}, nil)
	families := parseProm(t, renderProm(t, &s, sampleTiming))
	for _, name := range []string{"runaway_runs_scanned", "runaway_wasted_cost_usd", "runaway_input_lines_rejected", "runaway_scan_partial"} {
		if got := promValue(t, families, name); got != 0 {
			t.Errorf("%s = %v, want 0", name, got)
		}
	}
	if got := promValue(t, families, "runaway_flagged_runs", "root_cause", "error-storm", "verdict", "runaway"); got != 0 {
		t.Errorf("flagged error-storm runs = %v, want 0", got)
	}
	if f := families["runaway_input_lines_rejected_by_kind"]; f != nil && len(f.GetMetric()) != 0 {
		t.Errorf("rejects by kind without rejects: %v", f)
	}
}

func TestPromErrors(t *testing.T) {
	s := sampleScan().Summary
	if err := WriteProm(&bytes.Buffer{}, nil, sampleTiming); err == nil {
		t.Error("nil summary accepted")
	}
	if err := WriteProm(&bytes.Buffer{}, &s, ScanTiming{Duration: time.Second}); err == nil {
		t.Error("a zero completion time was written as a timestamp")
	}
	if err := WriteProm(&failingWriter{}, &s, sampleTiming); !errors.Is(err, os.ErrClosed) {
		t.Errorf("write error: %v, want os.ErrClosed", err)
	}
}

func TestFormatPromValue(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {3, "3"}, {261900, "261900"}, {5.2381, "5.2381"}, {1764547200.25, "1764547200.25"},
		{1e-9, "0.000000001"}, {math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"}, {math.NaN(), "NaN"},
	} {
		if got := formatPromValue(c.v); got != c.want {
			t.Errorf("formatPromValue(%v) = %s, want %s", c.v, got, c.want)
		}
	}
}
