package ingest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/ingest/adapters"
)

// trajectories is the directory of the sample trajectories.
var trajectories = filepath.Join("..", "fixtures", "trajectories")

func sample(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(trajectories, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// runSteps counts the rows of each run.
func runSteps(rows []map[string]any) map[string]int {
	out := map[string]int{}
	for _, r := range rows {
		out[r["run_id"].(string)]++
	}
	return out
}

func runIDs(rows []map[string]any) []string {
	var ids []string
	for id := range runSteps(rows) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// A pretty-printed document is read whole, through the adapter that
// recognises it: one run named after the source, its steps located at the
// document's first line.
func TestSniffPrettyPrintedFileIsOneDocument(t *testing.T) {
	data := sample(t, "swe-agent/healthy-fix.traj")
	res := mustRead(t, []Source{memSource("runs/healthy-fix.traj", data)}, Options{})
	if len(res.rejects) != 0 {
		t.Fatalf("rejects: %v", res.rejects)
	}
	if got := runSteps(res.rows); len(got) != 1 || got["runs/healthy-fix.traj"] != 11 {
		t.Errorf("runs %v, want one run of 11 steps named after the file", got)
	}
	if res.stats.Steps != 11 || res.stats.Lines != int64(strings.Count(string(data), "\n")) || res.stats.Files != 1 {
		t.Errorf("stats %+v", res.stats)
	}
	for _, r := range res.rows {
		if num(r["src_line"]) != "1" {
			t.Fatalf("src_line %v, want the document's first line", r["src_line"])
		}
	}
}

// A document written by hand or by a logger of its own opens with some of
// its members on the first line and lists its elements one a line after
// it, indented or not: it is one document all the same, not JSON Lines
// whose every line is broken. A JSON Lines file whose first line is broken
// still goes on with its other lines.
func TestSniffDocumentWithElementsOneALine(t *testing.T) {
	msgs := []string{
		`{"role": "user", "content": "How many albums came out between 2000 and 2009?"}`,
		`{"role": "assistant", "content": "Let me look that up."}`,
		`{"role": "user", "content": "Thanks."}`,
	}
	for name, data := range map[string]string{
		"flush.json":    "{\"id\": \"q-7\", \"messages\": [\n" + strings.Join(msgs, ",\n") + "\n]}\n",
		"indented.json": "{\"id\": \"q-7\", \"messages\": [\n  " + strings.Join(msgs, ",\n  ") + "\n]}\n",
	} {
		res := mustRead(t, []Source{memSource(name, []byte(data))}, Options{})
		if len(res.rejects) != 0 || len(runSteps(res.rows)) != 1 {
			t.Errorf("%s: runs %v rejects %v, want one run read whole", name, runSteps(res.rows), res.rejects)
		}
	}
	broken := `{"run_id": "r", "step": 0, "state": "PL` + "\n" + `{"run_id": "r", "step": 1, "state": "STOP"}` + "\n"
	res := mustRead(t, []Source{memSource("steps.jsonl", []byte(broken))}, Options{})
	if got := runSteps(res.rows); got["r"] != 1 || len(res.rejects) != 1 {
		t.Errorf("broken first line: runs %v rejects %v, want the second line read and the first rejected", got, res.rejects)
	}
}

// A file of one line is one document, read whole, with or without its
// line break: its run has no :line (a file written compactly by json.dump
// is named like the same file pretty-printed).
func TestSniffOneLineFileIsOneDocument(t *testing.T) {
	line := sampleLine(t, "openai-messages/conversations.ndjson", 2)
	for data, want := range map[string]string{
		string(line):        "c.json#sess-0194",
		string(line) + "\n": "c.json#sess-0194",
	} {
		res := mustRead(t, []Source{memSource("c.json", []byte(data))}, Options{})
		if got := runSteps(res.rows); len(got) != 1 || got[want] != 6 || len(res.rejects) != 0 {
			t.Errorf("runs %v rejects %v, want %s of 6 steps", got, res.rejects, want)
		}
	}
	// A single runaway step on one line stays a step.
	res := mustRead(t, []Source{memSource("s.jsonl", []byte(`{"run_id":"r","step":0}`))}, Options{})
	if got := runIDs(res.rows); len(got) != 1 || got[0] != "r" {
		t.Errorf("one step line: runs %v", got)
	}
}

func sampleLine(t testing.TB, rel string, n int) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(sample(t, rel)), "\n"), "\n")
	return []byte(lines[n-1])
}

