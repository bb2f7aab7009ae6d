package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/fixture"
)

var update = flag.Bool("update", false, "rewrite the golden files and the files generated from the commands table (TestGenerated)")

// Every fixture is checked on its own, by the code behind 'runaway verify',
// and must match its want file (fixture.Want: the format is the contract)
// exactly: verdict, root cause, onset and the whole set of detectors (an
// extra finding fails as loudly as a missing one). A fixture without a want
// file, with a rejected line or with other than one run fails too.
func TestFixturesMatchTheirWantFiles(t *testing.T) {
	cases, err := fixture.Discover([]string{filepath.Join("..", "..", "fixtures")})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no fixtures found")
	}
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	a := &fixture.Analyzer{Alloc: alloc, Policy: detect.DefaultPolicy()}
	for _, c := range cases {
		t.Run(c.Rel, func(t *testing.T) {
			o := fixture.Check(context.Background(), a, c)
			switch o.Status {
			case fixture.Error:
				t.Fatal(o.Err)
			case fixture.Fail:
				for _, d := range o.Diffs {
					t.Error(d)
				}
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
