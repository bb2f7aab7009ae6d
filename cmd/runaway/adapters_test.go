package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var trajectoriesDir = filepath.Join(fixturesDir, "trajectories")

// trajectoryDir lays out one sample of each format, as a user's directory
// of agent logs holds them, and returns it.
func trajectoryDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(trajectoriesDir, from))
		if err != nil {
			t.Fatal(err)
		}
		to = filepath.Join(dir, to)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("swe-agent/edit-syntax-error-loop.traj", "swe/confparse-12.traj")
	copyFile("mini-swe-agent/healthy-tool-calls.traj.json", "mini/httpkit-322/httpkit-322.traj.json")
	copyFile("openhands/output.ndjson", "openhands/eval/output.jsonl")
	events, err := os.ReadDir(filepath.Join(trajectoriesDir, "openhands", "session-5f0c2a", "events"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		copyFile(filepath.Join("openhands", "session-5f0c2a", "events", e.Name()), filepath.Join("openhands", "sessions", "s1", "events", e.Name()))
	}
	copyFile("openai-messages/tau-bench-results.json", "tau/results.json")
	// Harbor leaves an ATIF trajectory in each trial's agent directory.
	copyFile("atif/terminus-install-loop.json", "harbor/jobs/2025-11-20__09-12-00/install-deps__a1b2c3/agent/trajectory.json")
	copyFile("anthropic-messages/claude-code-edit-loop.ndjson", "claude/projects/-home-dev-gateway/9b2e7a41-3c8d-4f0e-a6b5-2d1c9e8f7a30.jsonl")
	// Gemini CLI keeps its sessions under ~/.gemini/tmp/<project hash>/chats
	// (a hidden directory is read when it is named, as ~/.gemini/tmp is).
	copyFile("gemini-cli/session-edit-loop.ndjson", "gemini/tmp/3f9a7c0e/chats/session-2026-03-14T09-12-7c1f3a52.jsonl")
	copyFile("gemini-cli/session-fix-converges.json", "gemini/tmp/9d0c1b2a/chats/session-2025-11-03T10-41-b2e47d90.json")
	// Qwen Code keeps a session under ~/.qwen/projects/<project>/chats.
	copyFile("qwen-code/session-search-loop.ndjson", "qwen/projects/-srv-shop/chats/5b0d7e21-6c4f-4a9e-b2d3-8f1e0a9c7d64.jsonl")
	// Cursor's Agent CLI prints its stream to stdout; a user keeps it
	// under a name of their own.
	copyFile("cursor/test-edit-loop.ndjson", "cursor-runs/fix-cart.log")
	// Copilot CLI keeps a session under ~/.copilot/session-state/<id>.
	copyFile("copilot-cli/session-import-error-loop.ndjson", "copilot/session-state/3d9f2c71-8a4e-4b0d-9c15-6e2a7f8b1d40/events.jsonl")
	// A DSPy prediction, saved by its user with toDict().
	copyFile("dspy/order-lookup-error-loop.json", "dspy-runs/order-lookup.json")
	// Inspect AI writes its .eval logs under ./logs, a zip archive each.
	copyFile("inspect/bash-repeat-loop-pooled.eval", "inspect/logs/2025-10-01T12-00-00+00-00_bash-repeat_Hx2k.eval")
	// Continue keeps its sessions under ~/.continue/sessions.
	copyFile("continue/session-find-replace-loop.json", "continue/sessions/6f2a9c1e-3d4b-4e8f-a1c2-7b9d0e5f3a18.json")
	// Rovo Dev names its plain-text transcripts by the task alone.
	copyFile("rovo-dev/npm-install-storm", "rovo/trajs/acme__widgets-202")
	copyFile("rovo-dev/healthy-fix", "rovo/trajs/mrdoob__three.js-201")
	if err := os.WriteFile(filepath.Join(dir, "rovo", "trajs", "LICENSE"), []byte("Permission is hereby granted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Aider keeps its chat history, a hidden Markdown file, in the
	// repository it works on, beside the project's own documents.
	copyFile("aider/edit-no-match-loop.aider.chat.history.md", "billing-app/.aider.chat.history.md")
	if err := os.WriteFile(filepath.Join(dir, "billing-app", "README.md"), []byte("# Billing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// verdicts scans paths with no format flag and returns each run's verdict.
func verdicts(t *testing.T, args ...string) map[string]string {
	t.Helper()
	code, out, stderr := runCLI(t, "", append([]string{"scan", "--format", "ndjson"}, args...)...)
	if code != exitClean {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			RunID   string `json:"run_id"`
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		got[r.RunID] = r.Verdict
	}
	return got
}

// A directory of trajectories in every format is scanned as it is, with no
// flag: each file goes to its adapter, each run gets the verdict a person
// reading it would give.
func TestScanTrajectoriesOfEveryFormat(t *testing.T) {
	dir := trajectoryDir(t)
	want := map[string]string{
		filepath.Join(dir, "swe/confparse-12.traj"):                                                                                                 "runaway",
		filepath.Join(dir, "mini/httpkit-322/httpkit-322.traj.json"):                                                                                "healthy",
		filepath.Join(dir, "openhands/eval/output.jsonl") + ":1#acme__widgets-101":                                                                  "runaway",
		filepath.Join(dir, "openhands/eval/output.jsonl") + ":2#acme__widgets-117":                                                                  "healthy",
		filepath.Join(dir, "openhands/sessions/s1/events"):                                                                                          "healthy",
		filepath.Join(dir, "tau/results.json") + "[0]#task_id=7,trial=0":                                                                            "runaway",
		filepath.Join(dir, "tau/results.json") + "[1]#task_id=7,trial=1":                                                                            "healthy",
		filepath.Join(dir, "harbor/jobs/2025-11-20__09-12-00/install-deps__a1b2c3/agent/trajectory.json") + "#a3c1e9d2-5b7f-4e08-9c61-0f2d8b4e7a15": "runaway",
		// A Claude Code session file, JSON Lines read whole as one run.
		filepath.Join(dir, "claude/projects/-home-dev-gateway/9b2e7a41-3c8d-4f0e-a6b5-2d1c9e8f7a30.jsonl") + "#9b2e7a41-3c8d-4f0e-a6b5-2d1c9e8f7a30": "runaway",
		// Gemini CLI's sessions, as JSON Lines and as one JSON object.
		filepath.Join(dir, "gemini/tmp/3f9a7c0e/chats/session-2026-03-14T09-12-7c1f3a52.jsonl") + "#7c1f3a52-0d4e-4b6a-9e21-5a8f4c2d9b10": "runaway",
		filepath.Join(dir, "gemini/tmp/9d0c1b2a/chats/session-2025-11-03T10-41-b2e47d90.json") + "#b2e47d90-3c18-4f5a-8d6b-0e9c1a7f2d34":  "healthy",
		// A Qwen Code session, whose records look like Claude Code's.
		filepath.Join(dir, "qwen/projects/-srv-shop/chats/5b0d7e21-6c4f-4a9e-b2d3-8f1e0a9c7d64.jsonl") + "#5b0d7e21-6c4f-4a9e-b2d3-8f1e0a9c7d64": "runaway",
		filepath.Join(dir, "continue/sessions/6f2a9c1e-3d4b-4e8f-a1c2-7b9d0e5f3a18.json") + "#6f2a9c1e-3d4b-4e8f-a1c2-7b9d0e5f3a18":              "runaway",
		filepath.Join(dir, "copilot/session-state/3d9f2c71-8a4e-4b0d-9c15-6e2a7f8b1d40/events.jsonl") + "#3d9f2c71-8a4e-4b0d-9c15-6e2a7f8b1d40":  "runaway",
		filepath.Join(dir, "dspy-runs/order-lookup.json"): "runaway",
		// An Inspect AI .eval archive, a run per sample member.
		filepath.Join(dir, "inspect/logs/2025-10-01T12-00-00+00-00_bash-repeat_Hx2k.eval") + "#0_epoch_1": "runaway",
		// Cursor's stream, which opens as Claude Code's does.
		filepath.Join(dir, "cursor-runs/fix-cart.log") + "#7c1e4b2a-9d3f-4e8a-b6c0-2f5a8d1e9b47": "runaway",
		// Text transcripts without an extension (what follows the dot of
		// three.js-201 is none), found by their opening; the LICENSE
		// beside them is passed over.
		filepath.Join(dir, "rovo/trajs/acme__widgets-202"):    "runaway",
		filepath.Join(dir, "rovo/trajs/mrdoob__three.js-201"): "healthy",
		// A hidden Aider history is read; the README beside it is not.
		filepath.Join(dir, "billing-app/.aider.chat.history.md") + "#2025-11-04 09:12:40": "runaway",
	}
	got := verdicts(t, dir)
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s: %q, want %s", id, got[id], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d runs, want %d: %v", len(got), len(want), got)
	}
	// The bundled samples: every loop runaway, every other run healthy.
	for id, v := range verdicts(t, trajectoriesDir) {
		loop := strings.Contains(id, "loop") || strings.Contains(id, "storm") || strings.Contains(id, "traj-export") ||
			strings.HasSuffix(id, ":1#acme__widgets-101") || strings.HasSuffix(id, ":1#moment-lite__moment-lite-58") ||
			strings.HasSuffix(id, ":2#shop-unit-tests") || strings.HasSuffix(id, "[0]#task_id=7,trial=0") || strings.HasSuffix(id, ":1#sess-0193") ||
			strings.HasSuffix(id, "tau2-results.json[0]#3f0c1d2e-0a41-4c55-9b1e-6d2f7a9c1e01") || strings.HasSuffix(id, "agentbench-runs.ndjson:1#index=17") ||
			strings.HasSuffix(id, "fix-dates-samples.json#dates-1_epoch_1") || strings.HasSuffix(id, "benchmark-messages.ndjson:1") || strings.HasSuffix(id, "chat-form-runs.json[0]#mathkit__mathkit-12") ||
			strings.HasSuffix(id, "crew-and-react-agent.ipynb#cell-2#Senior Market Researcher")
		if want := map[bool]string{true: "runaway", false: "healthy"}[loop]; v != want {
			t.Errorf("sample %s: %s, want %s", id, v, want)
		}
	}
}

// explain, replay and fixture work on a run read through an adapter, and
// the fixture written is runaway's own JSON Lines, which verify passes.
func TestAdaptedRunExplainReplayFixture(t *testing.T) {
	dir := trajectoryDir(t)
	run := filepath.Join(dir, "openhands/eval/output.jsonl") + ":1#acme__widgets-101"

	code, out, stderr := runCLI(t, "", "explain", run, dir)
	if code != exitClean || !strings.Contains(out, "Verdict:   runaway") || !strings.Contains(out, "EDIT_REJECTED") {
		t.Fatalf("explain: exit %d\n%s\n%s", code, out, stderr)
	}
	// The other runs' documents are converted and their steps passed over:
	// they are not documents without a step.
	if strings.Contains(stderr, "rejected") {
		t.Errorf("explain of one run rejects the others' documents:\n%s", stderr)
	}
	code, out, stderr = runCLI(t, "", "explain", run, "--format", "md", dir)
	if code != exitClean || !strings.Contains(out, "acme__widgets-101") {
		t.Errorf("explain --format md: exit %d: %s", code, stderr)
	}

	code, out, stderr = runCLI(t, "", "replay", dir)
	if code != exitClean || !strings.Contains(out, "dedup") {
		t.Errorf("replay: exit %d\n%s\n%s", code, out, stderr)
	}

	fixtures := t.TempDir()
	code, _, stderr = runCLI(t, "", "fixture", run, dir, "--out", fixtures)
	if code != exitClean {
		t.Fatalf("fixture: exit %d: %s", code, stderr)
	}
	steps, err := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	if err != nil || len(steps) != 1 {
		t.Fatalf("fixture files %v %v", steps, err)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, steps[0]))), "\n")
	if len(lines) != 7 {
		t.Errorf("%d step lines, want the run's 7", len(lines))
	}
	for _, l := range lines {
		var s struct {
			RunID *string `json:"run_id"`
			Step  *int64  `json:"step"`
		}
		if err := json.Unmarshal([]byte(l), &s); err != nil || s.RunID == nil || s.Step == nil {
			t.Fatalf("not a runaway step: %s (%v)", l, err)
		}
	}
	want := readFile(t, strings.TrimSuffix(steps[0], ".jsonl")+".want.json")
	if !strings.Contains(string(want), `"verdict": "runaway"`) {
		t.Errorf("want file:\n%s", want)
	}
	code, out, stderr = runCLI(t, "", "verify", fixtures)
	if code != exitClean {
		t.Errorf("verify: exit %d\n%s\n%s", code, out, stderr)
	}
}

