package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/klauspost/compress/gzip"
	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

func TestReadBadLinesAreRejectedWithFileLineAndVerbatimText(t *testing.T) {
	lines := []string{
		`{"run_id":"a","step":0}`,
		`{"run_id":"a","step":1,`, // malformed
		`{"run_id":"a","step":"2"}`,
		`{"step":3}`,
		`{"run_id":"a"}`,
		`{"run_id":"a","step":-4}`,
		"{\"run_id\":\"a\",\x00\"step\":5}",
		`["not","an","object"]`,
		`{"run_id":"a","step":6,"tool_result":{"status":"503"}}`,
		`{"run_id":"a","step":7,"ts":false}`,
		`{"run_id":"a","step":8}`,
	}
	res := mustRead(t, []Source{memSource("logs/a.jsonl", []byte(strings.Join(lines, "\n")+"\n"))}, Options{})

	wantRejects := []Reject{
		{File: "logs/a.jsonl", Line: 2, Reason: "malformed JSON: unexpected end of JSON input"},
		{File: "logs/a.jsonl", Line: 3, Reason: "step: want integer, got string"},
		{File: "logs/a.jsonl", Line: 4, Reason: "run_id: missing or empty"},
		{File: "logs/a.jsonl", Line: 5, Reason: "step: missing"},
		{File: "logs/a.jsonl", Line: 6, Reason: "step: -4 is negative"},
		{File: "logs/a.jsonl", Line: 7, Reason: "NUL byte at column 15"},
		{File: "logs/a.jsonl", Line: 8, Reason: "not a JSON object: got array"},
		{File: "logs/a.jsonl", Line: 9, Reason: "tool_result.status: want integer, got string"},
		{File: "logs/a.jsonl", Line: 10, Reason: "ts: want RFC 3339 string or epoch milliseconds, got boolean"},
	}
	if !reflect.DeepEqual(res.rejects, wantRejects) {
		t.Errorf("rejects:\n got  %v\n want %v", res.rejects, wantRejects)
	}
	if want := strings.Join(lines[1:10], "\n") + "\n"; res.rejected != want {
		t.Errorf("Rejects output:\n got  %q\n want %q", res.rejected, want)
	}
	if len(res.rows) != 2 || num(res.rows[0]["src_line"]) != "1" || num(res.rows[1]["src_line"]) != "11" {
		t.Errorf("rows: %v", res.rows)
	}
	wantKinds := map[string]int64{KindMalformedJSON: 1, KindWrongType: 3, KindMissingField: 2, KindInvalidValue: 1, KindNULByte: 1, KindNotObject: 1}
	st := res.stats
	if st.Lines != 11 || st.Steps != 2 || st.Rejected != 9 || !reflect.DeepEqual(st.RejectsByKind, wantKinds) {
		t.Errorf("stats: %+v", st)
	}
}

func TestReadLineOverLimitIsRejectedVerbatim(t *testing.T) {
	long := `{"run_id":"r","step":1,"pad":"` + strings.Repeat("x", 200) + `"}`
	input := `{"run_id":"r","step":0}` + "\n" + long + "\n" + `{"run_id":"r","step":2}` + "\n"
	res := mustRead(t, []Source{memSource("a.jsonl", []byte(input))}, Options{MaxLineBytes: 64})
	if want := []string{"line exceeds 64 bytes"}; !reflect.DeepEqual(reasons(res.rejects), want) || res.rejects[0].Line != 2 {
		t.Errorf("rejects = %v, want line 2: %v", res.rejects, want)
	}
	if res.rejected != long+"\n" {
		t.Errorf("Rejects output = %q", res.rejected)
	}
	if len(res.rows) != 2 || num(res.rows[1]["src_line"]) != "3" {
		t.Errorf("rows = %v", res.rows)
	}
	if res.stats.RejectsByKind[KindLineTooLong] != 1 {
		t.Errorf("stats = %+v", res.stats)
	}
}

// maxWriteRecorder is a Rejects writer that remembers its largest write.
type maxWriteRecorder struct {
	bytes.Buffer
	maxWrite int
}