// A JSON Lines file whose first line is a document of an adapter: every
// line is one, a run per line named source:line#id, located at its line.
func TestSniffJSONLinesOfDocuments(t *testing.T) {
	data := sample(t, "openhands/output.ndjson")
	res := mustRead(t, []Source{memSource("eval/output.jsonl", data)}, Options{})
	want := []string{"eval/output.jsonl:1#acme__widgets-101", "eval/output.jsonl:2#acme__widgets-117"}
	if got := runIDs(res.rows); fmt.Sprint(got) != fmt.Sprint(want) || len(res.rejects) != 0 {
		t.Fatalf("runs %v rejects %v", got, res.rejects)
	}
	for _, r := range res.rows {
		if r["run_id"] == want[1] && num(r["src_line"]) != "2" {
			t.Fatalf("a step of line 2 at line %v", r["src_line"])
		}
	}
	if res.stats.Lines != 2 || res.stats.Steps != 15 {
		t.Errorf("stats %+v", res.stats)
	}
}

// A JSON array of runaway steps is read as steps.
func TestSniffArrayOfSteps(t *testing.T) {
	data := "[\n  {\"run_id\": \"r\", \"step\": 0, \"state\": \"PLAN\"},\n  {\"run_id\": \"r\", \"step\": 1, \"state\": \"STOP\"},\n  {\"run_id\": \"r\", \"step\": \"two\"}\n]\n"
	res := mustRead(t, []Source{memSource("steps.json", []byte(data))}, Options{})
	if got := runSteps(res.rows); got["r"] != 2 {
		t.Errorf("runs %v", got)
	}
	if len(res.rejects) != 1 || !strings.Contains(res.rejects[0].Reason, "element 2") {
		t.Errorf("rejects %v, want element 2's", res.rejects)
	}
}

// A JSON Lines file whose first line is broken is still read as steps:
// the broken line is rejected, the others are steps.
func TestSniffBrokenFirstLineIsStillSteps(t *testing.T) {
	data := "{\"run_id\":\"a\",\"step\":0,\"state\":\n{\"run_id\":\"a\",\"step\":1}\n{\"run_id\":\"a\",\"step\":2}\n"
	res := mustRead(t, []Source{memSource("a.jsonl", []byte(data))}, Options{})
	if got := runSteps(res.rows); got["a"] != 2 {
		t.Errorf("runs %v", got)
	}
	if len(res.rejects) != 1 || res.rejects[0].Line != 1 || res.stats.RejectsByKind[KindMalformedJSON] != 1 {
		t.Errorf("rejects %v %v", res.rejects, res.stats.RejectsByKind)
	}
}

// --input-format forces one reading on every source.
func TestInputFormatForcesTheReading(t *testing.T) {
	traj := sample(t, "swe-agent/healthy-fix.traj")
	mini := sample(t, "mini-swe-agent/healthy-fix.traj.json")

	res := mustRead(t, []Source{memSource("a.traj", traj)}, Options{InputFormat: FormatSteps})
	if len(res.rows) != 0 || res.stats.Rejected == 0 {
		t.Errorf("jsonl on a trajectory: %d rows, %d rejected; want every line rejected", len(res.rows), res.stats.Rejected)
	}

	res = mustRead(t, []Source{memSource("a.traj", traj)}, Options{InputFormat: "swe-agent"})
	if runSteps(res.rows)["a.traj"] != 11 {
		t.Errorf("swe-agent forced: %v", runSteps(res.rows))
	}

	res = mustRead(t, []Source{memSource("m.json", mini)}, Options{InputFormat: "openai-messages"})
	if len(res.rows) != 0 || len(res.rejects) != 1 || res.stats.RejectsByKind[KindUnknownFormat] != 1 ||
		res.rejects[0].Reason != "not a openai-messages document: a document of the mini-swe-agent format, not a conversation" {
		t.Errorf("openai-messages forced on mini-swe-agent: %d rows, rejects %v", len(res.rows), res.rejects)
	}
	if res.rejected != string(mini)+"\n" && res.rejected != string(mini) {
		t.Errorf("the refused document is not kept verbatim: %d bytes of %d", len(res.rejected), len(mini))
	}

	// A JSON Lines file read line by line through the forced adapter.
	res = mustRead(t, []Source{memSource("c.jsonl", sample(t, "openai-messages/conversations.ndjson"))}, Options{InputFormat: "openai-messages"})
	if got := runIDs(res.rows); len(got) != 2 || got[0] != "c.jsonl:1#sess-0193" {
		t.Errorf("forced on JSON Lines: %v", got)
	}

	if res := read(t, nil, Options{InputFormat: "nope"}); res.err == nil {
		t.Error("an unknown input format is accepted")
	}
	if err := checkInputFormat("nope"); err == nil || !strings.Contains(err.Error(), "openai-messages") {
		t.Errorf("checkInputFormat: %v", err)
	}
}

