package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/synth"
)

// recordingSink keeps each row it is given as JSON, and counts the
// batches it was given as they were read.
type recordingSink struct {
	rows    []string
	reading arrow.RecordBatch // the batch being read, set by the test
	asRead  int               // batches passed on as read
	batches int
}

func (s *recordingSink) Add(rec arrow.RecordBatch) error {
	var b bytes.Buffer
	if err := array.RecordToJSON(rec, &b); err != nil {
		return err
	}
	s.rows = append(s.rows, strings.Split(strings.TrimSpace(b.String()), "\n")...)
	s.batches++
	if rec == s.reading {
		s.asRead++
	}
	return nil
}

func (s *recordingSink) Rows() int { return len(s.rows) }

// stepLines are the lines of run id's steps, in the order given.
func stepLines(id string, steps ...int) string {
	var b strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&b, `{"run_id":%q,"step":%d,"state":"ACT","tool_call":{"name":"search","args":{"q":"q%d"}},"tool_result":{"ok":true,"data":"found %d"}}`+"\n", id, s, s%3, s)
	}
	return b.String()
}

// readSources reads each text as a source, one batch each, into add.
func readSources(t *testing.T, alloc memory.Allocator, texts []string, add func(arrow.RecordBatch) error) {
	t.Helper()
	var sources []ingest.Source
	for i, text := range texts {
		sources = append(sources, ingest.Source{Name: fmt.Sprintf("s%d.jsonl", i), Size: int64(len(text)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }})
	}
	if _, err := ingest.Read(context.Background(), sources, ingest.Options{Alloc: alloc, Workers: 1}, add); err != nil {
		t.Fatal(err)
	}
}

// The step limit passes on, of each run, the rows whose step is below it,
// whatever their order, and counts those it drops per run: a batch with no
// step past it goes through as read, one whose rows past it end the batch
// as a slice, one that mixes them with other runs' as a copy. Every buffer
// is released.
func TestStepLimitDropsTheStepsPastItByNumber(t *testing.T) {
	const limit = 5
	texts := []string{
		stepLines("a", 0, 1, 2) + stepLines("long", 4, 0, 3),
		stepLines("long", 1, 2, 5, 6, 7),
		stepLines("long", 12, 8) + stepLines("b", 0) + stepLines("long", 9) + stepLines("b", 1, 2, 7) + stepLines("long", 10, 11),
		stepLines("long", 20, 30),
	}
	// What every row says, read without the limit.
	all := &recordingSink{}
	readSources(t, memory.NewGoAllocator(), texts, all.Add)
	var want []string
	for _, row := range all.rows {
		if !strings.Contains(row, `"step":`) {
			t.Fatalf("row %s has no step", row)
		}
		var step int
		fmt.Sscanf(row[strings.Index(row, `"step":`)+len(`"step":`):], "%d", &step)
		if step < limit {
			want = append(want, row)
		}
	}

	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	got := &recordingSink{}
	l := newStepLimit(got, limit, alloc)
	readSources(t, alloc, texts, func(rec arrow.RecordBatch) error {
		got.reading = rec
		return l.Add(rec)
	})
	if !slices.Equal(got.rows, want) {
		t.Errorf("rows passed on:\n%s\nwant:\n%s", strings.Join(got.rows, "\n"), strings.Join(want, "\n"))
	}
	if got.batches != 3 || got.asRead != 1 {
		t.Errorf("%d batches passed on, %d as read; want 3 (the last had no row left), 1", got.batches, got.asRead)
	}
	if l.Rows() != len(want) {
		t.Errorf("Rows() = %d, want %d", l.Rows(), len(want))
	}
	wantOver := map[string]overRun{"long": {Dropped: 10, MaxStep: 30}, "b": {Dropped: 1, MaxStep: 7}}
	if len(l.over) != len(wantOver) {
		t.Errorf("runs over the limit: %v, want %v", l.over, wantOver)
	}
	for id, w := range wantOver {
		if o := l.over[id]; o == nil || *o != w {
			t.Errorf("run %s: dropped %+v, want %+v", id, o, w)
		}
	}
}

// K at a few budgets: what the docs quote.
func TestMaxRunStepsFollowsTheBudget(t *testing.T) {
	for _, c := range []struct {
		budget int64
		want   int64
	}{{64 << 20, 21845}, {128 << 20, 65536}, {1 << 30, 677205}, {4 << 30, 2774357}, {0, minRunSteps}} {
		if got := maxRunSteps(c.budget); got != c.want {
			t.Errorf("maxRunSteps(%d) = %d, want %d", c.budget, got, c.want)
		}
	}
	if got := formatBytes(64 << 20); got != "64MiB" {
		t.Errorf("formatBytes(64MiB) = %q", got)
	}
	if got := formatBytes(3 << 29); got != "1.5GiB" {
		t.Errorf("formatBytes(1.5GiB) = %q", got)
	}
}

