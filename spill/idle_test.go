package spill_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/spill"
	"github.com/runawayhq/runaway/synth"
)

// generated returns a corpus's lines, runs interleaved by interleave.
func generated(t testing.TB, runs, interleave int, seed uint64) []string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: runs, RunawayRate: 0.3, Seed: seed, Interleave: interleave}, &buf, nil); err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

func sources(files ...[]string) []ingest.Source {
	var out []ingest.Source
	for i, lines := range files {
		text := strings.Join(lines, "")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		out = append(out, ingest.Source{Name: string(rune('a'+i)) + ".jsonl", Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(text)), nil
		}})
	}
	return out
}

// runID is the run_id of a generated line.
func runID(line string) string {
	_, rest, _ := strings.Cut(line, `"run_id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

// lateHalves moves the second half of every k-th run's lines to the end of
// the input: those runs go quiet for most of the input, then log again.
func lateHalves(lines []string, k int) (out []string, moved []string) {
	byRun := map[string][]int{}
	var order []string
	for i, l := range lines {
		id := runID(l)
		if _, ok := byRun[id]; !ok {
			order = append(order, id)
		}
		byRun[id] = append(byRun[id], i)
	}
	late := map[int]bool{}
	for i, id := range order {
		if i%k == 0 && len(byRun[id]) >= 4 {
			moved = append(moved, id)
			idx := byRun[id]
			for _, j := range idx[len(idx)/2:] {
				late[j] = true
			}
		}
	}
	var tail []string
	for i, l := range lines {
		if late[i] {
			tail = append(tail, l)
		} else {
			out = append(out, l)
		}
	}
	slices.Sort(moved)
	return append(out, tail...), moved
}

// A store that analyzes idle runs before the input ends gives the report
// one collector gives, byte for byte: when the runs' steps are close
// together (it then writes no step to disk), when they are spread so wide
// that it has to spill, and when runs it took for finished log again later
// (their steps are read again, and their results replaced).
func TestClosingIdleRunsGivesTheSameReport(t *testing.T) {
	policy := detect.DefaultPolicy()
	yes, no := true, false
	close16 := generated(t, 1200, 16, 11)
	wide := generated(t, 600, 400, 12)
	late, moved := lateHalves(generated(t, 1200, 16, 13), 97)
	lateWide, movedWide := lateHalves(append(generated(t, 1200, 16, 14), wide...), 89)
	other := generated(t, 300, 16, 15)
	for _, tc := range []struct {
		name     string
		srcs     []ingest.Source
		maxFiles int // result files of idle runs before they are merged (0: the default)
		maxBytes int64
		closes   bool
		spills   *bool // nil: either
		split    []string
		// firstClean: the first source holds none of split's steps
		firstClean bool
	}{
		{"runs close together", sources(close16[:len(close16)/2], close16[len(close16)/2:]), 0, 512 << 10, true, &no, nil, false},
		{"result files merged as they pile up", sources(close16), 3, 512 << 10, true, &no, nil, false},
		{"runs spread wide: spills", sources(wide), 0, 512 << 10, false, &yes, nil, false},
		{"some runs log again at the end", sources(late), 0, 512 << 10, true, &no, moved, false},
		{"some runs log again, in the last of three files", sources(other, late[:len(late)/2], late[len(late)/2:]), 0, 512 << 10, true, nil, moved, true},
		{"some runs log again, result files merged", sources(late), 4, 512 << 10, true, &no, moved, false},
		{"runs close together, then spread wide", sources(close16, wide), 0, 512 << 10, true, &yes, nil, false},
		{"some runs log again, after a spill", sources(lateWide), 0, 512 << 10, true, &yes, movedWide, false},
		{"held", sources(late), 0, 1 << 40, false, &no, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := ndjsonOf(t, func(emit func(*detect.RunResult) error) error {
				c := runstore.NewCollector(names(tc.srcs))
				read(t, tc.srcs, memory.NewGoAllocator(), c.Add, nil)
				return c.Stream(policy, 2, emit)
			})
			if tc.maxFiles > 0 {
				defer spill.SetMaxEarlyFiles(tc.maxFiles)()
			}
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer alloc.AssertSize(t, 0)
			dir := t.TempDir()
			opts := spill.Options{Policy: policy, Dir: dir, MaxBytes: tc.maxBytes, Partitions: 8, CloseIdle: true, Workers: 2}
			s, err := spill.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			read(t, tc.srcs, alloc, s.Add, s.SetSourceName)
			t.Logf("%d closes", s.Closes())
			if closes := s.Closes() > 0; closes != tc.closes {
				t.Fatalf("closed idle runs %d times, want some: %v", s.Closes(), tc.closes)
			}
			if spilled, _ := s.Spilled(); tc.spills != nil && spilled != *tc.spills {
				t.Fatalf("spilled: %v, want %v", spilled, *tc.spills)
			}
			split, err := s.Finish(2)
			if err != nil {
				t.Fatal(err)
			}
			if tc.split == nil && len(split) > 0 {
				t.Fatalf("runs analyzed in pieces: %v", split)
			}
			t.Logf("%d runs split", len(split))
			if tc.split != nil {
				// Every run found split was moved; most moved runs were
				// closed before their second half came.
				for _, id := range split {
					if _, ok := slices.BinarySearch(tc.split, id); !ok {
						t.Fatalf("run %s found split, but its steps were together", id)
					}
				}
				if len(split) < len(tc.split)/2 {
					t.Fatalf("%d of %d late runs found split", len(split), len(tc.split))
				}
				if err := s.Emit(func(*detect.RunResult) error { return nil }); err == nil {
					t.Fatal("Emit without Replace: no error")
				}
				// Only the sources that hold split runs' steps are read
				// again: the report shows that none was missed.
				var again []ingest.Source
				for _, src := range tc.srcs {
					if slices.Contains(s.SplitSources(), src.Name) {
						again = append(again, src)
					}
				}
				if tc.firstClean && slices.Contains(s.SplitSources(), tc.srcs[0].Name) {
					t.Fatalf("sources read again: %v; the first holds no split run", s.SplitSources())
				}
				second, err := spill.New(spill.Options{Policy: policy, Dir: dir, MaxBytes: tc.maxBytes})
				if err != nil {
					t.Fatal(err)
				}
				defer second.Close()
				if _, err := ingest.Read(context.Background(), again, ingest.Options{Alloc: alloc, BatchRows: 500, Workers: 2,
					RunIDs: split, OnSource: second.SetSourceName}, second.Add); err != nil {
					t.Fatal(err)
				}
				if err := s.Replace(second, 2); err != nil {
					t.Fatal(err)
				}
			}
			closeAndCompare(t, s, dir, ndjsonOf(t, s.Emit), want)
		})
	}
}