// A document over MaxDocBytes is one reject of kind document_too_big, kept
// verbatim.
func TestDocumentOverMaxDocBytesIsRejectedVerbatim(t *testing.T) {
	data := sample(t, "swe-agent/healthy-fix.traj")
	// Read blocks of many sizes: some end with a line break inside the
	// document, which must stay.
	for block := 256; block < 320; block++ {
		res := mustRead(t, []Source{memSource("big.traj", data)}, Options{MaxDocBytes: 1024, blockBytes: block})
		if len(res.rows) != 0 || len(res.rejects) != 1 || res.stats.RejectsByKind[KindDocumentTooBig] != 1 {
			t.Fatalf("%d rows, rejects %v, kinds %v", len(res.rows), res.rejects, res.stats.RejectsByKind)
		}
		if r := res.rejects[0]; r.File != "big.traj" || r.Line != 1 || !strings.Contains(r.Reason, "document exceeds 1024 bytes") {
			t.Errorf("reject %+v", r)
		}
		if res.rejected != string(data) {
			t.Fatalf("blocks of %d: rejects hold %d bytes, want the %d of the document and a line break", block, len(res.rejected), len(data))
		}
	}
}

// A document no adapter recognises is a reject of kind unknown_format that
// names every adapter and why it refused; a JSON Lines file of such
// documents is rejected line by line.
func TestUnknownDocumentIsRejectedWithEveryAdaptersReason(t *testing.T) {
	doc := "{\n  \"title\": \"meeting notes\",\n  \"items\": [1, 2]\n}\n"
	lines := "{\"event\": \"login\", \"user\": 1}\n{\"event\": \"logout\", \"user\": 1}\n"
	res := mustRead(t, []Source{memSource("notes.json", []byte(doc)), memSource("events.jsonl", []byte(lines))}, Options{})
	if len(res.rows) != 0 || len(res.rejects) != 3 || res.stats.RejectsByKind[KindUnknownFormat] < 2 {
		t.Fatalf("%d rows, rejects %v, kinds %v", len(res.rows), res.rejects, res.stats.RejectsByKind)
	}
	for _, r := range res.rejects[:2] {
		for _, name := range adapters.Names() {
			if !strings.Contains(r.Reason, name+": ") {
				t.Errorf("%s:%d: reason %q does not say why %s refused", r.File, r.Line, r.Reason, name)
			}
		}
	}
	if r := res.rejects[1]; r.File != "events.jsonl" || r.Line != 1 {
		t.Errorf("first line's reject at %s:%d", r.File, r.Line)
	}
	// The lines after it are read as steps; each says why it is not one,
	// pointing back at the line no adapter recognised.
	if r := res.rejects[2]; r.Line != 2 || r.Reason != "not a runaway step (no run_id); no adapter recognised line 1 of this file either, so its lines are read as runaway steps" {
		t.Errorf("second line's reject %+v", r)
	}
	if want := doc + lines; res.rejected != want {
		t.Errorf("rejects %q, want %q", res.rejected, want)
	}
}

// An OpenHands session's events/ directory is one source, read as one
// JSON array of its files in number order: one run.
func TestEventDirectoryIsOneSource(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "abc", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(trajectories, "openhands", "session-5f0c2a", "events")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := readEventsDir(t, dir)
	if got := runSteps(res.rows); len(got) != 1 || got[dir] != 7 || len(res.rejects) != 0 {
		t.Errorf("runs %v rejects %v", got, res.rejects)
	}
	// Ordered by number, not by name: 10.json comes after 9.json.
	var steps []string
	for _, r := range res.rows {
		steps = append(steps, num(r["step"]))
	}
	if fmt.Sprint(steps) != "[5 7 9 11 13 15 17]" {
		t.Errorf("steps %v", steps)
	}
}