// explain and fixture work on a plain-text transcript: the onset is the
// first failed install, counted in the transcript's sections, and the
// fixture holds the run's steps as runaway's own lines.
func TestTextTranscriptExplainFixture(t *testing.T) {
	dir := trajectoryDir(t)
	run := filepath.Join(dir, "rovo/trajs/acme__widgets-202")
	code, out, stderr := runCLI(t, "", "explain", run, filepath.Join(dir, "rovo"))
	if code != exitClean || !strings.Contains(out, "Verdict:   runaway, root cause error-storm") || !strings.Contains(out, "Onset:     step 7 ") || !strings.Contains(out, "NPM_ENOTEMPTY") {
		t.Fatalf("explain: exit %d\n%s\n%s", code, out, stderr)
	}
	fixtures := t.TempDir()
	if code, _, stderr = runCLI(t, "", "fixture", run, run, "--out", fixtures); code != exitClean {
		t.Fatalf("fixture: exit %d: %s", code, stderr)
	}
	steps, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	if len(steps) != 1 || len(strings.Split(strings.TrimSpace(string(readFile(t, steps[0]))), "\n")) != 11 {
		t.Errorf("fixture %v: want one file of the run's 11 steps", steps)
	}
	if code, out, stderr = runCLI(t, "", "verify", fixtures); code != exitClean {
		t.Errorf("verify: exit %d\n%s\n%s", code, out, stderr)
	}
	// A text file that is no transcript is rejected saying what was tried:
	// JSON, and each text format with why it refused.
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("AGENT: looked at the loop\nTOOL CALL (bash)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "scan", notes)
	if code != exitFailure || !strings.Contains(stderr, "notes.txt:1: rejected: not JSON") || !strings.Contains(stderr, "rovo-dev: does not open with") ||
		!strings.Contains(stderr, "autogen: does not open with AG2's runtime log banner") {
		t.Errorf("a text file: exit %d: %s", code, stderr)
	}
	// A format that writes both JSON and text (AutoGen), forced, reads each
	// as what it is.
	for _, f := range []string{"agentchat-rate-storm.json", "ag2-runtime-storm.log"} {
		code, out, stderr := runCLI(t, "", "scan", "--input-format", "autogen", "--format", "ndjson", filepath.Join(trajectoriesDir, "autogen", f))
		if code != exitClean || !strings.Contains(out, `"verdict":"runaway"`) {
			t.Errorf("--input-format autogen %s: exit %d: %s%s", f, code, out, stderr)
		}
	}
	// Forced on a JSON document, the text format says why it refuses it.
	code, _, stderr = runCLI(t, "", "scan", "--input-format", "rovo-dev", filepath.Join(trajectoriesDir, "swe-agent", "healthy-fix.traj"))
	if code != exitFailure || !strings.Contains(stderr, "not a rovo-dev document") {
		t.Errorf("forced on a JSON file: exit %d: %s", code, stderr)
	}
}

// A directory holding only documents runaway cannot read is not a clean
// scan of nothing: every reject is reported with every adapter's reason,
// and the scan exits 3 without a report.
func TestScanOfOnlyUnknownDocumentsFails(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"notes.json":    "{\n  \"title\": \"meeting notes\",\n  \"items\": [1, 2]\n}\n",
		"events.jsonl":  "{\"event\": \"login\", \"user\": 1}\n{\"event\": \"logout\", \"user\": 1}\n",
		"config.json":   "[1, 2, 3]\n",
		"one-line.json": "{\"model\": \"x\", \"temperature\": 0.2}",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI(t, "", "scan", dir)
	if code != exitFailure {
		t.Fatalf("exit %d, want 3; stdout %q stderr %q", code, out, stderr)
	}
	if strings.Contains(out, "No runaway or suspicious runs") || out != "" {
		t.Errorf("a report was written: %q", out)
	}
	for _, loc := range []string{"notes.json:1: rejected", "events.jsonl:1: rejected", "events.jsonl:2: rejected", "config.json:1: rejected", "one-line.json:1: rejected"} {
		if !strings.Contains(stderr, loc) {
			t.Errorf("stderr does not locate %s:\n%s", loc, stderr)
		}
	}
	for _, name := range []string{"swe-agent: ", "mini-swe-agent: ", "openhands: ", "openai-messages: "} {
		if !strings.Contains(stderr, name) {
			t.Errorf("stderr does not give %s's reason", name)
		}
	}
	// events.jsonl's first line decided how it is read: as steps, so its
	// second line lacks a run_id.
	if !strings.Contains(stderr, "nothing analysed: all 5 input lines and documents were rejected (unknown_format 4, missing_field 1)") {
		t.Errorf("stderr does not say nothing was analysed:\n%s", stderr)
	}

	// One readable run among them, as in a results folder (a preds.json
	// beside the trajectories): the scan reports the run, names each file
	// it passed over with why and counts their lines as rejected; the
	// report is whole, not partial. --strict still fails on those rejects.
	b := readFile(t, filepath.Join(trajectoriesDir, "swe-agent", "healthy-fix.traj"))
	if err := os.WriteFile(filepath.Join(dir, "fix.traj"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "", "scan", dir)
	if code != exitClean || !strings.Contains(out, "Runs:        1 scanned") || strings.Contains(out, "PARTIAL") {
		t.Errorf("with a readable run: exit %d, stdout %q: %s", code, out, stderr)
	}
	if !strings.Contains(out, "5 rejected (unknown_format 4, missing_field 1)") || !strings.Contains(out, "4 skipped, each named on stderr") {
		t.Errorf("the report does not count the files passed over:\n%s", out)
	}
	for _, name := range []string{"notes.json", "events.jsonl", "config.json", "one-line.json"} {
		if !strings.Contains(stderr, name+": JSON that is neither runaway's steps nor a document any adapter reads") {
			t.Errorf("stderr does not name %s as passed over with why:\n%s", name, stderr)
		}
	}
	if code, _, stderr = runCLI(t, "", "scan", "--strict", dir); code != exitFailure {
		t.Errorf("--strict with the files passed over: exit %d: %s", code, stderr)
	}
	// The log of an instance whose runtime failed before the agent's first
	// turn holds no action: passed over as well, named with why.
	crashed := `{"instance_id": "a__b-1", "history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "fix it"}}, {"id": 1, "source": "user", "action": "recall", "args": {}}]}`
	if err := os.WriteFile(filepath.Join(dir, "crashed.json"), []byte(crashed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "", "scan", dir)
	if code != exitClean || !strings.Contains(out, "Runs:        1 scanned") || !strings.Contains(stderr, "crashed.json: the log of a run that made no action (openhands: ") {
		t.Errorf("with a run that made no action: exit %d, stdout %q: %s", code, out, stderr)
	}
	if err := os.Remove(filepath.Join(dir, "crashed.json")); err != nil {
		t.Fatal(err)
	}
	// Named on the command line, such a file was asked for: it stops the
	// scan; --keep-going reports the rest as partial.
	notes := filepath.Join(dir, "notes.json")
	code, out, stderr = runCLI(t, "", "scan", notes, filepath.Join(dir, "fix.traj"))
	if code != exitFailure || out != "" || !strings.Contains(stderr, "1 input(s) gave no step; no report written") || !strings.Contains(stderr, "notes.json: no step read") {
		t.Errorf("a named file that gives nothing: exit %d, stdout %q: %s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "", "scan", "--keep-going", notes, filepath.Join(dir, "fix.traj"))
	if code != exitClean || !strings.Contains(out, "PARTIAL REPORT: 1 source could not be read") ||
		!strings.Contains(out, "notes.json: no step read: 1 line(s) rejected; line 1:") || !strings.Contains(out, "Runs:        1 scanned") {
		t.Errorf("--keep-going: exit %d:\n%s", code, out)
	}
	// A log cut short in the folder is no log passed over: it stops the scan.
	if err := os.WriteFile(filepath.Join(dir, "cut.traj"), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr = runCLI(t, "", "scan", dir); code != exitFailure || out != "" || !strings.Contains(stderr, "cut.traj: no step read") {
		t.Errorf("a trajectory cut short: exit %d, stdout %q: %s", code, out, stderr)
	}
}

// A directory whose files runaway does not read is not a clean scan of
// nothing: they are named with why, and a .log file of JSON Lines is read.
// A file read to its end whose lines hold no step of an agent, nor any
// line rejected (a Claude Code file of bookkeeping records alone: a
// summary, a file-history snapshot), is no clean scan of nothing: the scan
// stops and says so, and writes no report.
func TestScanOfNoStepsFails(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "d41c.jsonl")
	lines := `{"type":"summary","summary":"Fix the login form","leafUuid":"9a1f"}` + "\n" +
		`{"type":"file-history-snapshot","messageId":"m1","snapshot":{"trackedFileBackups":{}},"isSnapshotUpdate":false}` + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "scan", log)
	if code != exitFailure || out != "" {
		t.Fatalf("exit %d, stdout %q; want 3 and no report", code, out)
	}
	if !strings.Contains(stderr, "nothing analysed: 2 line(s) read in 1 file(s), none of them a step of an agent") {
		t.Errorf("stderr does not say nothing was analysed:\n%s", stderr)
	}
}

// A directory that holds nothing a walk reads (an empty one, or documents
// passed over without a word) is no clean scan of nothing: exit 3, saying
// what a walk reads and that a file named is read whatever its name, and
// no report.
func TestScanOfADirectoryWithNothingToReadFails(t *testing.T) {
	empty, docs := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "README.md"), []byte("# Notes\n\nWe ran the crew twice; the logs are elsewhere.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{empty, docs} {
		code, out, stderr := runCLI(t, "", "scan", dir)
		if code != exitFailure || out != "" || !strings.Contains(stderr, "no file to read (a directory walk reads") || !strings.Contains(stderr, "name a file to read it") {
			t.Errorf("%s: exit %d, want 3; stdout %q stderr %q", dir, code, out, stderr)
		}
	}
	// An empty file named is read, and warned about: it is an input.
	path := filepath.Join(empty, "today.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "scan", path); code != exitClean || !strings.Contains(stderr, "1 empty input file") {
		t.Errorf("an empty file: exit %d, stderr %q", code, stderr)
	}
}

// A crew's console output kept as Markdown is read by a directory walk,
// as a plain-text transcript is; the README beside it is passed over.
func TestScanWalkReadsAConsoleLogKeptAsMarkdown(t *testing.T) {
	dir := t.TempDir()
	log := readFile(t, filepath.Join("..", "..", "fixtures", "trajectories", "react-log", "crewai-search-loop.log"))
	if err := os.WriteFile(filepath.Join(dir, "run-2024-11-14.md"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Runs\n\nConsole output of each run.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "scan", dir)
	if code != exitClean || !strings.Contains(out, "Input:       1 file,") || !strings.Contains(out, "run-2024-11-14.md") || strings.Contains(stderr, "README") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
}

func TestScanNamesTheFilesItSkips(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"export.avro": "Obj\x01",
		"app.log":     "2026-12-01 12:00:00 INFO started\n",
		"chatdev.log": "[2025-29-03 23:27:55 INFO] System: **[chatting]**\n", // a '[' that opens no JSON array
		"notes.txt":   "a loop at step 4\n",
		"train.ipynb": `{"nbformat": 4, "metadata": {}, "cells": [{"cell_type": "code", "source": ["fit()"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ["loss 0.21\n"]}]}]}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI(t, "", "scan", dir)
	if code != exitFailure || out != "" || !strings.Contains(stderr, "no file to read (") || !strings.Contains(stderr, "no report written") {
		t.Fatalf("exit %d, want 3; stdout %q stderr %q", code, out, stderr)
	}
	for _, want := range []string{"export.avro: a .avro file", "app.log: a .log file that does not begin with a JSON value", "chatdev.log: a .log file that does not begin with a JSON value", "notes.txt: a .txt file", "train.ipynb: a notebook none of whose cells printed an agent's console log"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	// A .log of runaway's steps is read; the others are counted and listed.
	steps := readFile(t, filepath.Join("..", "..", "fixtures", "detectors", "RA101.positive.jsonl"))
	if err := os.WriteFile(filepath.Join(dir, "agent.log"), steps, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "", "scan", "--format", "json", dir)
	if code != exitClean || !strings.Contains(stderr, "skipped 5 file(s)") {
		t.Fatalf("with agent.log: exit %d: %s", code, stderr)
	}
	var doc struct {
		Summary struct {
			Runaway int `json:"runaway"`
			Input   struct {
				Files        int      `json:"files"`
				SkippedFiles []string `json:"skipped_files"`
			} `json:"input"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary.Input.Files != 1 || len(doc.Summary.Input.SkippedFiles) != 5 || doc.Summary.Runaway != 1 {
		t.Errorf("summary: %+v", doc.Summary)
	}
	// Logs in a hidden directory are not read, but named with the others,
	// and the table's summary sends the reader to that list.
	if err := os.MkdirAll(filepath.Join(dir, ".sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".sessions", "s.jsonl"), steps, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "", "scan", dir)
	if code != exitClean || !strings.Contains(stderr, ".sessions: a hidden directory (a leading '.') holding 1 file(s) runaway reads; name it to read them") ||
		!strings.Contains(out, "1 file (6 skipped, each named on stderr)") {
		t.Errorf("a hidden directory of logs: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
}

// A conversation written a message a line is one run, whichever format
// its messages are: the first line (a user's plain words) looks like
// OpenAI's, the whole file is Anthropic's, and is read as such; named
// with --input-format, the format is held to.
func TestMessagePerLineTranscripts(t *testing.T) {
	lines := []string{`{"role": "user", "content": "Find flights to Oslo."}`}
	for i := 0; i < 5; i++ {
		lines = append(lines,
			fmt.Sprintf(`{"role": "assistant", "content": [{"type": "tool_use", "id": "tu_%d", "name": "search_flights", "input": {"to": "OSL"}}]}`, i),
			fmt.Sprintf(`{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu_%d", "content": "Error: upstream timeout", "is_error": true}]}`, i))
	}
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "scan", "--format", "ndjson", path)
	if code != exitClean || !strings.Contains(out, `"verdict":"runaway"`) || !strings.Contains(out, `"steps":5,`) {
		t.Errorf("scan: exit %d\n%s%s", code, out, stderr)
	}
	if got := filesByFormat(t, path); got["anthropic-messages"] != 1 || len(got) != 1 {
		t.Errorf("read as %v, want anthropic-messages", got)
	}
	code, _, stderr = runCLI(t, "", "scan", "--input-format", "openai-messages", path)
	if code != exitFailure || !strings.Contains(stderr, "not a openai-messages document") {
		t.Errorf("forced openai-messages: exit %d: %s", code, stderr)
	}
}
