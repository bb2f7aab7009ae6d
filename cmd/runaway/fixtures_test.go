package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// want is the expected verdict of one fixture run (fixtures/**/<name>.want.json).
type want struct {
	SchemaVersion string   `json:"schema_version"`
	RunID         string   `json:"run_id"`
	Verdict       string   `json:"verdict"`
	RootCause     string   `json:"root_cause"`
	OnsetStep     int64    `json:"onset_step"`
	Detectors     []string `json:"detectors"`
}

type scannedRun struct {
	RunID     string `json:"run_id"`
	Verdict   string `json:"verdict"`
	RootCause string `json:"root_cause"`
	OnsetStep int64  `json:"onset_step"`
	Findings  []struct {
		Detector string `json:"detector"`
	} `json:"findings"`
}

func fixtureFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "..", "fixtures"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	return files
}

// Every fixture is scanned on its own and must match its want file exactly:
// verdict, root cause, onset and the whole set of detectors (an extra
// finding fails as loudly as a missing one).
func TestFixturesMatchTheirWantFiles(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		name := strings.TrimSuffix(path, ".jsonl")
		t.Run(strings.TrimPrefix(name, filepath.Join("..", "..")+string(filepath.Separator)), func(t *testing.T) {
			wb, err := os.ReadFile(name + ".want.json")
			if err != nil {
				t.Fatalf("every fixture needs a want file: %v", err)
			}
			var w want
			dec := json.NewDecoder(bytes.NewReader(wb))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&w); err != nil {
				t.Fatalf("%s.want.json: %v", name, err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"scan", "--format", "ndjson", "--strict", path}, nil, &stdout, &stderr); code != exitClean {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if len(lines) != 1 {
				t.Fatalf("a fixture holds one run, got %d", len(lines))
			}
			var got scannedRun
			if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
				t.Fatal(err)
			}
			var dets []string
			for _, f := range got.Findings {
				dets = append(dets, f.Detector)
			}
			slices.Sort(dets)
			if w.Detectors == nil {
				w.Detectors = []string{}
			}
			if dets == nil {
				dets = []string{}
			}
			if got.RunID != w.RunID || got.Verdict != w.Verdict || got.RootCause != w.RootCause || got.OnsetStep != w.OnsetStep || !slices.Equal(dets, w.Detectors) {
				t.Errorf("got  run %s verdict %s cause %q onset %d detectors %v\nwant run %s verdict %s cause %q onset %d detectors %v",
					got.RunID, got.Verdict, got.RootCause, got.OnsetStep, dets, w.RunID, w.Verdict, w.RootCause, w.OnsetStep, w.Detectors)
			}
		})
	}
}

// The whole report over fixtures/ is golden: every finding, message,
// evidence and indicator. Review diffs of testdata/ like code.
func TestScanFixturesGolden(t *testing.T) {
	for _, format := range []string{"ndjson", "table"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"scan", "--format", format, filepath.Join("..", "..", "fixtures")}, nil, &stdout, &stderr)
		if code != exitClean {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		golden := filepath.Join("testdata", "scan-fixtures."+format+".golden")
		if *update {
			if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		wantBytes, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./cmd/runaway -run Golden -update)", err)
		}
		if !bytes.Equal(stdout.Bytes(), wantBytes) {
			t.Errorf("%s differs from %s; run with -update and review the diff", format, golden)
		}
	}
}