func (w *maxWriteRecorder) Write(p []byte) (int, error) {
	w.maxWrite = max(w.maxWrite, len(p))
	return w.Buffer.Write(p)
}

func TestReadLineLongerThanAnyBufferIsStreamedToRejects(t *testing.T) {
	// 4 MiB on one line with 4 KiB blocks: the line must reach Rejects whole
	// and in order without ever being held whole in memory.
	long := `{"run_id":"r","step":1,"pad":"` + strings.Repeat("0123456789abcdef", 256<<10) + `"}`
	input := `{"run_id":"r","step":0}` + "\n" + long + "\r\n" + `{"run_id":"r","step":2}` + "\n" + long
	var out maxWriteRecorder
	var got []Reject
	opts := Options{MaxLineBytes: 1024, blockBytes: 4096, chunkBytes: 4096, Rejects: &out, OnReject: func(r Reject) { got = append(got, r) }}
	for _, workers := range []int{1, 3} {
		out.Reset()
		got = nil
		opts.Workers = workers
		res := mustRead(t, []Source{memSource("a.jsonl", []byte(input))}, opts)
		if want := long + "\r\n" + long + "\n"; out.String() != want {
			t.Errorf("workers=%d: Rejects holds %d bytes, want the two long lines (%d bytes)", workers, out.Len(), len(want))
		}
		if out.maxWrite > 1<<20 {
			t.Errorf("workers=%d: a %d-byte write reached Rejects: the long line was buffered", workers, out.maxWrite)
		}
		// Offset and Length cut each line out of Rejects, its \r included.
		want := []Reject{{File: "a.jsonl", Line: 2, Reason: "line exceeds 1024 bytes", Kind: KindLineTooLong, Offset: 0, Length: int64(len(long)) + 1},
			{File: "a.jsonl", Line: 4, Reason: "line exceeds 1024 bytes", Kind: KindLineTooLong, Offset: int64(len(long)) + 2, Length: int64(len(long))}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers=%d: rejects = %v, want %v", workers, got, want)
		}
		if len(res.rows) != 2 || num(res.rows[1]["src_line"]) != "3" {
			t.Errorf("workers=%d: rows = %v", workers, res.rows)
		}
		if res.stats.Lines != 4 || res.stats.Bytes != int64(len(input)) {
			t.Errorf("workers=%d: stats = %+v", workers, res.stats)
		}
	}
}

func stepLines(run string, from, to int) string {
	var sb strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&sb, `{"run_id":%q,"step":%d,"tool_call":{"name":"search","args":{"q":"item %d"}}}`+"\n", run, i, i%5)
	}
	return sb.String()
}

func TestReadTruncatedGzipKeepsCompleteLinesAndRejectsTheBreak(t *testing.T) {
	plain := stepLines("r", 0, 5000)
	gz := gzipBytes(t, []byte(plain))
	cut := gz[:len(gz)/2]

	// What a decompressor gives before the break: its complete lines are analysed.
	zr, err := gzip.NewReader(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := io.ReadAll(zr)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("test setup: %v", err)
	}
	complete := bytes.Count(prefix, []byte("\n"))
	partial := prefix[bytes.LastIndexByte(prefix, '\n')+1:]

	res := mustRead(t, []Source{memSource("day.jsonl.gz", cut)}, Options{})
	if len(res.rows) != complete {
		t.Errorf("%d rows, want the %d complete lines before the break", len(res.rows), complete)
	}
	want := []Reject{{File: "day.jsonl.gz", Line: int64(complete + 1), Reason: "truncated gzip stream: unexpected EOF"}}
	if !reflect.DeepEqual(res.rejects, want) {
		t.Errorf("rejects = %v, want %v", res.rejects, want)
	}
	if res.rejected != string(partial)+"\n" {
		t.Errorf("Rejects = %q, want the partial line %q", res.rejected, partial)
	}
	if res.stats.RejectsByKind[KindTruncatedInput] != 1 || res.stats.Files != 1 || res.err != nil {
		t.Errorf("stats = %+v", res.stats)
	}
}

