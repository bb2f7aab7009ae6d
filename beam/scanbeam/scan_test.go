package scanbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/synth"
)

// The jobs run with a temporary directory of this test binary's own,
// removed at the end: the Beam SDK leaves a placeholder file there on
// every job whose workers run in this process (runaway-beam's
// runInPrivateTemp says more).
func TestMain(m *testing.M) {
	Register()
	tmp, err := os.MkdirTemp("", "scanbeam-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("TMPDIR", tmp)
	code := ptest.MainRetWithDefault(m, "prism")
	os.RemoveAll(tmp)
	os.Exit(code)
}

// beamJob runs the pipeline over args on prism and returns its output
// directory.
func beamJob(t *testing.T, opts Options, args ...string) string {
	t.Helper()
	sources := sourcesOf(t, args...)
	opts.Output = t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	if err := Scan(context.Background(), s, sources, opts); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	return opts.Output
}

// beamLines runs the pipeline over args and returns its runs.ndjson.
func beamLines(t *testing.T, policy detect.Policy, args ...string) []string {
	t.Helper()
	return readLines(t, filepath.Join(beamJob(t, Options{Policy: policy}, args...), "runs.ndjson"))
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end its last line", path)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// sourcesOf lists args as the launcher does, numbered as the scan numbers
// them.
func sourcesOf(t *testing.T, args ...string) []Source {
	t.Helper()
	seq, err := ingest.ExpandArgs(context.Background(), args, nil, ingest.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var sources []Source
	for src, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, Source{Index: len(sources), Name: src.Name, Found: src.Found})
	}
	return sources
}

// scanLines is what runaway scan --format ndjson writes for args.
func scanLines(t *testing.T, policyFile string, args ...string) []string {
	t.Helper()
	cfg := pipeline.DefaultScanConfig()
	cfg.PolicyFile = policyFile
	cfg.Paths = args
	cfg.Format = "ndjson"
	var stdout, stderr bytes.Buffer
	if _, err := pipeline.Scan(context.Background(), cfg, nil, &stdout, &stderr); err != nil {
		t.Fatalf("scan: %v\n%s", err, stderr.String())
	}
	return strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
}

// The pipeline gives every run of the bundled fixtures (runaway's steps,
// trajectories, traces) the line runaway scan gives it, byte for byte.
func TestFixturesAsScan(t *testing.T) {
	want := scanLines(t, "", "../../fixtures")
	got := beamLines(t, detect.DefaultPolicy(), "../../fixtures")
	compare(t, got, want)
}

// Runs whose steps are spread over several files are grouped and ordered
// as the scan orders them: the files of a generated corpus, cut in four.
func TestRunsAcrossFilesAsScan(t *testing.T) {
	dir := generated(t, synth.Config{Runs: 400, RunawayRate: 0.3, Seed: 7})
	compare(t, beamLines(t, detect.DefaultPolicy(), dir), scanLines(t, "", dir))
}

// The same over a generated corpus of 200 MB: every run's line is the
// scan's.
func TestGeneratedCorpusAsScan(t *testing.T) {
	if testing.Short() {
		t.Skip("200 MB: not with -short")
	}
	dir := generated(t, synth.Config{TargetBytes: 200 << 20, RunawayRate: 0.3, Seed: 11})
	compare(t, beamLines(t, detect.DefaultPolicy(), dir), scanLines(t, "", dir))
}

// generated writes a generated corpus as four files, its lines in order,
// so that runs span files, and returns their directory.
func generated(t *testing.T, cfg synth.Config) string {
	t.Helper()
	var corpus bytes.Buffer
	if _, err := synth.Generate(cfg, &corpus, io.Discard); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := strings.SplitAfter(corpus.String(), "\n")
	for k := range 4 {
		part := strings.Join(lines[k*len(lines)/4:(k+1)*len(lines)/4], "")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.jsonl", k)), []byte(part), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func compare(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d runs, runaway scan %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("run %d differs:\nbeam %.300s\nscan %.300s", i, got[i], want[i])
		}
	}
}

