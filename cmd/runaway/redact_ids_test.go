package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Secrets a log can hold outside args and text: in run ids, tool names,
// error types, memory ids, intents and states. Each is one of the kinds
// package redact recognises.
var idSecrets = map[string]string{
	"run id":      "AKIAIOSFODNN7EXAMPLE",
	"other run":   "AKIAJ0123456789ABCDE",
	"tool":        "sk-abcdefghijklmnop1234",
	"other tool":  "sk-zyxwvutsrqponmlk9876",
	"error type":  "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
	"memory id":   "AIzaSyA1234567890abcdefghijklmnopqrstu",
	"intent":      "hunter2secretvalue",
	"state":       "sk-state1234567890abcdefgh",
	"args":        "sk-argsSecret1234567890abcd",
	"next state":  "AKIAQ0123456789ABCDE",
	"memory type": "xoxb-1234567890-abcdefghij",
}

// secretIDsLog writes two runs whose ids, tools, error types, memory ids,
// intent and states hold secrets: a loop of one failing call that reads a
// memory written from inference (RA101, RA301, RA302, RA501, RA203 quote
// the tool, the error type and the memory), and an empty-result loop
// under one intent (RA601 quotes it).
func secretIDsLog(t *testing.T) (path, runA, runB string) {
	t.Helper()
	s := idSecrets
	runA, runB = "run-"+s["run id"], "run-"+s["other run"]
	tool, other, mem := "lookup."+s["tool"], "search."+s["other tool"], "mem-"+s["memory id"]
	var b strings.Builder
	line := func(v map[string]any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	line(map[string]any{"run_id": runA, "step": 0, "state": "PLAN", "goal": "fix it",
		"memory":   map[string]any{"written": []string{mem}, "write_tags": []string{"inference"}, "entries": []any{map[string]any{"id": mem, "type": "inference " + s["memory type"], "source": "model", "confidence": 0.4}}},
		"decision": map[string]any{"next_state": "ACT " + s["next state"], "reason": "go"}})
	for i := 1; i <= 8; i++ {
		line(map[string]any{"run_id": runA, "step": i, "state": "ACT",
			"tool_call":   map[string]any{"name": tool, "args": map[string]any{"api_key": s["args"], "id": 7}},
			"tool_result": map[string]any{"ok": false, "error_type": s["error type"], "retryable": false},
			"memory":      map[string]any{"retrieved": []string{mem}}})
	}
	for i := 0; i < 6; i++ {
		state := "ACT"
		if i == 5 {
			state = "PAUSE " + s["state"]
		}
		line(map[string]any{"run_id": runB, "step": i, "state": state, "intent": "lookup token=" + s["intent"],
			"tool_call":   map[string]any{"name": other, "args": map[string]any{"q": fmt.Sprintf("query %d", i)}},
			"tool_result": map[string]any{"ok": true, "result_count": 0}})
	}
	path = filepath.Join(t.TempDir(), "ids.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, runA, runB
}

// --redact leaves no secret in any output, wherever in the input it was:
// run ids, tool names, error types, memory ids, intents and states lose the
// secret they hold to its placeholder ("secret-<kind>-<hash>"), in every
// format of scan and explain and in fixtures (redacted by default). The
// placeholders are stable: two runs whose ids hold different secrets stay
// two runs, and a run keeps one id across the outputs.
func TestRedactRemovesSecretsFromIDs(t *testing.T) {
	path, runA, runB := secretIDsLog(t)
	dir := t.TempDir()
	parquetPath, promPath := filepath.Join(dir, "s.parquet"), filepath.Join(dir, "s.prom")
	outs := everyOutput(t, path, []string{runA, "--run", runB, "--redact"},
		[]string{"--redact", "--output", "parquet=" + parquetPath, "--output", "prom=" + promPath})
	outs["scan parquet"] = parquetText(t, parquetPath)
	prom, err := os.ReadFile(promPath)
	if err != nil {
		t.Fatal(err)
	}
	outs["scan prom"] = string(prom)
	fixtures := filepath.Join(dir, "fixtures")
	if code, _, stderr := runCLI(t, "", "fixture", runA, "--run", runB, "--out", fixtures, path); code != exitClean {
		t.Fatalf("fixture: exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(fixtures)
	if err != nil || len(entries) != 4 {
		t.Fatalf("fixture wrote %d files (%v), want 2 runs' steps and wants", len(entries), err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(fixtures, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		outs["fixture "+e.Name()] = string(data)
		outs["fixture file name "+e.Name()] = e.Name()
	}

	// The runs were flagged as expected, so the secrets reach messages,
	// keys and counts.
	for _, want := range []string{"RA101", "RA301", "RA501", "RA601", `"error_`} {
		if !strings.Contains(outs["scan ndjson"], want) {
			t.Fatalf("scan ndjson lacks %s:\n%s", want, outs["scan ndjson"])
		}
	}
	for name, out := range outs {
		for what, secret := range idSecrets {
			if strings.Contains(strings.ToLower(out), strings.ToLower(secret)) {
				t.Errorf("%s: the secret of the %s survived --redact", name, what)
			}
		}
	}

	// Two runs, two ids, each the same wherever it is shown.
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(outs["scan ndjson"]), "\n") {
		var r struct {
			RunID string `json:"run_id"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.RunID)
	}
	placeholder := regexp.MustCompile(`^run-secret-aws-[A-Za-z0-9]+$`)
	if len(ids) != 2 || ids[0] == ids[1] || !placeholder.MatchString(ids[0]) || !placeholder.MatchString(ids[1]) {
		t.Fatalf("run ids %q: want two distinct placeholders", ids)
	}
	for _, name := range []string{"scan json", "scan html", "scan parquet", "explain text", "explain md", "explain html"} {
		for _, id := range ids {
			if !strings.Contains(outs[name], id) {
				t.Errorf("%s does not name run %s as ndjson does", name, id)
			}
		}
	}
	// The page embeds both runs' timelines: they were read again by the
	// runs' ids as logged.
	if rows, n := timelinesOf(t, outs["scan html"]); rows != 2 || n != 2 {
		t.Errorf("scan html: %d rows, %d timelines; want both runs'", rows, n)
	}
	// Same secret, same placeholder: the tool in evidence and in the
	// explain timeline read alike.
	tool := regexp.MustCompile(`lookup\.secret-apikey-[A-Za-z0-9]+`).FindString(outs["scan ndjson"])
	if tool == "" || !strings.Contains(outs["explain text"], tool) || !strings.Contains(outs["fixture "+entries[0].Name()]+outs["fixture "+entries[2].Name()], tool) {
		t.Errorf("the tool's placeholder %q is not the same in scan, explain and the fixture", tool)
	}

	// Without --redact the secrets are there: the test looks at the right places.
	_, plain, _ := runCLI(t, "", "scan", "--format", "ndjson", path)
	for _, what := range []string{"run id", "tool", "error type", "memory id", "intent"} {
		if !strings.Contains(plain, idSecrets[what]) {
			t.Errorf("unredacted scan: the %s's secret is not shown; the test does not exercise it", what)
		}
	}
}

// parquetText is every value of a Parquet file as text.
func parquetText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var b strings.Builder
	for c := range int(tbl.NumCols()) {
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			fmt.Fprintf(&b, "%s: %v\n", tbl.Schema().Field(c).Name, chunk)
		}
	}
	if !strings.Contains(b.String(), "run-") {
		t.Fatalf("the Parquet file's text lacks the run ids:\n%s", b.String())
	}
	return b.String()
}
