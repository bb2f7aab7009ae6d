package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// secretLog is a run whose args, goal and reasons hold words that must not
// leave the team: a retry loop of one call (its args quoted in evidence
// keys) and an empty-result loop (its args quoted in the headline).
func secretLog(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"run_id":"r-loop","step":0,"state":"PLAN","goal":"Refund customer Zebulon Quixote","decision":{"next_state":"ACT","reason":"Look up Quixote invoices"}}` + "\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, `{"run_id":"r-loop","step":%d,"state":"ACT","tool_call":{"name":"crm_lookup","args":{"customer":"Zebulon Quixote","invoice":"INV-884213"}},"tool_result":{"ok":false,"error_type":"SCHEMA_ERROR","retryable":false},"decision":{"next_state":"ACT","reason":"Retry Quixote lookup"}}`+"\n", i)
	}
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, `{"run_id":"r-empty","step":%d,"state":"ACT","tool_call":{"name":"drive_search","args":{"q":"Quixote settlement draft %d"}},"tool_result":{"ok":true,"result_count":0}}`+"\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "secret.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var secretWords = regexp.MustCompile(`(?i)zebulon|quixote|INV-884213|884213|settlement|invoices`)

// --redact leaves no args value, goal or reason in any output of explain
// or scan, while the structure stays: the tools are named, and the
// repeated call reads the same at every step.
func TestRedactEveryOutput(t *testing.T) {
	path := secretLog(t)
	outs := everyOutput(t, path, []string{"r-loop", "--run", "r-empty", "--redact"}, []string{"--redact"})
	// The scan page embeds both runs' timelines (explain's model, redacted
	// by the same redactor): their calls' args are checked below with the
	// rest of the page, and hold the same placeholder as the evidence.
	var timelines strings.Builder
	for _, svg := range find(parseOverview(t, outs["scan html"]).doc, "svg", "timeline") {
		timelines.WriteString(textOf(svg))
	}
	if rows, n := timelinesOf(t, outs["scan html"]); rows != 2 || n != 2 || !strings.Contains(timelines.String(), "crm_lookup {") {
		t.Fatalf("scan html: %d rows, %d timelines with the calls' args: %.300q", rows, n, timelines.String())
	}
	outs["scan html timelines"] = timelines.String()
	for name, out := range outs {
		if m := secretWords.FindString(out); m != "" {
			t.Errorf("%s: %q survived --redact", name, m)
		}
		if !strings.Contains(out, "crm_lookup") || !strings.Contains(out, "drive_search") {
			t.Errorf("%s: the tool names are gone too", name)
		}
	}
	// The repeated call has one placeholder: the folded line and the
	// evidence key show the same args.
	text := outs["explain text"]
	args := regexp.MustCompile(`crm_lookup (\{[^}]*\}) x8`).FindStringSubmatch(text)
	if args == nil {
		t.Fatalf("no folded crm_lookup line:\n%s", text)
	}
	if !strings.Contains(outs["scan html timelines"], "crm_lookup "+args[1]) {
		t.Errorf("the scan page's timeline does not show the placeholder %s", args[1])
	}
	if !strings.Contains(text, "key: crm_lookup "+args[1]) || !strings.Contains(outs["scan ndjson"], strings.ReplaceAll(args[1], `"`, `\"`)) {
		t.Errorf("the evidence does not show the timeline's placeholder %s", args[1])
	}
	// Without --redact, the words are there: the test looks at the right places.
	_, plain, _ := runCLI(t, "", "explain", "r-loop", "--run", "r-empty", path)
	if strings.Count(plain, "Quixote") < 3 {
		t.Fatalf("the unredacted output lacks the words the test looks for:\n%s", plain)
	}
}

// RA602 quotes one of the rephrased queries in its evidence and headline:
// --redact replaces its args there as RA601's, in scan and explain.
func TestRedactRephrasedSearch(t *testing.T) {
	var b strings.Builder
	for i, q := range []string{"Quixote settlement terms draft", "settlement terms Quixote draft agreement", "Quixote draft settlement agreement", "draft agreement Quixote settlement terms", "Quixote settlement agreement terms", "settlement draft Quixote terms"} {
		fmt.Fprintf(&b, `{"run_id":"r-search","step":%d,"state":"ACT","tool_call":{"name":"web_search","args":{"query":%q}},"tool_result":{"ok":true,"data":"Result page %d of the search"}}`+"\n", i, q, i)
	}
	path := filepath.Join(t.TempDir(), "search.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, plain, _ := runCLI(t, "", "scan", "--format", "ndjson", path)
	if !strings.Contains(plain, "RA602") || !strings.Contains(plain, "Quixote") {
		t.Fatalf("without --redact, no rephrased search quoting its query:\n%s", plain)
	}
	for _, args := range [][]string{
		{"scan", "--redact", "--format", "ndjson", path},
		{"scan", "--redact", path},
		{"explain", "r-search", "--redact", path},
	} {
		code, out, stderr := runCLI(t, "", args...)
		if code == exitUsage || code == exitFailure || !strings.Contains(out, "web_search") {
			t.Fatalf("%v: exit %d, %s\n%s", args, code, stderr, out)
		}
		if m := secretWords.FindString(out); m != "" {
			t.Errorf("%v: %q survived --redact:\n%s", args, m, out)
		}
	}
}