// A run's data problems name the file and line of the step, as the scan
// numbers and names the files, and duplicates are dropped and conflicts
// kept as the scan does, across files: a step logged twice with different
// content in the second file, a step re-shipped in another file, and a
// step whose two versions are in two files.
func TestDataProblemsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r1s0 := `{"run_id":"r1","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"one"}}`
	write("a.jsonl", r1s0+"\n"+
		`{"run_id":"r1","step":1,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"first"}}`+"\n")
	write("b.jsonl", `{"run_id":"r2","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"y"}},"tool_result":{"ok":true,"data":"two"}}`+"\n"+
		`{"run_id":"r2","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"z"}},"tool_result":{"ok":true,"data":"three"}}`+"\n"+
		r1s0+"\n"+
		`{"run_id":"r1","step":1,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"second"}}`+"\n")
	want := scanOutputs(t, []string{dir}, "json")
	if !bytes.Contains(want["ndjson"], []byte("b.jsonl")) {
		t.Fatalf("the scan's report does not name b.jsonl: %s", want["ndjson"])
	}
	out := beamJob(t, Options{Policy: detect.DefaultPolicy()}, dir)
	compare(t, readLines(t, filepath.Join(out, "runs.ndjson")), strings.Split(strings.TrimSuffix(string(want["ndjson"]), "\n"), "\n"))
	sum := readSummary(t, out)
	if sum.Input.DuplicateSteps != 1 || sum.Input.ConflictingSteps != 2 {
		t.Errorf("summary: %d duplicate and %d conflicting steps, want 1 and 2", sum.Input.DuplicateSteps, sum.Input.ConflictingSteps)
	}
	head := readFile(t, filepath.Join(out, "summary.json"))
	if !bytes.HasPrefix(want["json"], bytes.TrimSuffix(head, []byte("\n}\n"))) {
		t.Errorf("summary.json is not the head of the scan's json document:\n%s\nscan:\n%s", head, want["json"])
	}
}