// longRunCorpus is a generated corpus and, in a file of its own, run
// "long": a call repeated from step 20 on, steps 0 to n-1. limit is one
// more than the longest generated run.
func longRunCorpus(t *testing.T, n int) (corpus []string, long []string, limit int64) {
	t.Helper()
	var gen bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 60, RunawayRate: 0.3, Seed: 3}, &gen, nil); err != nil {
		t.Fatal(err)
	}
	corpus = strings.SplitAfter(gen.String(), "\n")
	corpus = corpus[:len(corpus)-1] // after the last "\n"
	steps := map[string]int64{}
	for _, l := range corpus {
		steps[lineRunID(l)]++
	}
	for _, n := range steps {
		limit = max(limit, n+1)
	}
	for i := range n {
		q := min(i, 20)
		long = append(long, fmt.Sprintf(`{"run_id":"long","step":%d,"state":"ACT","tool_call":{"name":"search","args":{"q":"query %d"}},"tool_result":{"ok":true,"data":"result %d"}}`+"\n", i, q, q))
	}
	return corpus, long, limit
}

func writeLines(t *testing.T, dir, name string, lines []string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ndjsonByRun splits an ndjson report by run id.
func ndjsonByRun(t *testing.T, report []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(report)), "\n") {
		out[lineRunID(line)] = line
	}
	return out
}