func TestReadGzipCutInsideItsHeaderIsARejectAtLineOne(t *testing.T) {
	res := mustRead(t, []Source{memSource("a.gz", []byte{0x1f, 0x8b, 0x08})}, Options{})
	want := []Reject{{File: "a.gz", Line: 1, Reason: "truncated gzip stream: unexpected EOF"}}
	if !reflect.DeepEqual(res.rejects, want) || len(res.rows) != 0 {
		t.Errorf("rejects = %v rows = %d", res.rejects, len(res.rows))
	}
}

func TestReadCorruptZstdIsAReject(t *testing.T) {
	plain := stepLines("r", 0, 3000)
	z := zstdBytes(t, []byte(plain))
	corrupt := bytes.Clone(z)
	corrupt[len(corrupt)/2] ^= 0xff
	res := mustRead(t, []Source{memSource("a.jsonl.zst", corrupt)}, Options{})
	if len(res.rejects) == 0 {
		t.Fatalf("no reject for a corrupt zstd stream; %d rows", len(res.rows))
	}
	last := res.rejects[len(res.rejects)-1]
	if !strings.HasPrefix(last.Reason, "corrupt zstd stream: ") && !strings.HasPrefix(last.Reason, "truncated zstd stream: ") {
		t.Errorf("last reject = %v", last)
	}
	if last.Line != int64(len(res.rows)+len(res.rejects)) {
		t.Errorf("the break is at line %d, after %d rows and %d other rejects", last.Line, len(res.rows), len(res.rejects)-1)
	}
	if res.stats.RejectsByKind[KindTruncatedInput] != 1 {
		t.Errorf("stats = %+v", res.stats)
	}

	res = mustRead(t, []Source{memSource("b.zst", z[:len(z)-3])}, Options{})
	if got := reasons(res.rejects); len(got) != 1 || got[0] != "truncated zstd stream: unexpected EOF" {
		t.Errorf("truncated zstd: rejects = %v", got)
	}
}

func TestReadDetectsCompressionByMagicNotName(t *testing.T) {
	plain := []byte(stepLines("r", 0, 100))
	gz := gzipBytes(t, plain)
	twoMembers := append(gzipBytes(t, plain[:len(plain)/2]), gzipBytes(t, plain[len(plain)/2:])...)
	for _, src := range []Source{
		memSource("plain.jsonl", plain),
		memSource("gzip-named.jsonl", gz),
		memSource("zstd-named.jsonl", zstdBytes(t, plain)),
		memSource("plain-named.gz", plain),
		memSource("two-members.jsonl.gz", twoMembers),
	} {
		res := mustRead(t, []Source{src}, Options{})
		if len(res.rows) != 100 || len(res.rejects) != 0 || res.stats.Bytes != int64(len(plain)) {
			t.Errorf("%s: %d rows, rejects %v, %d bytes", src.Name, len(res.rows), res.rejects, res.stats.Bytes)
		}
	}
}

func TestReadEmptyFiles(t *testing.T) {
	res := mustRead(t, []Source{
		memSource("empty.jsonl", nil),
		memSource("blank.jsonl", []byte("\n  \n\r\n")),
		memSource("empty.jsonl.gz", gzipBytes(t, nil)),
		memSource("bom-only.jsonl", bom),
		memSource("one.jsonl", []byte(`{"run_id":"r","step":0}`)),
	}, Options{})
	st := res.stats
	if st.Files != 5 || st.EmptyFiles != 4 || st.Steps != 1 || st.Lines != 1 || st.BlankLines != 3 || len(res.rejects) != 0 {
		t.Errorf("stats = %+v, rejects = %v", st, res.rejects)
	}
}

func failingSource(name string, err error) Source {
	return Source{Name: name, Size: -1, Open: func() (io.ReadCloser, error) { return nil, err }}
}

// brokenReader yields data, then fails like a disk or a network would.
type brokenReader struct {
	data []byte
	err  error
}

