package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

func flaggedRun(id string, v detect.Verdict, wasted int64) detect.RunResult {
	return detect.RunResult{
		RunID: id, Verdict: v, RootCause: detect.CauseToolRetryLoop,
		OnsetStep: 1, Steps: wasted + 1, WastedSteps: wasted, Headline: "headline of " + id,
	}
}

// tableRows returns the run ids of the table's rows, top to bottom.
func tableRows(t *testing.T, out string) []string {
	t.Helper()
	_, table, ok := strings.Cut(out, "\nRUN ")
	if !ok {
		t.Fatalf("no table in:\n%s", out)
	}
	var ids []string
	for i, line := range strings.Split(table, "\n") {
		if i < 2 || line == "" || strings.HasPrefix(line, "...") {
			continue // header remainder and rule; the "more" note
		}
		ids = append(ids, strings.Fields(line)[0])
	}
	return ids
}

// Runaway before suspicious, then most wasted steps, then run id; healthy
// runs never appear.
func TestTableOrder(t *testing.T) {
	runs := []detect.RunResult{
		flaggedRun("a-susp-big", detect.Suspicious, 500),
		flaggedRun("b-healthy", detect.Healthy, 0),
		flaggedRun("c-run-small", detect.Runaway, 10),
		flaggedRun("d-run-big", detect.Runaway, 90),
		flaggedRun("e-run-small", detect.Runaway, 10),
		flaggedRun("f-susp-small", detect.Suspicious, 5),
	}
	out := string(render(t, "table", &Scan{Summary: Summarize(InputStats{}, runs), Runs: runs}, Options{}))
	got := strings.Join(tableRows(t, out), " ")
	want := "d-run-big c-run-small e-run-small a-susp-big f-susp-small"
	if got != want {
		t.Errorf("rows = %s\nwant   %s\n%s", got, want, out)
	}
}

func TestTableMaxRows(t *testing.T) {
	var runs []detect.RunResult
	for i := range 7 {
		runs = append(runs, flaggedRun(fmt.Sprintf("run-%d", i), detect.Runaway, int64(i)))
	}
	scan := &Scan{Summary: Summarize(InputStats{}, runs), Runs: runs}
	out := string(render(t, "table", scan, Options{MaxRows: 3}))
	if got := strings.Join(tableRows(t, out), " "); got != "run-6 run-5 run-4" {
		t.Errorf("rows = %s, want the 3 worst", got)
	}
	if !strings.Contains(out, "... and 4 more flagged runs not shown") {
		t.Errorf("no note about the 4 hidden runs:\n%s", out)
	}
	out = string(render(t, "table", scan, Options{MaxRows: 7}))
	if len(tableRows(t, out)) != 7 || strings.Contains(out, "more flagged") {
		t.Errorf("MaxRows equal to the count must show all without a note:\n%s", out)
	}
}

func TestTableNoFlaggedRuns(t *testing.T) {
	runs := []detect.RunResult{{RunID: "ok-1", OnsetStep: -1, Steps: 3}, {RunID: "ok-2", OnsetStep: -1, Steps: 4}}
	out := string(render(t, "table", &Scan{Summary: Summarize(InputStats{Files: 1, LinesRead: 7, Steps: 7}, runs), Runs: runs}, Options{}))
	if !strings.Contains(out, "No runaway or suspicious runs.") {
		t.Errorf("no 'nothing flagged' line:\n%s", out)
	}
	if strings.Contains(out, "RUN ") || strings.Contains(out, "Root causes") {
		t.Errorf("empty table or root causes printed:\n%s", out)
	}
	if !strings.Contains(out, "2 scanned: 0 runaway, 0 suspicious, 2 healthy") {
		t.Errorf("summary counts wrong:\n%s", out)
	}
}

