package spill_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/spill"
	"github.com/runawayhq/runaway/synth"
)

// corpus is a generated corpus with runs interleaved 64 at a time, split
// across two sources so that runs also span files.
func corpus(t testing.TB, runs int) []ingest.Source {
	t.Helper()
	var buf bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: runs, RunawayRate: 0.3, Seed: 5, Interleave: 64}, &buf, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	half := strings.Join(lines[:len(lines)/2], "")
	rest := strings.Join(lines[len(lines)/2:], "")
	src := func(name, text string) ingest.Source {
		return ingest.Source{Name: name, Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(text)), nil
		}}
	}
	return []ingest.Source{src("a.jsonl", half), src("b.jsonl", rest)}
}

func names(srcs []ingest.Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Name)
	}
	return out
}

// ndjsonOf renders results as scan --format ndjson does.
func ndjsonOf(t testing.TB, analyze func(emit func(*detect.RunResult) error) error) []byte {
	t.Helper()
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := analyze(func(r *detect.RunResult) error { return report.WriteRunNDJSON(w, r) }); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func read(t testing.TB, srcs []ingest.Source, alloc memory.Allocator, add func(arrow.RecordBatch) error, onSource func(int, string)) {
	t.Helper()
	if _, err := ingest.Read(context.Background(), srcs, ingest.Options{Alloc: alloc, BatchRows: 500, Workers: 2, OnSource: onSource}, add); err != nil {
		t.Fatal(err)
	}
}

// The report does not depend on whether the input was held or spilled, nor
// on the number of partitions: byte for byte what one collector gives.
func TestSpilledReportIsByteIdenticalToTheInMemoryOne(t *testing.T) {
	srcs := corpus(t, 1500)
	policy := detect.DefaultPolicy()

	want := ndjsonOf(t, func(emit func(*detect.RunResult) error) error {
		c := runstore.NewCollector(names(srcs))
		read(t, srcs, memory.NewGoAllocator(), c.Add, nil)
		return c.Stream(policy, 2, emit)
	})
	if len(want) == 0 {
		t.Fatal("empty report")
	}
	// Evidence shows the args of repeated calls as the collector chose to
	// keep them (the third repeat among a run's recent calls): a choice that
	// spans spills, so the corpus must make it often.
	if n := bytes.Count(want, []byte(`"keys":["http_get {`)); n < 50 {
		t.Fatalf("only %d evidence keys show args: the corpus does not exercise their choice", n)
	}
	for _, tc := range []struct {
		name       string
		maxBytes   int64
		partitions int
		spills     bool
		splits     bool
	}{
		{"held", 1 << 40, 64, false, false},
		{"spilled, 64 partitions", 16 << 10, 64, true, true},
		{"spilled, 7 partitions", 1 << 20, 7, true, false},
		{"spilled, 1 partition split in many", 64 << 10, 1, true, true},
		{"half held, then spilled", 1 << 20, 16, true, false},
		{"tiny budget: partitions split again and again", 4 << 10, 2, true, true},
		{"many spills, 128 partitions", 40 << 10, 128, true, false},
		{"many spills, 3 partitions, some split", 100 << 10, 3, true, true},
		{"a few spills, 16 partitions", 400 << 10, 16, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer alloc.AssertSize(t, 0)
			dir := t.TempDir()
			s, err := spill.New(spill.Options{Policy: policy, Dir: dir, MaxBytes: tc.maxBytes, Partitions: tc.partitions})
			if err != nil {
				t.Fatal(err)
			}
			read(t, srcs, alloc, s.Add, s.SetSourceName)
			if spilled, bytes := s.Spilled(); spilled != tc.spills || (spilled && bytes == 0) {
				t.Fatalf("spilled %v (%d bytes), want %v", spilled, bytes, tc.spills)
			}
			got := ndjsonOf(t, func(emit func(*detect.RunResult) error) error {
				return s.Analyze(2, emit)
			})
			if (s.Splits() > 0) != tc.splits {
				t.Errorf("%d partitions split, want splits: %v", s.Splits(), tc.splits)
			}
			closeAndCompare(t, s, dir, got, want)
		})
	}
}

// closeAndCompare closes s and checks that its report is want and that it
// left no file in dir.
func closeAndCompare(t *testing.T, s *spill.Store, dir string, got, want []byte) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("report differs from the in-memory one (%d vs %d bytes)", len(got), len(want))
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// Close removes the spill directory also when the scan stops before the
// analysis (an interrupt, a failed read).
func TestCloseRemovesTheSpillBeforeAnalysis(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	dir := t.TempDir()
	s, err := spill.New(spill.Options{Policy: detect.DefaultPolicy(), Dir: dir, MaxBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	read(t, corpus(t, 50), alloc, s.Add, s.SetSourceName)
	entries, _ := filepath.Glob(filepath.Join(dir, "runaway-spill-*", "part-*"))
	if len(entries) == 0 {
		t.Fatal("nothing spilled")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// The next partition is loaded while one is analyzed: a partition that
// cannot be loaded, like a report that cannot be written, must end Analyze
// with that error, neither hang nor leave files.
func TestAnalyzeStopsAtTheFirstFailure(t *testing.T) {
	srcs := corpus(t, 600)
	policy := detect.DefaultPolicy()
	spilled := func(t *testing.T) (*spill.Store, string) {
		dir := t.TempDir()
		s, err := spill.New(spill.Options{Policy: policy, Dir: dir, MaxBytes: 40 << 10, Partitions: 16})
		if err != nil {
			t.Fatal(err)
		}
		read(t, srcs, memory.NewGoAllocator(), s.Add, s.SetSourceName)
		if ok, _ := s.Spilled(); !ok {
			t.Fatal("nothing spilled")
		}
		return s, dir
	}
	t.Run("emit fails", func(t *testing.T) {
		s, dir := spilled(t)
		stop := errors.New("disk full")
		n := 0
		err := s.Analyze(2, func(*detect.RunResult) error {
			if n++; n == 200 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Fatalf("Analyze: %v, want the emit error", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})
	t.Run("a partition file is damaged", func(t *testing.T) {
		s, dir := spilled(t)
		parts, _ := filepath.Glob(filepath.Join(dir, "runaway-spill-*", "part-*.seg"))
		if len(parts) < 4 {
			t.Fatalf("%d partition files", len(parts))
		}
		damaged := parts[len(parts)/2]
		if err := os.WriteFile(damaged, []byte("not a segment"), 0o600); err != nil {
			t.Fatal(err)
		}
		err := s.Analyze(2, func(*detect.RunResult) error { return nil })
		if err == nil || !strings.Contains(err.Error(), filepath.Base(damaged)) {
			t.Fatalf("Analyze: %v, want an error naming %s", err, filepath.Base(damaged))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})
}