// A Claude Code session file is JSON Lines whose lines together are one
// run (a call on one line, its result on another): it is read whole, as
// one document, with --input-format auto and forced alike, whatever the
// size of the blocks it is read in; its runs (the session's, a subagent's)
// are located at its first line. Conversations a line stay a run a line.
func TestTranscriptIsReadWhole(t *testing.T) {
	data := sample(t, "anthropic-messages/claude-code-session.ndjson")
	const name = "projects/-home-dev-invoice-api/4f1c2b9e.jsonl"
	main, side := name+"#4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44", name+"#4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44#sidechain-1"
	for _, opts := range []Options{{}, {InputFormat: "anthropic-messages"}, {blockBytes: 200}, {blockBytes: 333, InputFormat: "anthropic-messages"}} {
		res := mustRead(t, []Source{memSource(name, data)}, opts)
		if got := runSteps(res.rows); len(got) != 2 || got[main] != 9 || got[side] != 3 || len(res.rejects) != 0 {
			t.Fatalf("%+v: runs %v rejects %v", opts, got, res.rejects)
		}
		for _, r := range res.rows {
			if num(r["src_line"]) != "1" {
				t.Fatalf("%+v: src_line %v, want the file's first line", opts, r["src_line"])
			}
		}
		if res.stats.Lines != int64(strings.Count(string(data), "\n")) || res.stats.Formats["anthropic-messages"].Steps != 12 {
			t.Errorf("%+v: stats %+v", opts, res.stats)
		}
	}

	res := mustRead(t, []Source{memSource("c.jsonl", sample(t, "anthropic-messages/conversations.ndjson"))}, Options{})
	if got := runIDs(res.rows); fmt.Sprint(got) != "[c.jsonl:1#conv_3Kd8weather c.jsonl:2#conv_9Tr4release]" {
		t.Errorf("conversations a line: %v", got)
	}
}

// A transcript with a broken line (a session killed mid-write) loses that
// line only: it is one reject naming its line, kept verbatim, and the run
// is read from the other lines, as when the line is left out. One over
// --max-doc-bytes is document_too_big, as any document read whole.
func TestTranscriptLosesOnlyItsBrokenLine(t *testing.T) {
	data := sample(t, "anthropic-messages/claude-code-edit-loop.ndjson")
	lines := strings.SplitAfter(string(data), "\n")
	cut := strings.TrimRight(lines[5][:40], "\n")
	broken := strings.Join(lines[:5], "") + cut + "\n" + strings.Join(lines[6:], "")
	res := mustRead(t, []Source{memSource("s.jsonl", []byte(broken))}, Options{})
	without := mustRead(t, []Source{memSource("s.jsonl", []byte(strings.Join(lines[:5], "")+"\n"+strings.Join(lines[6:], "")))}, Options{})
	if len(res.rows) == 0 || len(res.rows) != len(without.rows) || len(res.rejects) != 1 || res.stats.RejectsByKind[KindMalformedJSON] != 1 {
		t.Fatalf("%d rows (%d without the line), rejects %v", len(res.rows), len(without.rows), res.rejects)
	}
	if r := res.rejects[0]; r.Line != 6 || !strings.HasPrefix(r.Reason, "malformed JSON") {
		t.Errorf("reject %+v, want line 6, malformed JSON", r)
	}
	if strings.TrimRight(res.rejected, "\n") != cut {
		t.Errorf("rejected %q, want the cut line verbatim %q", res.rejected, cut)
	}
	res = mustRead(t, []Source{memSource("s.jsonl", data)}, Options{MaxDocBytes: 4096})
	if len(res.rows) != 0 || res.stats.RejectsByKind[KindDocumentTooBig] != 1 {
		t.Errorf("%d rows, rejects %v", len(res.rows), res.stats.RejectsByKind)
	}
}

