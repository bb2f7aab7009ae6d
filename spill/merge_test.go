package spill

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
)

// The merge emits in run-id order across files and batches, and an error
// from emit stops it and is returned.
func TestMergeOrdersAcrossFilesAndStopsAtAnEmitError(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for f := range 3 {
		path := filepath.Join(dir, fmt.Sprintf("results-%d.bin", f))
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		rw := &runstore.ResultWriter{W: bufio.NewWriter(file)}
		for i := f; i < 3000; i += 3 {
			if err := rw.Write(&detect.RunResult{RunID: fmt.Sprintf("run-%05d", i), Steps: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := errors.Join(rw.W.Flush(), file.Close()); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	n := 0
	if err := mergeResults(paths, 0, nil, func(r *detect.RunResult) error {
		if want := fmt.Sprintf("run-%05d", n); r.RunID != want || r.Steps != int64(n) {
			return fmt.Errorf("result %d is %s (steps %d), want %s", n, r.RunID, r.Steps, want)
		}
		n++
		return nil
	}); err != nil || n != 3000 {
		t.Fatalf("merged %d results: %v", n, err)
	}
	stop := errors.New("stop")
	n = 0
	err := mergeResults(paths, 0, nil, func(*detect.RunResult) error {
		if n++; n == 700 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 700 {
		t.Fatalf("after %d results: %v, want the emit error at 700", n, err)
	}
}
