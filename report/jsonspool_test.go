package report

import (
	"bytes"
	"os"
	"testing"
)

// The spooled document is the json format, byte for byte, also without runs.
func TestJSONSpoolWritesTheJSONDocument(t *testing.T) {
	scan := sampleScan()
	for _, n := range []int{0, 1, len(scan.Runs)} {
		sub := *scan
		sub.Runs = scan.Runs[:n]
		var want bytes.Buffer
		if err := Write(&want, "json", &sub, Options{}); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		spool, err := NewJSONSpool(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sub.Runs {
			if err := spool.Add(&sub.Runs[i]); err != nil {
				t.Fatal(err)
			}
		}
		var got bytes.Buffer
		if err := spool.WriteDocument(&got, sub.Summary); err != nil {
			t.Fatal(err)
		}
		if err := spool.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%d runs: spooled document differs:\n%s\nwant\n%s", n, got.String(), want.String())
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("spool file left: %v", left)
		}
	}
}
