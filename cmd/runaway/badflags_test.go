package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every bad flag value is a usage error, exit 2, whatever the subcommand,
// and the message names the flag: a script must be able to tell "I called
// it wrong" (2) from "it could not run" (3). The input is valid, so a
// value accepted by mistake shows as another exit code.
func TestBadFlagValuesExit2InEverySubcommand(t *testing.T) {
	dir := t.TempDir()
	logs := concatFixtures(t, "detectors/RA101.positive")
	badLabels := filepath.Join(dir, "bad-labels.jsonl")
	os.WriteFile(badLabels, []byte(`{"run_id":"a","label":"maybe"}`+"\n"), 0o644)
	labels := filepath.Join(dir, "labels.jsonl")
	os.WriteFile(labels, []byte(`{"run_id":"fx-RA101-positive","label":"runaway"}`+"\n"), 0o644)
	empty := emptyFile(t)
	out := filepath.Join(dir, "out")

	// The flags every command that reads step logs shares, with a bad
	// value each.
	shared := []struct {
		args []string
		flag string
	}{
		{[]string{"--max-line-bytes", "10"}, "--max-line-bytes"},
		{[]string{"--max-doc-bytes", "10"}, "--max-doc-bytes"},
		{[]string{"--input-format", "bogus"}, "--input-format"},
		{[]string{"--workers", "-1"}, "--workers"},
		{[]string{"--include", "[x"}, "--include"},
		{[]string{"--exclude", "/abs"}, "--exclude"},
		{[]string{"--policy", empty + ".nope"}, "--policy"},
		{[]string{"--prices", empty}, "--prices"},
		{[]string{"--repeat-suspicious", "9", "--repeat-runaway", "5"}, "--repeat-runaway"},
	}
	// Each subcommand that reads step logs, called right but for the bad
	// value, which goes before the run id or paths.
	readers := map[string]func(bad ...string) []string{
		"scan": func(bad ...string) []string { return append(append([]string{"scan"}, bad...), logs) },
		"explain": func(bad ...string) []string {
			return append(append([]string{"explain"}, bad...), "fx-RA101-positive", logs)
		},
		"replay": func(bad ...string) []string { return append(append([]string{"replay"}, bad...), logs) },
		"eval": func(bad ...string) []string {
			return append(append([]string{"eval", "--labels", labels}, bad...), logs)
		},
		"fixture": func(bad ...string) []string {
			return append(append([]string{"fixture", "--out", out}, bad...), "fx-RA101-positive", logs)
		},
	}
	type tc struct {
		args []string
		flag string
	}
	var cases []tc
	for _, cmd := range readers {
		for _, s := range shared {
			cases = append(cases, tc{cmd(s.args...), s.flag})
		}
	}
	cases = append(cases,
		// scan
		tc{readers["scan"]("--format", "xml"), "--format"},
		tc{readers["scan"]("--fail-on", "sometimes"), "--fail-on"},
		tc{readers["scan"]("--max-rows", "-1"), "--max-rows"},
		tc{readers["scan"]("--max-memory", "1k"), "--max-memory"},
		tc{readers["scan"]("--html-timelines", "99"), "--html-timelines"},
		tc{readers["scan"]("--output", "csv=x.csv"), "--output"},
		tc{readers["scan"]("--spill-dir", filepath.Join(dir, "no-such-dir")), "--spill-dir"},
		tc{readers["scan"]("--spill-dir", empty), "--spill-dir"},
		// explain
		tc{readers["explain"]("--format", "pdf"), "--format"},
		tc{readers["explain"]("--guard", "nosuch"), "--guard"},
		tc{readers["explain"]("--run", ""), "--run"},
		// replay
		tc{readers["replay"]("--format", "xml"), "--format"},
		tc{readers["replay"]("--examples", "-1"), "--examples"},
		tc{readers["replay"]("--guard", "maxturns:n=x"), "--guard"},
		tc{readers["replay"]("--labels", badLabels), "--labels"},
		// eval
		tc{readers["eval"]("--format", "xml"), "--format"},
		tc{readers["eval"]("--min-recall", "1.5"), "--min-recall"},
		tc{readers["eval"]("--min-precision", "NaN"), "--min-precision"},
		tc{readers["eval"]("--split", "nope"), "--split"},
		tc{[]string{"eval", "--labels", badLabels, logs}, "--labels"},
		// fixture
		tc{readers["fixture"]("--minimize-budget", "0"), "--minimize-budget"},
		tc{readers["fixture"]("--redact-key-file", empty), "--redact-key-file"},
		tc{readers["fixture"]("--redact-key-file", empty+".nope"), "--redact-key-file"},
		// verify
		tc{[]string{"verify", "--format", "xml", fixturesDir}, "--format"},
		tc{[]string{"verify", "--max-line-bytes", "10", fixturesDir}, "--max-line-bytes"},
		tc{[]string{"verify", "--workers", "-2", fixturesDir}, "--workers"},
		tc{[]string{"verify", "--include", "[x", fixturesDir}, "--include"},
		tc{[]string{"verify", "--repeat-suspicious", "9", "--repeat-runaway", "5", fixturesDir}, "--repeat-runaway"},
		// gen
		tc{[]string{"gen", "--runs", "3", "--causes", "bogus"}, "--causes"},
		tc{[]string{"gen", "--runs", "3", "--causes", "error-storm,error-storm"}, "--causes"},
		tc{[]string{"gen", "--runs", "3", "--interleave", "-1"}, "--interleave"},
		tc{[]string{"gen", "--runs", "3", "--runaway-rate", "NaN"}, "--runaway-rate"},
		tc{[]string{"gen", "--runs", "3", "--runaway-rate", "1.5"}, "--runaway-rate"},
		tc{[]string{"gen", "--runs", "-1"}, "--runs"},
		tc{[]string{"gen", "--size", "lots"}, "--size"},
		// every command: a value the flag library cannot parse
		tc{[]string{"gen", "--runs", "many"}, "--runs"},
		tc{readers["scan"]("--workers", "two"), "--workers"},
	)
	for _, c := range cases {
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.flag) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and a message naming %s", c.args, code, firstLine(stderr), c.flag)
		}
		if stdout != "" {
			t.Errorf("%q: wrote to stdout: %.80q", c.args, stdout)
		}
	}
	if left, _ := os.ReadDir(out); len(left) > 0 {
		t.Errorf("a fixture was written despite a bad flag: %v", left)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