// A run past the step limit gets a result of its steps below the limit,
// which says the others were not analyzed; every other run's result is
// the one a scan without the limit gives, byte for byte.
func TestRunPastTheStepLimitIsAnalyzedUpToIt(t *testing.T) {
	corpus, long, limit := longRunCorpus(t, 400)
	dir := t.TempDir()
	paths := []string{writeLines(t, dir, "a.jsonl", corpus), writeLines(t, dir, "long.jsonl", long)}
	truncated := []string{paths[0], writeLines(t, t.TempDir(), "long.jsonl", long[:limit])}

	scan := func(paths []string, limit int64) (map[string]string, string) {
		testMaxRunSteps = limit
		defer func() { testMaxRunSteps = 0 }()
		cfg := scanConfig(paths...)
		cfg.Format, cfg.MaxMemory = "ndjson", 64<<20
		code, stdout, stderr := runScan(t, "", cfg)
		if code != ExitClean {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		return ndjsonByRun(t, []byte(stdout)), stderr
	}
	limited, stderr := scan(paths, limit)
	unlimited, _ := scan(paths, 0)
	alone, _ := scan(truncated, 0)
	if len(limited) != len(unlimited) {
		t.Fatalf("%d runs with the limit, %d without", len(limited), len(unlimited))
	}
	for id, line := range unlimited {
		if id != "long" && limited[id] != line {
			t.Errorf("run %s differs with the limit:\n%s\nwant\n%s", id, limited[id], line)
		}
	}
	problem := fmt.Sprintf(`"data_problems":["steps %d to 399 (%d lines) were not analyzed: one run may hold %d steps under --max-memory 64MiB; raise --max-memory to analyze more"]`,
		limit, 400-limit, limit)
	got := limited["long"]
	if !strings.Contains(got, problem) || !strings.Contains(got, fmt.Sprintf(`"steps":%d,`, limit)) || !strings.Contains(got, `"verdict":"runaway"`) {
		t.Errorf("the long run's result:\n%s\nwant %d steps, runaway, and %s", got, limit, problem)
	}
	if strings.Replace(got, ","+problem, "", 1) != alone["long"] {
		t.Errorf("the long run's result, but for its data problem, is not that of its first %d steps:\n%s\nwant\n%s", limit, got, alone["long"])
	}
	if want := fmt.Sprintf("runaway scan: warning: steps %d and later of 1 run were not analyzed: one run may hold %d steps under --max-memory 64MiB (raise it to analyze more); the run: \"long\"\n", limit, limit); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// The steps a run past the limit keeps are chosen by their number: its
// lines shuffled among the others', the files in another order, every
// report (the html's timelines read again included) is the same.
func TestStepLimitDoesNotDependOnInputOrder(t *testing.T) {
	corpus, long, limit := longRunCorpus(t, 300)
	testMaxRunSteps = limit
	defer func() { testMaxRunSteps = 0 }()
	lines := append(slices.Clone(corpus), long...)
	write := func(lines []string) []string {
		dir := t.TempDir()
		half := len(lines) / 2
		return []string{writeLines(t, dir, "a.jsonl", lines[:half]), writeLines(t, dir, "b.jsonl", lines[half:])}
	}
	want, _ := scanReports(t, write(lines), true, 0)
	if !bytes.Contains(want["ndjson"], []byte(`{"run_id":"long","verdict":"runaway"`)) || !bytes.Contains(want["ndjson"], []byte("were not analyzed")) ||
		!bytes.Contains(want["html"], []byte(`class="timeline"`)) {
		t.Fatal("the case is not exercised: no runaway run past the limit, or no timeline")
	}
	// The timelines' runs are read again in groups of at most limit steps,
	// at most three.
	if why := fmt.Sprintf("the next would take a read of the input again beyond 3, of at most the %d steps one run may hold under --max-memory 1GiB", limit); !bytes.Contains(want["html"], []byte(why)) {
		t.Errorf("the html page does not say why the other runs have no timeline: %q", why)
	}
	if n := bytes.Count(want["html"], []byte(`<svg class="timeline"`)); n < 3 {
		t.Errorf("%d timelines, want one read's at least for each of three reads", n)
	}
	shuffled := slices.Clone(lines)
	rand.New(rand.NewPCG(5, 5)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	paths := write(shuffled)
	got, _ := scanReports(t, []string{paths[1], paths[0]}, true, 0)
	sameReports(t, "lines shuffled, files reversed", want, got, false)
}

// explain explains a run past the limit up to it, and says so; fixture
// writes no fixture of it (a fixture holds a run whole), says why, and
// goes on.
func TestExplainAndFixtureOfARunPastTheLimit(t *testing.T) {
	_, long, _ := longRunCorpus(t, 300)
	path := writeLines(t, t.TempDir(), "long.jsonl", long)
	testMaxRunSteps = 100
	defer func() { testMaxRunSteps = 0 }()

	cfg := ExplainConfig{Config: DefaultConfig(), RunIDs: []string{"long"}, Format: "text", MaxMemory: 64 << 20}
	cfg.Paths = []string{path}
	var out, stderr bytes.Buffer
	if err := Explain(context.Background(), cfg, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatal(err)
	}
	note := "Note:      steps 100 to 299 (200 lines) were not analyzed: one run may hold 100 steps under --max-memory 64MiB; raise --max-memory to analyze more\n"
	if !strings.Contains(out.String(), note) || !strings.Contains(out.String(), " of 100 steps") {
		t.Errorf("explain of a run past the limit:\n%s\nwant 100 steps and %q", out.String(), note)
	}
	if !strings.Contains(stderr.String(), `runaway explain: warning: steps 100 and later of 1 run were not analyzed`) {
		t.Errorf("stderr %q", stderr.String())
	}

	fx := FixtureConfig{Config: DefaultConfig(), RunIDs: []string{"long"}, Out: t.TempDir(), MinimizeBudget: 1, NoRedact: true}
	fx.Paths = []string{path}
	stderr.Reset()
	err := Fixture(context.Background(), fx, strings.NewReader(""), &stderr)
	if ExitCode(err) != ExitCode(&PartialError{}) {
		t.Errorf("fixture: %v, want a partial error", err)
	}
	want := `runaway fixture: run "long": not written: a fixture holds a run whole, and steps 100 to 299 (200 lines) were not analyzed: one run may hold 100 steps under --max-memory 1GiB; raise --max-memory to analyze more` + "\n"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("fixture's stderr %q, want %q", stderr.String(), want)
	}
}

// Runs explained at once are held at once: they share the steps one run
// may hold, so that naming several long runs holds no more than one.
func TestExplainedRunsShareTheStepLimit(t *testing.T) {
	_, long, _ := longRunCorpus(t, 300)
	var other []string
	for _, l := range long {
		other = append(other, strings.Replace(l, `"run_id":"long"`, `"run_id":"other"`, 1))
	}
	path := writeLines(t, t.TempDir(), "long.jsonl", append(slices.Clone(long), other...))
	testMaxRunSteps = 100
	defer func() { testMaxRunSteps = 0 }()

	cfg := ExplainConfig{Config: DefaultConfig(), RunIDs: []string{"long", "other"}, Format: "text", MaxMemory: 64 << 20}
	cfg.Paths = []string{path}
	var out, stderr bytes.Buffer
	if err := Explain(context.Background(), cfg, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatal(err)
	}
	note := "Note:      steps 50 to 299 (250 lines) were not analyzed: one run may hold 50 steps under --max-memory 64MiB shared by the 2 runs explained at once; explain it alone, or raise --max-memory, to analyze more\n"
	if n := strings.Count(out.String(), note); n != 2 || strings.Count(out.String(), " of 50 steps") != 2 {
		t.Errorf("explain of two runs past the shared limit (%d notes):\n%s\nwant 50 steps each and %q", n, out.String(), note)
	}
	if want := "runaway explain: warning: steps 50 and later of 2 runs were not analyzed: one run may hold 50 steps under --max-memory 64MiB shared by the 2 runs explained at once (explain fewer runs at once, or raise it, to analyze more)"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