// A record the format cannot read (valid JSON of an unexpected shape) is
// rejected at its line too, in line order with the cut ones, and the run
// is the other records.
func TestTranscriptRejectsUnreadableRecordsAtTheirLines(t *testing.T) {
	data := sample(t, "anthropic-messages/claude-code-edit-loop.ndjson")
	lines := strings.SplitAfter(string(data), "\n")
	bad := `{"type":"user","sessionId":"s","message":{"role":"user","content":7}}` + "\n"
	cut := strings.TrimRight(lines[7][:30], "\n")
	mixed := strings.Join(lines[:3], "") + bad + strings.Join(lines[3:7], "") + cut + "\n" + strings.Join(lines[8:], "")
	res := mustRead(t, []Source{memSource("s.jsonl", []byte(mixed))}, Options{})
	if len(res.rows) == 0 || len(res.rejects) != 2 {
		t.Fatalf("%d rows, rejects %v", len(res.rows), res.rejects)
	}
	if res.stats.RejectsByKind[KindAdapter] != 1 || res.stats.RejectsByKind[KindMalformedJSON] != 1 {
		t.Errorf("rejects by kind %v", res.stats.RejectsByKind)
	}
	if r := res.rejects[0]; r.Line != 4 || !strings.Contains(r.Reason, `"content" is neither a string nor a list of blocks`) {
		t.Errorf("first reject %+v, want the unreadable record at line 4", r)
	}
	if r := res.rejects[1]; r.Line != 9 || !strings.HasPrefix(r.Reason, "malformed JSON") {
		t.Errorf("second reject %+v, want the cut line at line 9", r)
	}
	if want := strings.TrimRight(bad, "\n") + "\n" + cut + "\n"; res.rejected != want {
		t.Errorf("rejected\n%q\nwant\n%q", res.rejected, want)
	}
}

// A document an adapter recognises that holds nothing an agent did (a
// conversation of the user alone) is a reject of kind no_steps, kept
// verbatim at its line, while the other lines of the file are read: an
// input that yields nothing is never a silent success.
func TestDocumentWithoutAgentStepIsRejected(t *testing.T) {
	lines := `{"id": "a", "messages": [{"role": "user", "content": "hello?"}, {"role": "user", "content": "anyone?"}]}` + "\n" +
		`{"id": "b", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello."}]}` + "\n"
	res := mustRead(t, []Source{memSource("c.jsonl", []byte(lines))}, Options{})
	if got := runIDs(res.rows); len(got) != 1 || got[0] != "c.jsonl:2#b" {
		t.Errorf("runs %v, want the second line's", got)
	}
	if len(res.rejects) != 1 || res.stats.RejectsByKind[KindNoSteps] != 1 || res.rejects[0].Line != 1 ||
		res.rejects[0].Reason != "openai-messages: the document holds no step of an agent (no agent turn, no action)" {
		t.Errorf("rejects %+v, kinds %v", res.rejects, res.stats.RejectsByKind)
	}
	if want, _, _ := strings.Cut(lines, "\n"); strings.TrimSpace(res.rejected) != want {
		t.Errorf("rejected %q", res.rejected)
	}
}

// A Codex session the user began and the agent never acted in (stopped
// while it was still thinking) is the log of a run that made no action: a
// reject of kind no_steps, named, not a file read to nothing in silence. A
// transcript of bookkeeping alone (no prompt) still gives nothing quietly.
// A sample written from the format, not copied.
func TestCodexSessionWithoutAgentStepIsRejected(t *testing.T) {
	prompted := `{"timestamp":"2026-01-05T10:00:00Z","type":"session_meta","payload":{"id":"s-1","cwd":"/w"}}` + "\n" +
		`{"timestamp":"2026-01-05T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the build"}]}}` + "\n" +
		`{"timestamp":"2026-01-05T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"fix the build","images":[]}}` + "\n" +
		`{"timestamp":"2026-01-05T10:00:03Z","type":"event_msg","payload":{"type":"agent_reasoning","text":"Looking at the build."}}` + "\n"
	res := mustRead(t, []Source{memSource("rollout-a.jsonl", []byte(prompted))}, Options{KeepGoing: true})
	if len(res.rejects) != 1 || res.stats.RejectsByKind[KindNoSteps] != 1 ||
		res.rejects[0].Reason != "codex: the document holds no step of an agent (no agent turn, no action)" {
		t.Errorf("rejects %+v, kinds %v, want the session as no_steps", res.rejects, res.stats.RejectsByKind)
	}
	bookkeeping := `{"timestamp":"2026-01-05T10:00:00Z","type":"session_meta","payload":{"id":"s-2","cwd":"/w"}}` + "\n" +
		`{"timestamp":"2026-01-05T10:00:00Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5"}}` + "\n"
	both := []Source{memSource("rollout-a.jsonl", []byte(prompted)), memSource("rollout-b.jsonl", []byte(bookkeeping))}
	res = mustRead(t, both, Options{KeepGoing: true})
	if len(res.rejects) != 1 || res.rejects[0].File != "rollout-a.jsonl" {
		t.Errorf("rejects %+v, want the prompted session's alone", res.rejects)
	}
}