// A policy file changes the verdicts as it changes the scan's: thresholds
// that let repeats and failures go on longer give, over the fixtures, the
// lines runaway scan --policy gives.
func TestPolicyAsScan(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(file, []byte("repeat_suspicious: 30\nrepeat_runaway: 60\nerror_streak_suspicious: 30\nerror_streak_runaway: 60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := pipeline.DefaultConfig()
	cfg.PolicyFile = file
	policy, err := cfg.Policy()
	if err != nil {
		t.Fatal(err)
	}
	want := scanLines(t, file, "../../fixtures")
	if slices.Equal(want, scanLines(t, "", "../../fixtures")) {
		t.Fatal("the policy file changes nothing in the scan: the test would not see it ignored")
	}
	compare(t, beamLines(t, policy, "../../fixtures"), want)
}

// A run over the per-run bound is not analysed and its line says why; the
// job goes on, and every other run's line is the scan's.
func TestRunOverTheBoundIsAnErrorLine(t *testing.T) {
	dir := t.TempDir()
	var big strings.Builder
	for i := range 200 {
		fmt.Fprintf(&big, `{"run_id":"big","step":%d,"state":"ACT","tool_call":{"name":"search","args":{"q":"q%d"}},"tool_result":{"ok":true,"data":"answer %d"}}`+"\n", i, i, i)
	}
	big.WriteString(`{"run_id":"small","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"one"}}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := beamJob(t, Options{Policy: detect.DefaultPolicy(), MaxRunBytes: 16 << 10}, dir)
	got := readLines(t, filepath.Join(out, "runs.ndjson"))
	want := scanLines(t, "", dir)
	if len(got) != 2 || !strings.Contains(got[0], `"run_id":"big","error":"the run's steps are over 16384 bytes`) {
		t.Fatalf("big run: %.200s", got)
	}
	if got[1] != want[1] {
		t.Fatalf("small run:\nbeam %.300s\nscan %.300s", got[1], want[1])
	}
	// The summary counts the run that was analysed, and says it is partial
	// and why.
	sum := readSummary(t, out)
	if sum.Runs != 1 || !sum.Partial || len(sum.Input.FailedSources) != 1 || !strings.Contains(sum.Input.FailedSources[0], `run "big"`) {
		t.Errorf("summary: runs %d, partial %v, failed %q", sum.Runs, sum.Partial, sum.Input.FailedSources)
	}
}

// Every line the scan rejects is in the dead-letter output with its file
// and line, its text as read (base64 when it is not UTF-8), and the job
// goes on with the other lines.
func TestDeadLettersKeepRejectedLinesWithTheirPlace(t *testing.T) {
	dir := t.TempDir()
	good := `{"run_id":"r","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"one"}}`
	files := map[string]string{
		"a.jsonl": good + "\n{oops\n",
		"b.jsonl": "{\"run_id\":\"s\",\"step\":\"x\"}\n{\"run_id\":\"\xff\xfe\",\"step\":-1}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(beamJob(t, Options{Policy: detect.DefaultPolicy()}, dir), "rejects.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	type letter struct {
		File       string `json:"file"`
		Line       int64  `json:"line"`
		Kind       string `json:"kind"`
		Text       string `json:"text"`
		TextBase64 []byte `json:"text_base64"`
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var d letter
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("dead letter %q: %v", l, err)
		}
		text := d.Text
		if d.TextBase64 != nil {
			text = string(d.TextBase64)
		}
		got = append(got, fmt.Sprintf("%s:%d %s %q", filepath.Base(d.File), d.Line, d.Kind, text))
	}
	// In input order: files as numbered, lines as read.
	want := []string{
		`a.jsonl:2 malformed_json "{oops"`,
		`b.jsonl:1 wrong_type "{\"run_id\":\"s\",\"step\":\"x\"}"`,
		"b.jsonl:2 invalid_value \"{\\\"run_id\\\":\\\"\\xff\\xfe\\\",\\\"step\\\":-1}\"",
	}
	if !slices.Equal(got, want) {
		t.Errorf("dead letters:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func readSummary(t *testing.T, dir string) report.Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary report.Summary `json:"summary"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Summary
}

// scanOutputs runs runaway scan over args with the given --output
// FORMAT=PATH reports and returns their bytes by format.
func scanOutputs(t *testing.T, args []string, formats ...string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	cfg := pipeline.DefaultScanConfig()
	cfg.Paths = args
	cfg.Format = "ndjson"
	cfg.Out = filepath.Join(dir, "ndjson")
	for _, f := range formats {
		cfg.Outputs = append(cfg.Outputs, f+"="+filepath.Join(dir, f))
	}
	var stdout, stderr bytes.Buffer
	if _, err := pipeline.Scan(context.Background(), cfg, nil, &stdout, &stderr); err != nil {
		t.Fatalf("scan: %v\n%s", err, stderr.String())
	}
	out := map[string][]byte{}
	for _, f := range append(formats, "ndjson") {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withoutTiming drops the prom file's wall-clock samples (the job's
// duration and when it completed), which no two runs share.
func withoutTiming(prom []byte) string {
	var keep []string
	for _, l := range strings.Split(string(prom), "\n") {
		if strings.HasPrefix(l, "runaway_scan_duration_seconds ") || strings.HasPrefix(l, "runaway_scan_completion_timestamp_seconds ") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// The job writes what the scan writes, byte for byte: the runs as ndjson
// and as Parquet, the summary (the json document's head) and the
// Prometheus textfile (but for its wall-clock samples).
func TestOutputsAsScan(t *testing.T) {
	want := scanOutputs(t, []string{"../../fixtures"}, "parquet", "json", "prom")
	out := beamJob(t, Options{Policy: detect.DefaultPolicy(), Parquet: true}, "../../fixtures")
	if got := readFile(t, filepath.Join(out, "runs.ndjson")); !bytes.Equal(got, want["ndjson"]) {
		t.Errorf("runs.ndjson differs from the scan's ndjson (%d and %d bytes)", len(got), len(want["ndjson"]))
	}
	if got := readFile(t, filepath.Join(out, "runs.parquet")); !bytes.Equal(got, want["parquet"]) {
		t.Errorf("runs.parquet differs from the scan's Parquet (%d and %d bytes)", len(got), len(want["parquet"]))
	}
	head := readFile(t, filepath.Join(out, "summary.json"))
	if !bytes.HasPrefix(want["json"], bytes.TrimSuffix(head, []byte("\n}\n"))) {
		t.Errorf("summary.json is not the head of the scan's json document:\n%s", head)
	}
	if got := readFile(t, filepath.Join(out, "runaway.prom")); withoutTiming(got) != withoutTiming(want["prom"]) {
		t.Errorf("runaway.prom differs from the scan's:\n%s\nscan:\n%s", got, want["prom"])
	}
	if sum := readSummary(t, out); sum.Runs == 0 || sum.Input.Steps == 0 {
		t.Errorf("an empty summary: %+v", sum)
	}
}

// Sharded, every shard is sorted by run id and holds the runs its hash
// sends it; merged, the shards are the scan's ndjson.
func TestShardsMergeToTheScan(t *testing.T) {
	dir := generated(t, synth.Config{Runs: 300, RunawayRate: 0.3, Seed: 5})
	const shards = 3
	out := beamJob(t, Options{Policy: detect.DefaultPolicy(), Shards: shards}, dir)
	var all []string
	for k := range shards {
		lines := readLines(t, filepath.Join(out, fmt.Sprintf("runs-%05d-of-%05d.ndjson", k, shards)))
		if len(lines) == 0 {
			t.Errorf("shard %d is empty", k)
		}
		ids := make([]string, len(lines))
		for i, l := range lines {
			ids[i] = runIDOf(t, l)
			if shardOf(ids[i], shards) != k {
				t.Errorf("run %s is in shard %d, its hash says %d", ids[i], k, shardOf(ids[i], shards))
			}
		}
		if !slices.IsSorted(ids) {
			t.Errorf("shard %d is not sorted by run id", k)
		}
		all = append(all, lines...)
	}
	slices.SortFunc(all, func(a, b string) int { return strings.Compare(runIDOf(t, a), runIDOf(t, b)) })
	compare(t, all, scanLines(t, "", dir))
}

func runIDOf(t *testing.T, line string) string {
	var r struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("not a run: %.100q", line)
	}
	return r.RunID
}

// Every shard has its file, empty when no run hashed to it, and nothing
// rejected still gives an (empty) rejects file: a reader of the output
// tells "nothing" from "not written".
func TestEveryFileIsWritten(t *testing.T) {
	dir := t.TempDir()
	line := `{"run_id":"only","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"one"}}`
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := beamJob(t, Options{Policy: detect.DefaultPolicy(), Shards: 4, Parquet: true}, dir)
	runs := 0
	for k := range 4 {
		runs += len(readLines(t, filepath.Join(out, fmt.Sprintf("runs-%05d-of-%05d.ndjson", k, 4))))
		readFile(t, filepath.Join(out, fmt.Sprintf("runs-%05d-of-%05d.parquet", k, 4)))
	}
	if runs != 1 {
		t.Errorf("%d runs over the shards, want 1", runs)
	}
	if b := readFile(t, filepath.Join(out, "rejects.ndjson")); len(b) != 0 {
		t.Errorf("rejects.ndjson: %q", b)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
}

// Traces cut over several files (as an exporter rotates them), several
// formats side by side, become the runs the scan makes of them: every
// run's line, the summary and the Prometheus textfile are the scan's.
func TestTracesAcrossFilesAsScan(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"otlp/genai-timeout-loop.ndjson", "langsmith/loop.ndjson", "langsmith/healthy.ndjson", "openai-agents/loop.ndjson", "langfuse/loop.ndjson"} {
		data := readFile(t, filepath.Join("../../fixtures/traces", f))
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l+"\n")
			}
		}
		for k := range 3 {
			var b strings.Builder
			for i := k; i < len(lines); i += 3 {
				b.WriteString(lines[i])
			}
			name := strings.ReplaceAll(strings.TrimSuffix(f, ".ndjson"), "/", "-") + fmt.Sprintf("-%d.ndjson", k)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := scanOutputs(t, []string{dir}, "json", "prom")
	if n := bytes.Count(want["ndjson"], []byte("\n")); n < 5 {
		t.Fatalf("the scan made %d runs of the traces: the test would show little", n)
	}
	out := beamJob(t, Options{Policy: detect.DefaultPolicy()}, dir)
	compare(t, readLines(t, filepath.Join(out, "runs.ndjson")), strings.Split(strings.TrimSuffix(string(want["ndjson"]), "\n"), "\n"))
	head := readFile(t, filepath.Join(out, "summary.json"))
	if !bytes.HasPrefix(want["json"], bytes.TrimSuffix(head, []byte("\n}\n"))) {
		t.Errorf("summary.json is not the head of the scan's json document:\n%s\nscan:\n%.3000s", head, want["json"])
	}
	if got := readFile(t, filepath.Join(out, "runaway.prom")); withoutTiming(got) != withoutTiming(want["prom"]) {
		t.Errorf("runaway.prom differs from the scan's")
	}
}

// A Parquet export of steps (objects as JSON text columns) is read as the
// scan reads it: every run's line is the scan's.
func TestParquetInputAsScan(t *testing.T) {
	dir := t.TempDir()
	fields := []arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String}, {Name: "step", Type: arrow.PrimitiveTypes.Int64},
		{Name: "state", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "tool_call", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "tool_result", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	sc := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	for _, f := range []string{"causes/error-storm-one-call.jsonl", "causes/replan-repeats-call.jsonl", "healthy/seed001-minimal.jsonl"} {
		for _, l := range strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join("../../fixtures", f)))), "\n") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			var id, state string
			var step int64
			json.Unmarshal(m["run_id"], &id)
			json.Unmarshal(m["step"], &step)
			json.Unmarshal(m["state"], &state)
			b.Field(0).(*array.StringBuilder).Append(id)
			b.Field(1).(*array.Int64Builder).Append(step)
			b.Field(2).(*array.StringBuilder).Append(state)
			for i, k := range []string{"tool_call", "tool_result"} {
				if v, ok := m[k]; ok && string(v) != "null" {
					b.Field(3 + i).(*array.StringBuilder).Append(string(v))
				} else {
					b.Field(3 + i).AppendNull()
				}
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(filepath.Join(dir, "steps.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sc, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := scanOutputs(t, []string{dir}, "json")
	if n := bytes.Count(want["ndjson"], []byte("\n")); n != 3 {
		t.Fatalf("the scan read %d runs from the Parquet file, want 3", n)
	}
	out := beamJob(t, Options{Policy: detect.DefaultPolicy()}, dir)
	if got := readFile(t, filepath.Join(out, "runs.ndjson")); !bytes.Equal(got, want["ndjson"]) {
		t.Errorf("runs.ndjson from Parquet differs from the scan's")
	}
	if head := readFile(t, filepath.Join(out, "summary.json")); !bytes.HasPrefix(want["json"], bytes.TrimSuffix(head, []byte("\n}\n"))) {
		t.Errorf("summary.json is not the head of the scan's json document:\n%s", head)
	}
}

// A results folder holds more than logs: the preds.json beside a
// trajectory is passed over and named, as the scan does, and the summary
// is the scan's, whole, not partial.
func TestResultsFolderAsScan(t *testing.T) {
	dir := t.TempDir()
	traj := readFile(t, filepath.Join("..", "..", "fixtures", "trajectories", "swe-agent", "healthy-fix.traj"))
	for name, b := range map[string][]byte{
		"fix/fix.traj": traj,
		"preds.json":   []byte(`{"fix": {"instance_id": "fix", "model_patch": "diff"}}`),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := scanOutputs(t, []string{dir}, "json")
	out := beamJob(t, Options{Policy: detect.DefaultPolicy()}, dir)
	head := readFile(t, filepath.Join(out, "summary.json"))
	if !bytes.HasPrefix(want["json"], bytes.TrimSuffix(head, []byte("\n}\n"))) {
		t.Errorf("summary.json is not the head of the scan's json document:\n%s\nscan:\n%.2000s", head, want["json"])
	}
	sum := readSummary(t, out)
	if sum.Partial || sum.Runs != 1 || len(sum.Input.SkippedFiles) != 1 || !strings.Contains(sum.Input.SkippedFiles[0], "preds.json: JSON that is neither") {
		t.Errorf("partial %v, %d runs, skipped %q", sum.Partial, sum.Runs, sum.Input.SkippedFiles)
	}
}
