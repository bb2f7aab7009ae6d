package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every rejected line keeps its origin: --rejects FILE holds the lines
// verbatim, one after the other, so it can be fixed and fed again, and
// FILE.index.ndjson says for each which file and line it came from and
// where it is in FILE. Three files with bad lines at known places, one
// compressed, more than the 20 stderr names, a line too long to hold and
// one ending in \r\n: each index entry names the right place, and its
// offset and length cut exactly that line out of the rejects file.
func TestEveryRejectKeepsItsFileAndLine(t *testing.T) {
	dir := t.TempDir()
	good := func(run string, step int) string {
		return fmt.Sprintf(`{"run_id":%q,"step":%d,"state":"ACT","tool_call":{"name":"t","args":{"n":%d}},"tool_result":{"ok":true,"data":[%d]}}`, run, step, step, step)
	}
	type bad struct {
		file string
		line int
		text string
	}
	var want []bad
	write := func(name string, lines []string, gz bool) string {
		path := filepath.Join(dir, name)
		data := []byte(strings.Join(lines, "\n") + "\n")
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(data)
			w.Close()
			data = b.Bytes()
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// a.jsonl: bad at lines 2 and 5.
	a := []string{good("a", 0), `{"run_id":"a","step":"one"}`, good("a", 2), good("a", 3), `not json at all`}
	// b.jsonl.gz: bad at lines 1 and 3, the second ending in \r.
	b := []string{`{"run_id":"b","step":"x"}`, good("b", 0), "{\"step\":3}\r", good("b", 1)}
	// c.jsonl: 25 bad lines among good ones, and a line too long.
	var c []string
	for i := range 30 {
		if i%6 == 5 {
			c = append(c, good("c", i))
		} else {
			c = append(c, fmt.Sprintf(`{"run_id":"c","step":%d,"state":`, i))
		}
	}
	c = append(c, `{"run_id":"c","step":99,"goal":"`+strings.Repeat("x", 3000)+`"}`)
	paths := []string{write("a.jsonl", a, false), write("b.jsonl.gz", b, true), write("c.jsonl", c, false)}
	for _, f := range []struct {
		path  string
		lines []string
		bad   []int
	}{{paths[0], a, []int{2, 5}}, {paths[1], b, []int{1, 3}}, {paths[2], c, nil}} {
		bads := f.bad
		if bads == nil {
			for i := range c {
				if i%6 != 5 {
					bads = append(bads, i+1)
				}
			}
		}
		for _, n := range bads {
			want = append(want, bad{f.path, n, f.lines[n-1]})
		}
	}

	rejects := filepath.Join(dir, "out", "rejects.jsonl")
	os.Mkdir(filepath.Dir(rejects), 0o755)
	code, _, stderr := runCLI(t, "", "scan", "--max-line-bytes", "1024", "--rejects", rejects, paths[0], paths[1], paths[2])
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	kept, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, w := range want {
		lines = append(lines, w.text)
	}
	if string(kept) != strings.Join(lines, "\n")+"\n" {
		t.Fatalf("the rejects file is not the rejected lines, verbatim, in input order:\n%q", kept)
	}

	index, err := os.Open(rejects + ".index.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	defer index.Close()
	type entry struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
		Offset int64  `json:"offset"`
		Length int64  `json:"length"`
	}
	var got []entry
	sc := bufio.NewScanner(index)
	for sc.Scan() {
		var e entry
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("index line %q: %v", sc.Text(), err)
		}
		got = append(got, e)
	}
	if len(got) != len(want) {
		t.Fatalf("%d index entries, want %d", len(got), len(want))
	}
	for i, w := range want {
		e := got[i]
		if e.File != w.file || e.Line != w.line || e.Kind == "" || e.Reason == "" {
			t.Errorf("entry %d: %+v; want %s:%d with a kind and a reason", i, e, w.file, w.line)
		}
		if e.Offset < 0 || e.Length < 0 || e.Offset+e.Length > int64(len(kept)) {
			t.Errorf("entry %d: offset %d length %d outside the %d-byte rejects file", i, e.Offset, e.Length, len(kept))
			continue
		}
		if cut := string(kept[e.Offset : e.Offset+e.Length]); cut != w.text {
			t.Errorf("entry %d (%s:%d): the slice of the rejects file is %.60q, want %.60q", i, w.file, w.line, cut, w.text)
		}
	}
	if got[len(got)-1].Kind != "line_too_long" {
		t.Errorf("the last reject is %q, want line_too_long", got[len(got)-1].Kind)
	}
	if !strings.Contains(stderr, "more rejected lines") || !strings.Contains(stderr, ".index.ndjson") {
		t.Errorf("stderr does not say where the rest are located: %s", tail(stderr))
	}
}

// tail is the end of a long stderr, for a failure message.
func tail(s string) string {
	if len(s) > 600 {
		return "..." + s[len(s)-600:]
	}
	return s
}