// So is a Claude Code session of the user's prompt alone (the model call
// failed before a word came back), while a file of the session's
// bookkeeping (a summary, a file-history snapshot) or of a slash command
// Claude Code ran itself stays silent.
func TestClaudeCodeSessionWithoutAgentStepIsRejected(t *testing.T) {
	prompted := `{"type":"file-history-snapshot","messageId":"u1","snapshot":{"messageId":"u1","trackedFileBackups":{},"timestamp":"2026-01-05T10:00:00Z"},"isSnapshotUpdate":false}` + "\n" +
		`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s-1","version":"2.1.0","type":"user","message":{"role":"user","content":"fix the build"},"uuid":"u1","timestamp":"2026-01-05T10:00:00Z"}` + "\n"
	bookkeeping := `{"type":"summary","summary":"Build fix","leafUuid":"u9"}` + "\n" +
		`{"type":"file-history-snapshot","messageId":"u9","snapshot":{"messageId":"u9","trackedFileBackups":{},"timestamp":"2026-01-05T10:00:00Z"},"isSnapshotUpdate":false}` + "\n"
	// A slash command Claude Code ran itself asks the model nothing.
	command := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s-3","version":"2.1.0","type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>\\n<command-message>clear</command-message>"},"uuid":"c1","timestamp":"2026-01-05T10:00:00Z"}` + "\n" +
		`{"parentUuid":"c1","isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s-3","version":"2.1.0","type":"user","message":{"role":"user","content":[{"type":"text","text":"<local-command-stdout></local-command-stdout>"}]},"uuid":"c2","timestamp":"2026-01-05T10:00:01Z"}` + "\n"
	both := []Source{memSource("s-1.jsonl", []byte(prompted)), memSource("s-2.jsonl", []byte(bookkeeping)), memSource("s-3.jsonl", []byte(command))}
	res := mustRead(t, both, Options{KeepGoing: true})
	if len(res.rejects) != 1 || res.rejects[0].File != "s-1.jsonl" || res.stats.RejectsByKind[KindNoSteps] != 1 {
		t.Errorf("rejects %+v, kinds %v, want the prompted session's alone as no_steps", res.rejects, res.stats.RejectsByKind)
	}
}

