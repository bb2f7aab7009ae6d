package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// pinProductVersion fixes the version the json document names, so goldens do
// not change with every release (or with -ldflags -X in a release build).
func pinProductVersion(t *testing.T) {
	t.Helper()
	old := schema.ProductVersion
	schema.ProductVersion = "0.0.0-test"
	t.Cleanup(func() { schema.ProductVersion = old })
}

func render(t *testing.T, format string, scan *Scan, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, scan, opts); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	return buf.Bytes()
}

// TestGolden renders the sample scan in every format and compares with
// testdata. After an intended change: go test ./report -update, then review
// the diff of testdata like code.
func TestGolden(t *testing.T) {
	pinProductVersion(t)
	cases := []struct {
		file   string
		format string
		opts   Options
	}{
		{"scan.table", "table", Options{}},
		{"scan-color-max1.table", "table", Options{Color: true, MaxRows: 1}},
		{"scan.json", "json", Options{}},
		{"scan.ndjson", "ndjson", Options{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got := render(t, c.format, sampleScan(), c.opts)
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file (run with -update after checking):\n--- got ---\n%s\n--- want ---\n%s", c.file, got, want)
			}
		})
	}
}

// The same Scan gives the same bytes, however often it is rendered and
// whatever order its maps were filled in.
func TestDeterministic(t *testing.T) {
	for _, format := range Formats {
		first := render(t, format, sampleScan(), Options{Color: true})
		for range 20 {
			scan := sampleScan()
			// Rebuild the maps so Go's randomized map order gets a chance
			// to leak into the output if anything iterates a map unsorted.
			kinds := map[string]int64{}
			for _, k := range []string{"missing_field", "malformed_json"} {
				kinds[k] = scan.Summary.Input.RejectsByKind[k]
			}
			scan.Summary.Input.RejectsByKind = kinds
			if got := render(t, format, scan, Options{Color: true}); !bytes.Equal(got, first) {
				t.Fatalf("%s output changed between renders:\n%s\n---\n%s", format, first, got)
			}
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, "yaml", sampleScan(), Options{})
	if err == nil {
		t.Fatal("Write accepted format yaml")
	}
	for _, want := range append([]string{`"yaml"`}, Formats...) {
		if !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes for an unknown format", buf.Len())
	}
	if err := Write(&buf, "json", nil, Options{}); err == nil {
		t.Error("Write accepted a nil scan")
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, os.ErrClosed
	}
	f.after--
	return len(p), nil
}

// A failed output write must reach the caller: cmd exits 3 on it.
func TestWriteErrorIsReturned(t *testing.T) {
	for _, format := range Formats {
		if err := Write(&failingWriter{}, format, sampleScan(), Options{}); err == nil {
			t.Errorf("%s: write error was swallowed", format)
		}
	}
}
