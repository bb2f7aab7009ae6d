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

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/synth"
)

func TestMain(m *testing.M) {
	Register()
	ptest.MainWithDefault(m, "prism")
}

// beamLines runs the pipeline over args on prism and returns its lines
// sorted by run id, as the scan sorts them.
func beamLines(t *testing.T, policy detect.Policy, args ...string) []string {
	return beamLinesMax(t, policy, 0, args...)
}

func beamLinesMax(t *testing.T, policy detect.Policy, maxRunBytes int64, args ...string) []string {
	t.Helper()
	sources := sourcesOf(t, args...)
	out := filepath.Join(t.TempDir(), "runs.ndjson")
	p, s := beam.NewPipelineWithRoot()
	runs, _ := Scan(s, sources, Options{Policy: policy, MaxRunBytes: maxRunBytes})
	textio.Write(s, out, runs)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	runID := func(l string) string {
		var r struct {
			RunID string `json:"run_id"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("not a run: %q", l)
		}
		return r.RunID
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(runID(a), runID(b)) })
	return lines
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
		sources = append(sources, Source{Index: len(sources), Name: src.Name})
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
// numbers and names the files: here a step logged twice with different
// content in the second file.
func TestDataProblemsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.jsonl", `{"run_id":"r1","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":{"ok":true,"data":"one"}}`+"\n")
	write("b.jsonl", `{"run_id":"r2","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"y"}},"tool_result":{"ok":true,"data":"two"}}`+"\n"+
		`{"run_id":"r2","step":0,"state":"ACT","tool_call":{"name":"search","args":{"q":"z"}},"tool_result":{"ok":true,"data":"three"}}`+"\n")
	want := scanLines(t, "", dir)
	if !strings.Contains(strings.Join(want, "\n"), "b.jsonl") {
		t.Fatalf("the scan's report does not name b.jsonl: %s", want)
	}
	compare(t, beamLines(t, detect.DefaultPolicy(), dir), want)
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
	got := beamLinesMax(t, detect.DefaultPolicy(), 16<<10, dir)
	want := scanLines(t, "", dir)
	if len(got) != 2 || !strings.Contains(got[0], `"run_id":"big","error":"the run's steps are over 16384 bytes`) {
		t.Fatalf("big run: %.200s", got)
	}
	if got[1] != want[1] {
		t.Fatalf("small run:\nbeam %.300s\nscan %.300s", got[1], want[1])
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
	sources := sourcesOf(t, dir)
	out := filepath.Join(t.TempDir(), "rejects.ndjson")
	p, s := beam.NewPipelineWithRoot()
	_, dead := Scan(s, sources, Options{Policy: detect.DefaultPolicy()})
	textio.Write(s, out, dead)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
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
	slices.Sort(got)
	want := []string{
		`a.jsonl:2 malformed_json "{oops"`,
		`b.jsonl:1 wrong_type "{\"run_id\":\"s\",\"step\":\"x\"}"`,
		"b.jsonl:2 invalid_value \"{\\\"run_id\\\":\\\"\\xff\\xfe\\\",\\\"step\\\":-1}\"",
	}
	if !slices.Equal(got, want) {
		t.Errorf("dead letters:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