func TestTableSummaryBlock(t *testing.T) {
	scan := sampleScan()
	scan.Summary.Input.FailedSources = []string{"s3://bucket/2026-11-29/b.jsonl.zst: access denied"}
	scan.Summary.Partial = true
	out := string(render(t, "table", scan, Options{}))
	for _, want := range []string{
		"PARTIAL REPORT: 1 source could not be read:\n  s3://bucket/2026-11-29/b.jsonl.zst: access denied\n",
		"Input:       2 files (1 empty), 1,093 lines read (3 blank), 4 rejected (malformed_json 3, missing_field 1)\n",
		"Steps:       1,086 (2 exact duplicates dropped, 1 conflicting duplicate kept)\n",
		"Runs:        3 scanned: 1 runaway, 1 suspicious, 1 healthy\n",
		"Root causes: tool-retry-loop 1, replan-loop 1\n",
		"Wasted:      70 steps, 261,900 tokens, ~$5.24 (partly estimated from token counts and list prices)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour without Options.Color")
	}
	if out := string(render(t, "table", scan, Options{Color: true})); !strings.Contains(out, ansiBoldRed+"runaway"+ansiReset) {
		t.Errorf("no colour with Options.Color:\n%q", out)
	}
}

// hostileScan is a scan whose log-supplied strings try to reach the
// terminal: SGR and CSI sequences, a raw 8-bit CSI byte, carriage return and
// newline (fake rows), a bidi override and a tab.
func hostileScan() *Scan {
	id := "evil\x1b[31m-run\r\nFAKE ROW\u009b2J\x9b\u202e\t"
	runs := []detect.RunResult{{
		RunID:     id,
		Verdict:   detect.Runaway,
		RootCause: detect.RootCause("loop\x1b]0;pwned\x07"),
		OnsetStep: 3,
		Steps:     9,
		Headline:  "called \x1b[2Jclear\rover\nwritten\u009b31m\x7f",
		Findings: []detect.Finding{{
			Detector: "RA101", Message: "m\x1b[0m",
			Evidence: detect.Evidence{Keys: []string{"k\x1b[1m"}},
		}},
	}}
	in := InputStats{
		Files: 1, LinesRead: 9, LinesRejected: 1,
		RejectsByKind: map[string]int64{"kind\x1b[5m": 1},
		FailedSources: []string{"bad\x1b[8m\npath: error"},
	}
	return &Scan{Summary: Summarize(in, runs), Runs: runs}
}

func TestTableHostileStrings(t *testing.T) {
	out := render(t, "table", hostileScan(), Options{})
	assertTerminalSafe(t, "table", out)
	text := string(out)
	for _, want := range []string{`evil\x1b[31m-run\r\nFAKE ROW\u009b2J\x9b\u202e\t`, `called \x1b[2Jclear\rover\nwritten\u009b31m\x7f`, `bad\x1b[8m\npath: error`, `kind\x1b[5m 1`} {
		if !strings.Contains(text, want) {
			t.Errorf("escaped form %s not shown in:\n%s", want, text)
		}
	}
	// Every row stays on one line: the table has a header, a rule and one row.
	_, table, _ := strings.Cut(text, "\nRUN ")
	if n := strings.Count(table, "\n"); n != 3 {
		t.Errorf("table spans %d lines, want 3:\n%s", n, table)
	}
	if strings.Contains(text, "\nFAKE ROW") {
		t.Error("a newline in the run id started a new line")
	}
}

// A run that logged no cost says so: "$0.00" would read as a free loop.
func TestTableSaysCostNotLogged(t *testing.T) {
	runs := []detect.RunResult{{RunID: "r1", Verdict: detect.Runaway, RootCause: detect.CauseErrorStorm, OnsetStep: 0, Steps: 9,
		WastedSteps: 9, WastedTokens: 1200, Headline: "8 failed calls in a row"}}
	scan := &Scan{Summary: Summarize(InputStats{Files: 1}, runs), Runs: runs}
	out := string(render(t, "table", scan, Options{}))
	if !strings.Contains(out, "Wasted:      9 steps, 1,200 tokens, cost not logged") || !strings.Contains(out, "9 (cost not logged)") || strings.Contains(out, "$0.00") {
		t.Errorf("table:\n%s", out)
	}
}