func (r *brokenReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadUnreadableSources(t *testing.T) {
	good := memSource("good.jsonl", []byte(stepLines("r", 0, 3)))
	denied := failingSource("logs/denied.jsonl", &os.PathError{Op: "open", Path: "logs/denied.jsonl", Err: os.ErrPermission})
	s3 := failingSource("s3://bucket/a.jsonl", errors.New("connection reset"))
	midway := Source{Name: "midway.jsonl", Size: -1, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(&brokenReader{data: []byte(stepLines("m", 0, 2) + `{"run_id":"m",`), err: errors.New("input/output error")}), nil
	}}

	t.Run("fails Read without KeepGoing", func(t *testing.T) {
		res := read(t, []Source{good, denied, good}, Options{})
		var serr *SourceError
		if !errors.As(res.err, &serr) || serr.Source != "logs/denied.jsonl" || !errors.Is(res.err, os.ErrPermission) {
			t.Fatalf("err = %v", res.err)
		}
		if got := res.err.Error(); got != "open logs/denied.jsonl: permission denied" {
			t.Errorf("message = %q", got)
		}
		if len(res.rows) != 3 {
			t.Errorf("%d rows: the source before the failure is analysed", len(res.rows))
		}
		if res := read(t, []Source{s3}, Options{}); res.err == nil || res.err.Error() != "s3://bucket/a.jsonl: connection reset" {
			t.Errorf("err = %v", res.err)
		}
		if res := read(t, []Source{midway}, Options{}); res.err == nil || res.err.Error() != "midway.jsonl: input/output error" {
			t.Errorf("err = %v", res.err)
		}
	})
	t.Run("recorded and skipped with KeepGoing", func(t *testing.T) {
		res := mustRead(t, []Source{good, denied, s3, midway, good}, Options{KeepGoing: true})
		var failed []string
		for _, f := range res.stats.Failed {
			failed = append(failed, f.Error())
		}
		want := []string{"open logs/denied.jsonl: permission denied", "s3://bucket/a.jsonl: connection reset", "midway.jsonl: input/output error"}
		if !reflect.DeepEqual(failed, want) {
			t.Errorf("Failed = %q, want %q", failed, want)
		}
		if len(res.rows) != 3+2+3 || res.stats.Files != 2 || len(res.rejects) != 0 {
			t.Errorf("%d rows, stats %+v, rejects %v", len(res.rows), res.stats, res.rejects)
		}
	})
	t.Run("chmod 000", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file; the failing Open sources above cover this")
		}
		path := filepath.Join(t.TempDir(), "locked.jsonl")
		if err := os.WriteFile(path, []byte(stepLines("r", 0, 1)), 0o000); err != nil {
			t.Fatal(err)
		}
		srcs, err := ExpandPaths([]string{path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res := read(t, srcs, Options{}); !errors.Is(res.err, os.ErrPermission) {
			t.Errorf("err = %v", res.err)
		}
		if res := mustRead(t, srcs, Options{KeepGoing: true}); len(res.stats.Failed) != 1 {
			t.Errorf("Failed = %v", res.stats.Failed)
		}
	})
}

func TestReadCRLFAndBOM(t *testing.T) {
	lf := `{"run_id":"r","step":0}` + "\n" + `{"run_id":"r","step":1}` + "\n" + `bad` + "\n"
	crlf := "\ufeff" + strings.ReplaceAll(lf, "\n", "\r\n")
	a := mustRead(t, []Source{memSource("x", []byte(lf))}, Options{})
	b := mustRead(t, []Source{memSource("x", []byte(crlf))}, Options{})
	if !reflect.DeepEqual(a.rows, b.rows) || len(a.rows) != 2 {
		t.Errorf("CRLF+BOM rows differ from LF rows:\n%v\n%v", a.rows, b.rows)
	}
	if num(b.rows[0]["line_hash"]) != fmt.Sprint(xxh3.HashString(`{"run_id":"r","step":0}`)) {
		t.Errorf("line_hash must not include the BOM or the CR")
	}
	if !reflect.DeepEqual(a.rejects, b.rejects) || b.rejected != "bad\r\n" {
		t.Errorf("rejects %v vs %v; Rejects output %q keeps the line as it was", a.rejects, b.rejects, b.rejected)
	}
	// A BOM is only stripped at the start of a source.
	mid := mustRead(t, []Source{memSource("x", []byte(lf+"\ufeff"+`{"run_id":"r","step":2}`))}, Options{})
	if len(mid.rejects) != 2 {
		t.Errorf("a BOM inside a source is data: rejects = %v", mid.rejects)
	}
}