// The V1 software agent SDK names its event files event-<index>-<id>.json
// and keeps a hidden lock file beside them: the directory is still one
// source, its files in index order, the lock passed over.
func TestEventDirectoryOfTheV1SDK(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "conversations", "cd94", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	events := []string{
		`{"kind":"MessageEvent","source":"user","id":"u","llm_message":{"role":"user","content":[{"type":"text","text":"pwd"}]}}`,
		`{"kind":"ActionEvent","source":"agent","id":"a","tool_name":"terminal","tool_call_id":"t","action":{"kind":"TerminalAction","command":"pwd"}}`,
		`{"kind":"ObservationEvent","source":"environment","tool_name":"terminal","action_id":"a","tool_call_id":"t","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"/w"}],"exit_code":0}}`,
	}
	for i, e := range events {
		name := fmt.Sprintf("event-%05d-%c1b2.json", i, 'z'-i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(e), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".eventlog.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res := readEventsDir(t, dir)
	if got := runSteps(res.rows); len(got) != 1 || got[dir] != 1 || len(res.rejects) != 0 {
		t.Errorf("runs %v rejects %v, want one run of one call", got, res.rejects)
	}
}

// A V1 conversation's event files copied into a folder of another name
// (the OpenHands CLI records its test trajectories so, in
// tests/trajectories/<case>/, and exports raw-events/<conversation id>/)
// are still one run; files named by a number alone are a directory like
// any other outside one named events.
func TestEventDirectoryOfV1FilesUnderAnotherName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trajectories", "confirmation_mode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	events := []string{
		`{"kind":"MessageEvent","source":"user","id":"u","llm_message":{"role":"user","content":[{"type":"text","text":"echo hi"}]}}`,
		`{"kind":"ActionEvent","source":"agent","id":"a","tool_name":"terminal","tool_call_id":"t","action":{"kind":"TerminalAction","command":"echo hi"}}`,
		`{"kind":"ObservationEvent","source":"environment","tool_name":"terminal","action_id":"a","tool_call_id":"t","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"hi"}],"exit_code":0}}`,
	}
	for i, e := range events {
		name := fmt.Sprintf("event-%05d-%c1b2.json", i, 'z'-i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(e), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := readEventsDir(t, dir)
	if got := runSteps(res.rows); len(got) != 1 || got[dir] != 1 || len(res.rejects) != 0 {
		t.Errorf("runs %v rejects %v, want one run of one call", got, res.rejects)
	}
	numbered := filepath.Join(t.TempDir(), "results", "batch")
	if err := os.MkdirAll(numbered, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := os.WriteFile(filepath.Join(numbered, fmt.Sprintf("%d.json", i)), []byte(`{"score": 1}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if files, ok := eventDirFiles(numbered); ok {
		t.Errorf("a folder of numbered files not named events read as an event directory: %v", files)
	}
}

// A document written as a JSON string holding it (older LlamaIndex's
// chat store) is read whole and unwrapped, not rejected as text.
func TestDocumentWrittenAsAJSONString(t *testing.T) {
	inner := `{"class_name": "SimpleChatStore", "store": {"u": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c", "content": "none"}]}}`
	encoded, _ := json.Marshal(inner)
	res := mustRead(t, []Source{memSource("chat_store.json", encoded)}, Options{})
	if len(res.rows) != 1 || res.stats.Rejected != 0 {
		t.Fatalf("rows %d rejects %v", len(res.rows), reasons(res.rejects))
	}
}

// readEventsDir walks the directory two levels above dir, an events
// directory, and reads what the walk finds: the events directory alone, as
// one source.
func readEventsDir(t *testing.T, dir string) readResult {
	t.Helper()
	sources, err := ExpandPaths([]string{filepath.Dir(filepath.Dir(dir))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) != 1 || sources[0].Name != dir {
		t.Fatalf("sources %v, want the events directory alone", sources)
	}
	return mustRead(t, sources, Options{})
}

// A conversation exported with a run_id of its own (SWE-Gym's OpenHands
// trajectories: run_id names the configuration, instance_id the task) is
// an adapter's document, not a runaway step, whether the file holds one a
// line or a JSON array of them; a line with a run_id and neither a step
// nor anything an adapter reads is still a step missing its number.
func TestRunIDBesideAConversationIsNotAStep(t *testing.T) {
	conv := func(id string) string {
		return `{"instance_id": "` + id + `", "run_id": "gpt-4o_maxiter_50", "resolved": false, "messages": [` +
			`{"role": "user", "content": "fix the bug"},` +
			`{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "execute_bash", "arguments": "{\"command\": \"pytest\"}"}}]},` +
			`{"role": "tool", "tool_call_id": "c1", "name": "execute_bash", "content": "1 failed"},` +
			`{"role": "assistant", "content": "done"}]}`
	}
	lines := conv("moto-1_0") + "\n" + conv("moto-1_1") + "\n"
	array := "[\n" + conv("monai-2_0") + ",\n" + conv("monai-2_1") + "\n]\n"
	res := mustRead(t, []Source{memSource("train.jsonl", []byte(lines)), memSource("sample.json", []byte(array))}, Options{})
	if len(res.rejects) != 0 {
		t.Fatalf("rejects %v", reasons(res.rejects))
	}
	runs := map[string]bool{}
	for _, r := range res.rows {
		runs[r["run_id"].(string)] = true
	}
	for _, want := range []string{"train.jsonl:1#moto-1_0", "train.jsonl:2#moto-1_1", "sample.json[0]#monai-2_0", "sample.json[1]#monai-2_1"} {
		if !runs[want] {
			t.Errorf("no run %s among %v", want, runs)
		}
	}

	res = read(t, []Source{memSource("steps.jsonl", []byte(`{"run_id": "r1", "state": "ACT"}`+"\n"))}, Options{})
	if len(res.rejects) != 1 || !strings.Contains(res.rejects[0].Reason, "step: missing") {
		t.Errorf("a step without its number: rejects %v", reasons(res.rejects))
	}
}
