package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// OpenHands' evaluation writes llm_completions/<instance>/*.json beside
// output.jsonl, one file per model call: a walk, a file:// walk and an
// object listing pass the directory over once, named with why, without
// reading its files; the run's log is read. Named, the directory is read.
func TestModelCallDirectoriesArePassedOver(t *testing.T) {
	tree := map[string][]byte{
		"out/output.jsonl":                           []byte("x"),
		"out/llm_completions/i-1/gpt-4o-1.0.json":    []byte("x"),
		"out/llm_completions/i-1/gpt-4o-2.0.json":    []byte("x"),
		"out/llm_completions/i-2/gpt-4o-3.0.json":    []byte("x"),
		"out/eval_outputs/i-1/report.json":           []byte("x"),
		"out/eval_outputs/i-1/llm_completions.jsonl": []byte("x"), // a file of that name is no directory
	}
	root := filepath.ToSlash(writeTree(t, tree))
	want := []string{"out/eval_outputs/i-1/llm_completions.jsonl", "out/eval_outputs/i-1/report.json", "out/output.jsonl"}
	for _, arg := range []string{root + "/out", "file://" + root + "/out"} {
		var skipped []string
		names, errs := collect(expand(t, []string{arg}, Filter{Skipped: func(name, why string) { skipped = append(skipped, name+": "+why) }}))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		prefix := strings.TrimSuffix(arg, "out")
		if got := trimAll(names, prefix); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %q, want %q", arg, got, want)
		}
		if got := trimAll(skipped, strings.TrimPrefix(prefix, "file://")); len(got) != 1 ||
			!strings.HasPrefix(got[0], "out/llm_completions") || !strings.Contains(got[0], ": a directory of one file per model call") {
			t.Errorf("%s: skipped %q, want the directory once", arg, got)
		}
	}
	names, errs := collect(expand(t, []string{root + "/out/llm_completions"}, Filter{}))
	if len(errs) > 0 || len(names) != 3 {
		t.Errorf("naming the directory read %q %v, want its 3 files", names, errs)
	}

	f := newFakeS3(t)
	f.bucket("b")
	for k := range tree {
		f.put("b", k, []byte("x"))
	}
	var skipped []string
	names, errs = collect(expand(t, []string{f.url("b/out/")}, Filter{Skipped: func(name, why string) { skipped = append(skipped, name) }}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := trimAll(names, "s3://b/"); !reflect.DeepEqual(got, want) {
		t.Errorf("listing read %q, want %q", got, want)
	}
	if !reflect.DeepEqual(skipped, []string{"s3://b/out/llm_completions/"}) {
		t.Errorf("listing skipped %q, want the directory once", skipped)
	}
}

func TestModelCallDir(t *testing.T) {
	for rel, want := range map[string]string{
		"llm_completions/i/a.json":   "llm_completions/",
		"x/llm_completions/a.json":   "x/llm_completions/",
		"x/llm_completions.json":     "",
		"llm_completions":            "",
		"a/b/c.json":                 "",
		"a/llm_completions/b/c.json": "a/llm_completions/",
	} {
		if got := modelCallDir(rel); got != want {
			t.Errorf("modelCallDir(%q) = %q, want %q", rel, got, want)
		}
	}
}

// Cline's task folder: a walk and a listing read api_conversation_history.json
// and pass ui_messages.json and task_metadata.json over, named with why;
// without the conversation beside them, they are read.
func TestSidecarsArePassedOver(t *testing.T) {
	tree := map[string][]byte{
		"tasks/1770577372307/api_conversation_history.json": []byte("x"),
		"tasks/1770577372307/ui_messages.json":              []byte("x"),
		"tasks/1770577372307/task_metadata.json":            []byte("x"),
		"exports/ui_messages.json":                          []byte("x"),
	}
	want := []string{"exports/ui_messages.json", "tasks/1770577372307/api_conversation_history.json"}
	root := filepath.ToSlash(writeTree(t, tree))
	var skipped []string
	names, errs := collect(expand(t, []string{root}, Filter{Skipped: func(name, why string) {
		skipped = append(skipped, strings.TrimPrefix(filepath.ToSlash(name), root+"/")+": "+why)
	}}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := trimAll(names, root+"/"); !reflect.DeepEqual(got, want) {
		t.Errorf("walk read %q, want %q", got, want)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0], "beside api_conversation_history.json") {
		t.Errorf("walk skipped %q, want the two sidecars named with why", skipped)
	}

	f := newFakeS3(t)
	f.bucket("b")
	for k := range tree {
		f.put("b", k, []byte("x"))
	}
	skipped = nil
	names, errs = collect(expand(t, []string{f.url("b/")}, Filter{Skipped: func(name, why string) { skipped = append(skipped, name) }}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := trimAll(names, "s3://b/"); !reflect.DeepEqual(got, want) {
		t.Errorf("listing read %q, want %q", got, want)
	}
	if len(skipped) != 2 {
		t.Errorf("listing skipped %q, want the two sidecars", skipped)
	}
}

// An OpenHands V1 conversation folder (the SDK's
// conversations/<id>/, the agent server's too): events/ is the run, and
// base_state.json and meta.json beside it are the conversation's own
// state, passed over by a walk and named with why, not read and rejected.
// A conversation folder without an event directory beside them (its
// events/ empty) has no run to read: its state file is read, and refused,
// so that a walk of it does not pass as clean. Samples written from the
// format.
func TestOpenHandsConversationStateIsPassedOver(t *testing.T) {
	event := func(i int, e string) (string, []byte) {
		return fmt.Sprintf("conversations/c1/events/event-%05d-%d1b2c3d4.json", i, i), []byte(e)
	}
	tree := map[string][]byte{
		"conversations/c1/base_state.json": []byte(`{"id":"c1","agent":{"kind":"Agent","llm":{"model":"m"}},"max_iterations":500,"execution_status":"finished"}`),
		"conversations/c1/meta.json":       []byte(`{"id":"c1","title":"t"}`),
		"conversations/c2/base_state.json": []byte(`{"id":"c2","agent":{"kind":"Agent","llm":{"model":"m"}},"max_iterations":500,"execution_status":"idle"}`),
	}
	for i, e := range []string{
		`{"kind":"MessageEvent","source":"user","id":"u","llm_message":{"role":"user","content":[{"type":"text","text":"pwd"}]}}`,
		`{"kind":"ActionEvent","source":"agent","id":"a","thought":[],"tool_name":"terminal","tool_call_id":"t","action":{"kind":"TerminalAction","command":"pwd"}}`,
		`{"kind":"ObservationEvent","source":"environment","tool_name":"terminal","action_id":"a","tool_call_id":"t","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"/w"}],"exit_code":0}}`,
	} {
		name, raw := event(i, e)
		tree[name] = raw
	}
	root := filepath.ToSlash(writeTree(t, tree))
	if err := os.MkdirAll(filepath.Join(root, "conversations", "c2", "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	var skipped []string
	var sources []Source
	for src, err := range expand(t, []string{root}, Filter{Skipped: func(name, why string) {
		skipped = append(skipped, strings.TrimPrefix(filepath.ToSlash(name), root+"/")+": "+why)
	}}) {
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, src)
	}
	var names []string
	for _, s := range sources {
		names = append(names, strings.TrimPrefix(filepath.ToSlash(s.Name), root+"/"))
	}
	if want := []string{"conversations/c1/events", "conversations/c2/base_state.json"}; !reflect.DeepEqual(names, want) {
		t.Errorf("walk read %q, want %q", names, want)
	}
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "conversations/c1/base_state.json: beside events/") ||
		!strings.HasPrefix(skipped[1], "conversations/c1/meta.json: beside events/") {
		t.Errorf("walk skipped %q, want c1's state files named with why", skipped)
	}
	res := mustRead(t, sources, Options{KeepGoing: true})
	if res.stats.Rejected != 1 || res.rejects[0].File != filepath.Join(root, "conversations", "c2", "base_state.json") ||
		res.stats.RejectsByKind[KindUnknownFormat] != 1 || len(res.rows) != 1 {
		t.Errorf("rows %d, %d rejects (%v): want c1's step, and c2's state alone rejected", len(res.rows), len(res.rejects), res.stats.RejectsByKind)
	}
}