func TestReadBlankLinesAreCountedNotRejected(t *testing.T) {
	input := "\n" + `{"run_id":"r","step":0}` + "\n   \n\t\n\r\n" + `{"run_id":"r","step":1}` + "\n\n"
	res := mustRead(t, []Source{memSource("x", []byte(input))}, Options{})
	if res.stats.BlankLines != 5 || res.stats.Lines != 2 || len(res.rejects) != 0 {
		t.Errorf("stats = %+v rejects = %v", res.stats, res.rejects)
	}
	if num(res.rows[0]["src_line"]) != "2" || num(res.rows[1]["src_line"]) != "6" {
		t.Errorf("blank lines still count in line numbers: %v %v", res.rows[0]["src_line"], res.rows[1]["src_line"])
	}
}

func TestReadStdin(t *testing.T) {
	srcs, err := ExpandPaths([]string{"-", "-"}, strings.NewReader(stepLines("r", 0, 4)))
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 1 || srcs[0].Name != "<stdin>" || srcs[0].Size != -1 {
		t.Fatalf("sources = %+v", srcs)
	}
	res := mustRead(t, srcs, Options{})
	if len(res.rows) != 4 || res.rows[3]["run_id"] != "r" {
		t.Errorf("rows = %v", res.rows)
	}
}

func TestReadInterleavedRunsKeepInputOrderAndLocation(t *testing.T) {
	a := `{"run_id":"A","step":0}` + "\n" + `{"run_id":"B","step":0}` + "\n" + `{"run_id":"A","step":2}` + "\n" + `{"run_id":"A","step":1}` + "\n"
	b := `{"run_id":"B","step":1}` + "\n" + `{"run_id":"A","step":3}` + "\n"
	res := mustRead(t, []Source{memSource("a", []byte(a)), memSource("b", []byte(b))}, Options{})
	var got []string
	for _, r := range res.rows {
		got = append(got, fmt.Sprintf("%s%s@%s:%s", r["run_id"], num(r["step"]), num(r["src_file"]), num(r["src_line"])))
	}
	want := []string{"A0@0:1", "B0@0:2", "A2@0:3", "A1@0:4", "B1@1:1", "A3@1:2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
}

// mixedInput is a source with everything framing and decoding must get
// right at once: runs, rejects of each kind, blank lines, CRLF and long lines.
func mixedInput(seed, n int) []byte {
	var sb strings.Builder
	for i := range n {
		switch k := (i*7 + seed) % 23; {
		case k == 0:
			sb.WriteString("{\"run_id\":\"x\",\"step\":1,\"note\":\"NUL\x00here\"}\n")
		case k == 1:
			sb.WriteString("\n")
		case k == 2:
			fmt.Fprintf(&sb, `{"run_id":"r%d","step":"%d"}`+"\n", i%5, i)
		case k == 3:
			fmt.Fprintf(&sb, `{"run_id":"r%d","step":%d,"pad":"%s"}`+"\n", i%5, i, strings.Repeat("p", 300+i%700))
		case k == 4:
			sb.WriteString(`{"broken":` + "\r\n")
		default:
			fmt.Fprintf(&sb, `{"run_id":"r%d","step":%d,"state":"ACT","tool_call":{"name":"t%d","args":{"q":"%d","k":[%d]}},`+
				`"tool_result":{"ok":%v,"result_count":%d},"memory":{"retrieved":["m%d"]},"usage":{"prompt_tokens":%d}}`+"\r\n",
				i%5, i, i%3, i%11, i, i%4 != 0, i%3, i%6, i)
		}
	}
	return []byte(sb.String())
}

func TestReadOutputIsIdenticalWhateverTheWorkers(t *testing.T) {
	sources := []Source{
		memSource("a.jsonl", mixedInput(0, 3000)),
		memSource("b.jsonl.gz", gzipBytes(t, mixedInput(1, 2000))),
		memSource("empty.jsonl", nil),
		memSource("c.jsonl.zst", zstdBytes(t, mixedInput(2, 2500))),
	}
	// Small blocks and chunks make many chunks, lines across blocks and long-line streams.
	opts := Options{MaxLineBytes: 900, BatchRows: 97, blockBytes: 2048, chunkBytes: 16 << 10, KeepText: true}
	opts.Workers = 1
	one := mustRead(t, sources, opts)
	opts.Workers = 4
	four := mustRead(t, sources, opts)

	if len(one.batchJSON) < 20 {
		t.Fatalf("only %d batches: the test does not exercise parallel chunks", len(one.batchJSON))
	}
	if !reflect.DeepEqual(one.batchJSON, four.batchJSON) {
		t.Errorf("batches differ between 1 and 4 workers")
	}
	if !reflect.DeepEqual(one.rejects, four.rejects) || one.rejected != four.rejected {
		t.Errorf("rejects differ between 1 and 4 workers")
	}
	if !reflect.DeepEqual(one.stats, four.stats) {
		t.Errorf("stats differ:\n%+v\n%+v", one.stats, four.stats)
	}
	kinds := one.stats.RejectsByKind
	if kinds[KindNULByte] == 0 || kinds[KindWrongType] == 0 || kinds[KindLineTooLong] == 0 || kinds[KindMalformedJSON] == 0 || one.stats.BlankLines == 0 {
		t.Errorf("input lacks a kind of line: %+v", one.stats)
	}
}

func TestReadFramingDoesNotChangeRows(t *testing.T) {
	sources := []Source{memSource("a.jsonl", mixedInput(3, 1000)), memSource("b.jsonl.gz", gzipBytes(t, mixedInput(4, 500)))}
	base := mustRead(t, sources, Options{MaxLineBytes: 900, Workers: 2})
	for _, o := range []Options{
		{blockBytes: 64, chunkBytes: 100, BatchRows: 1},
		{blockBytes: 1000, chunkBytes: 1, BatchRows: 5},
		{blockBytes: 4096, chunkBytes: 3000, BatchRows: 50},
		{blockBytes: 1 << 16, BatchRows: 100000},
	} {
		o.MaxLineBytes, o.Workers = 900, 3
		got := mustRead(t, sources, o)
		if !reflect.DeepEqual(got.rows, base.rows) || !reflect.DeepEqual(got.rejects, base.rejects) || got.rejected != base.rejected {
			t.Errorf("block %d chunk %d rows %d: output differs from the default framing", o.blockBytes, o.chunkBytes, o.BatchRows)
		}
		if !reflect.DeepEqual(got.stats, base.stats) {
			t.Errorf("block %d chunk %d rows %d: stats %+v, want %+v", o.blockBytes, o.chunkBytes, o.BatchRows, got.stats, base.stats)
		}
	}
}

func TestReadBatchesHoldOneSourceAndAtMostBatchRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sources := []Source{memSource("a", []byte(stepLines("a", 0, 250))), memSource("b", []byte(stepLines("b", 0, 130)))}
	var sizes []int64
	_, err := Read(context.Background(), sources, Options{Alloc: mem, BatchRows: 100}, func(b arrow.RecordBatch) error {
		sizes = append(sizes, b.NumRows())
		files := b.Column(schema.ColSrcFile)
		for i := 1; i < files.Len(); i++ {
			if files.ValueStr(i) != files.ValueStr(0) {
				t.Errorf("a batch spans sources")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{100, 100, 50, 100, 30}; !reflect.DeepEqual(sizes, want) {
		t.Errorf("batch sizes = %v, want %v", sizes, want)
	}
}

func TestReadStopsOnEmitErrorAndReleasesEverything(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sources := []Source{memSource("a.jsonl", mixedInput(0, 5000)), memSource("b.jsonl", mixedInput(1, 5000))}
	boom := errors.New("disk full")
	calls := 0
	_, err := Read(context.Background(), sources, Options{Alloc: mem, BatchRows: 50, Workers: 4, MaxLineBytes: 900, blockBytes: 4096},
		func(arrow.RecordBatch) error {
			if calls++; calls == 3 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "a.jsonl: ") {
		t.Errorf("err = %v", err)
	}
}

func TestReadCancelled(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	sources := []Source{memSource("a.jsonl", mixedInput(0, 20000))}
	_, err := Read(ctx, sources, Options{Alloc: mem, BatchRows: 50, MaxLineBytes: 900, blockBytes: 4096}, func(arrow.RecordBatch) error {
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "a.jsonl: ") {
		t.Errorf("err = %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestReadFailsWhenRejectsCannotBeWritten(t *testing.T) {
	input := "bad\n" + strings.Repeat("worse\n", 20000) + stepLines("r", 0, 3)
	res := read(t, []Source{memSource("a", []byte(input))}, Options{Rejects: failingWriter{}})
	if res.err == nil || !strings.Contains(res.err.Error(), "write rejects: no space left on device") {
		t.Errorf("err = %v", res.err)
	}
	long := strings.Repeat("x", 10000)
	res = read(t, []Source{memSource("a", []byte(long))}, Options{Rejects: failingWriter{}, MaxLineBytes: 100, blockBytes: 1024})
	if res.err == nil || !strings.Contains(res.err.Error(), "write rejects") {
		t.Errorf("long line: err = %v", res.err)
	}
}

func TestReadRequiresAnAllocator(t *testing.T) {
	if _, err := Read(context.Background(), nil, Options{}, nil); err == nil {
		t.Error("no error without Options.Alloc")
	}
}

func TestReadStreamBreakingInsideALongLineIsOneReject(t *testing.T) {
	long := `{"run_id":"r","step":1,"pad":"` + strings.Repeat("abcdefgh", 64<<10) + `"}`
	gz := gzipBytes(t, []byte(`{"run_id":"r","step":0}`+"\n"+long+"\n"))
	cut := gz[:len(gz)*3/4]
	res := mustRead(t, []Source{memSource("a.gz", cut)}, Options{MaxLineBytes: 1000, blockBytes: 4096})
	want := []Reject{{File: "a.gz", Line: 2, Reason: "truncated gzip stream: unexpected EOF"}}
	if !reflect.DeepEqual(res.rejects, want) || len(res.rows) != 1 {
		t.Errorf("rejects = %v, %d rows", res.rejects, len(res.rows))
	}
	if !strings.HasPrefix(long, strings.TrimSuffix(res.rejected, "\n")) || len(res.rejected) < 100000 {
		t.Errorf("Rejects must hold the line's bytes up to the break: %d bytes", len(res.rejected))
	}
	if res.stats.Lines != 2 || res.stats.RejectsByKind[KindTruncatedInput] != 1 || res.stats.RejectsByKind[KindLineTooLong] != 0 {
		t.Errorf("stats = %+v", res.stats)
	}
}

func TestReadWithoutEmitCountsRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	st, err := Read(context.Background(), []Source{memSource("a", []byte(stepLines("r", 0, 10)))}, Options{Alloc: mem}, nil)
	if err != nil || st.Steps != 10 {
		t.Errorf("steps = %d, err = %v", st.Steps, err)
	}
}

// OnReject gives each rejected line's kind and its bytes as read, so that
// a caller can keep the line with its location (a dead-letter output).
func TestOnRejectGivesKindAndLine(t *testing.T) {
	in := "{\"run_id\":\"a\",\"step\":0}\n{\"run_id\":\"a\",\"step\":\"x\"}\n{oops\n"
	var got []Reject
	opts := Options{Alloc: memory.NewGoAllocator(), OnReject: func(r Reject) {
		r.Raw = bytes.Clone(r.Raw)
		got = append(got, r)
	}}
	if _, err := Read(t.Context(), []Source{memSource("a.jsonl", []byte(in))}, opts, func(rec arrow.RecordBatch) error { rec.Release(); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Reject{
		{File: "a.jsonl", Line: 2, Reason: "step: want integer, got string", Kind: KindWrongType, Raw: []byte(`{"run_id":"a","step":"x"}`), Offset: 0, Length: 25},
		{File: "a.jsonl", Line: 3, Kind: KindMalformedJSON, Raw: []byte(`{oops`), Offset: 26, Length: 5},
	}
	if len(got) != len(want) {
		t.Fatalf("rejects %+v", got)
	}
	for i := range want {
		got[i].Reason = want[i].Reason // reasons are tested above
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("reject %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
