package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
)

// stepStructs are the Arrow types a table of steps holds its objects in
// here, as a writer that infers struct columns from JSON would.
var stepStructs = map[string]*arrow.StructType{
	"tool_call": arrow.StructOf(
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "args", Type: arrow.BinaryTypes.String, Nullable: true}),
	"tool_result": arrow.StructOf(
		arrow.Field{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "error_type", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "retryable", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "found", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "items", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "data", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "confidence", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "reports_failure", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}),
	"memory": arrow.StructOf(
		arrow.Field{Name: "retrieved", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "written", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "write_tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "entries", Type: arrow.BinaryTypes.String, Nullable: true}),
	"decision": arrow.StructOf(
		arrow.Field{Name: "next_state", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true}),
	"usage": arrow.StructOf(
		arrow.Field{Name: "prompt_tokens", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "completion_tokens", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true}),
	"budget": arrow.StructOf(
		arrow.Field{Name: "max_steps", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "max_tool_calls", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
}

// stepTableSchema is a table of steps with struct columns, the time as an
// Arrow timestamp.
func stepTableSchema() *arrow.Schema {
	fields := []arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "step", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_ms, Nullable: true},
		{Name: "state", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "goal", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "intent", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "artifacts", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}
	for _, obj := range []string{"tool_call", "tool_result", "memory", "decision", "usage", "budget"} {
		fields = append(fields, arrow.Field{Name: obj, Type: stepStructs[obj], Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// jsonTextMembers are the members whose JSON the table keeps as text.
var jsonTextMembers = map[string][]string{"tool_call": {"args"}, "tool_result": {"items", "data"}, "memory": {"entries"}}

// tableLines rewrites step lines for arrow's JSON reader: JSON-valued
// members become text holding their JSON.
func tableLines(t testing.TB, lines []string) []byte {
	t.Helper()
	out, err := toTableLines([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func toTableLines(lines []byte) ([]byte, error) {
	var out bytes.Buffer
	for l := range bytes.SplitSeq(lines, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(l, &m); err != nil {
			return nil, err
		}
		for obj, members := range jsonTextMembers {
			var o map[string]json.RawMessage
			if json.Unmarshal(m[obj], &o) != nil || o == nil {
				continue
			}
			for _, k := range members {
				if v, ok := o[k]; ok && v[0] != '"' { // the JSON as logged, as text; text as itself
					o[k], _ = json.Marshal(string(v))
				}
			}
			m[obj], _ = json.Marshal(o)
		}
		b, _ := json.Marshal(m)
		out.Write(append(b, '\n'))
	}
	return out.Bytes(), nil
}

// parquetOf writes the JSON lines as a Parquet file of schema sc, through
// arrow's JSON reader; rowGroup bounds the rows of a row group.
func parquetOf(t testing.TB, sc *arrow.Schema, jsonLines []byte, rowGroup int64) []byte {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b, err := writeParquetBytes(mem, sc, jsonLines, rowGroup)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeParquetBytes(mem memory.Allocator, sc *arrow.Schema, jsonLines []byte, rowGroup int64) ([]byte, error) {
	rdr := array.NewJSONReader(bytes.NewReader(jsonLines), sc, array.WithAllocator(mem), array.WithChunk(-1))
	defer rdr.Release()
	if !rdr.Next() {
		return nil, fmt.Errorf("JSON reader: %v", rdr.Err())
	}
	rec := rdr.RecordBatch()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, err
	}
	for off := int64(0); off < rec.NumRows(); off += rowGroup {
		part := rec.NewSlice(off, min(off+rowGroup, rec.NumRows()))
		err := w.Write(part)
		part.Release()
		if err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fixtureLines are the non-blank lines of the detector fixtures: steps
// that use every object of the schema.
func fixtureLines(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob("../fixtures/detectors/*.positive.jsonl")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	var lines []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				lines = append(lines, l)
			}
		}
		fh.Close()
	}
	return lines
}

// withoutLineHash drops line_hash, the one column a row and a line fill
// differently (the hash of a line's bytes; of a row's values).
func withoutLineHash(rows []map[string]any) []map[string]any {
	for _, r := range rows {
		delete(r, "line_hash")
	}
	return rows
}

// A table of runaway's steps reads as the same rows as the same steps
// logged as JSON lines: every field, every derived column, same line
// numbers (rows), whatever the row groups and batches.
func TestParquetStepsReadAsTheirLines(t *testing.T) {
	lines := fixtureLines(t)
	jsonl := []byte(strings.Join(lines, "\n") + "\n")
	pq := parquetOf(t, stepTableSchema(), tableLines(t, lines), 37)
	opts := Options{KeepText: true, BatchRows: 50}
	want := mustRead(t, []Source{memSource("steps.jsonl", jsonl)}, opts)
	got := mustRead(t, []Source{memSource("steps.parquet", pq)}, opts)
	if len(got.rejects) != 0 {
		t.Fatalf("rejects: %v", reasons(got.rejects))
	}
	if len(got.rows) != len(lines) || got.stats.Steps != int64(len(lines)) {
		t.Fatalf("%d rows, %d steps; want %d", len(got.rows), got.stats.Steps, len(lines))
	}
	w, g := withoutLineHash(want.rows), withoutLineHash(got.rows)
	for i := range w {
		wb, _ := json.Marshal(w[i])
		gb, _ := json.Marshal(g[i])
		if !bytes.Equal(wb, gb) {
			t.Fatalf("row %d differs:\n line: %s\n  row: %s", i+1, wb, gb)
		}
	}
	if fs := got.stats.Formats[FormatParquetSteps]; fs.Files != 1 || fs.Steps != int64(len(lines)) {
		t.Errorf("formats: %+v", got.stats.Formats)
	}
}

// The same steps as flat columns named with dots, and as objects held in
// text columns as JSON, read the same.
func TestParquetStepsFlatAndJSONTextColumns(t *testing.T) {
	lines := fixtureLines(t)[:40]
	base := mustRead(t, []Source{memSource("steps.jsonl", []byte(strings.Join(lines, "\n")))}, Options{})

	// Flat: tool_call.name, tool_result.ok, ... as their own columns.
	flatFields := []arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String}, {Name: "step", Type: arrow.PrimitiveTypes.Int32},
		{Name: "ts", Type: arrow.BinaryTypes.String}, {Name: "state", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "intent", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "artifacts", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}
	var flat bytes.Buffer
	objText := []arrow.Field{}
	for _, obj := range []string{"tool_call", "tool_result", "memory", "decision", "usage", "budget"} {
		for _, f := range stepStructs[obj].Fields() {
			f.Name = obj + "." + f.Name
			flatFields = append(flatFields, f)
		}
		objText = append(objText, arrow.Field{Name: obj, Type: arrow.BinaryTypes.String, Nullable: true})
	}
	var text bytes.Buffer
	for i, l := range strings.Split(strings.TrimSpace(string(tableLines(t, lines))), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(l), &m)
		fm := map[string]any{}
		for k, v := range m {
			if o, isObj := v.(map[string]any); isObj {
				for kk, vv := range o {
					fm[k+"."+kk] = vv
				}
			} else {
				fm[k] = v
			}
		}
		// Each object as the text the line holds.
		var orig map[string]json.RawMessage
		json.Unmarshal([]byte(lines[i]), &orig)
		tm := map[string]any{}
		for k, v := range orig {
			if v[0] == '{' {
				tm[k] = string(v)
			} else {
				tm[k] = v
			}
		}
		b, _ := json.Marshal(fm)
		flat.Write(append(b, '\n'))
		b, _ = json.Marshal(tm)
		text.Write(append(b, '\n'))
	}
	textFields := append(slices.Clone(flatFields[:6]), objText...)
	for name, pq := range map[string][]byte{
		"flat":      parquetOf(t, arrow.NewSchema(flatFields, nil), flat.Bytes(), 1000),
		"json-text": parquetOf(t, arrow.NewSchema(textFields, nil), text.Bytes(), 1000),
	} {
		got := mustRead(t, []Source{memSource(name+".parquet", pq)}, Options{})
		if len(got.rejects) != 0 || len(got.rows) != len(base.rows) {
			t.Fatalf("%s: %d rows, rejects %v", name, len(got.rows), reasons(got.rejects))
		}
		w, g := withoutLineHash(base.rows), withoutLineHash(got.rows)
		for i := range w {
			wb, _ := json.Marshal(w[i])
			gb, _ := json.Marshal(g[i])
			if !bytes.Equal(wb, gb) {
				t.Fatalf("%s: row %d differs:\n line: %s\n  row: %s", name, i+1, wb, gb)
			}
		}
	}
}

// A row that cannot be a step is a reject naming its row and column, kept
// in the rejects file as the row's JSON; the other rows are read.
func TestParquetBadRowsAreRejects(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "step", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	pq := parquetOf(t, sc, []byte(`{"run_id":"r","step":"1","ts":"2026-01-01T00:00:00Z"}
{"run_id":"r","step":"two","ts":"2026-01-01T00:00:01Z"}
{"step":"3","ts":"2026-01-01T00:00:02Z"}
{"run_id":"r","step":"4","ts":"yesterday"}
{"run_id":"r","step":"5","ts":"1767225605"}
`), 100)
	res := mustRead(t, []Source{memSource("bad.parquet", pq)}, Options{})
	if res.stats.Steps != 2 || res.stats.Rejected != 3 {
		t.Fatalf("steps %d rejected %d: %v", res.stats.Steps, res.stats.Rejected, reasons(res.rejects))
	}
	want := []struct {
		line int64
		has  string
	}{{2, `column step: "two" is not a number`}, {3, "run_id"}, {4, `column ts: "yesterday" is not a time`}}
	for i, w := range want {
		r := res.rejects[i]
		if r.File != "bad.parquet" || r.Line != w.line || !strings.Contains(r.Reason, w.has) {
			t.Errorf("reject %d: %+v, want row %d saying %q", i, r, w.line, w.has)
		}
	}
	kept := strings.Split(strings.TrimSpace(res.rejected), "\n")
	if len(kept) != 3 || kept[0] != `{"run_id":"r","step":"two","ts":"2026-01-01T00:00:01Z"}` {
		t.Errorf("rejects file:\n%s", res.rejected)
	}
}

// A table that is neither steps nor a tracing export is every row a
// reject that names its columns; a file that is not Parquet after its
// magic is a source that cannot be read.
func TestParquetUnknownAndCorrupt(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "city", Type: arrow.BinaryTypes.String}, {Name: "temp", Type: arrow.PrimitiveTypes.Float64}}, nil)
	pq := parquetOf(t, sc, []byte("{\"city\":\"Oslo\",\"temp\":3.5}\n{\"city\":\"Rome\",\"temp\":14}\n"), 10)
	res := mustRead(t, []Source{memSource("weather.parquet", pq)}, Options{})
	if res.stats.Steps != 0 || res.stats.Rejected != 2 || len(res.stats.Unread) != 1 {
		t.Fatalf("steps %d rejected %d unread %v", res.stats.Steps, res.stats.Rejected, res.stats.Unread)
	}
	if r := res.rejects[0].Reason; !strings.Contains(r, "columns (city, temp)") || !strings.Contains(r, "no run_id column") || !strings.Contains(r, "langfuse:") {
		t.Errorf("reason: %s", r)
	}

	res = read(t, []Source{memSource("broken.parquet", []byte("PAR1 this is not a parquet file"))}, Options{})
	if res.err == nil || !strings.Contains(res.err.Error(), "broken.parquet") || !strings.Contains(res.err.Error(), "not a readable Parquet file") {
		t.Fatalf("err = %v", res.err)
	}
}

// A Parquet file named on the command line is read at offsets from disk;
// a walk of a directory picks it up; run selection applies to its rows.
func TestParquetFileOnDiskAndSelection(t *testing.T) {
	lines := fixtureLines(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "steps.parquet")
	if err := os.WriteFile(path, parquetOf(t, stepTableSchema(), tableLines(t, lines), 64), 0o644); err != nil {
		t.Fatal(err)
	}
	sources, err := ExpandPaths([]string{dir}, nil)
	if err != nil || len(sources) != 1 {
		t.Fatalf("walk: %v %v", sources, err)
	}
	all := mustRead(t, sources, Options{})
	if all.stats.Steps != int64(len(lines)) {
		t.Fatalf("%d steps, want %d", all.stats.Steps, len(lines))
	}
	var first map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	id := first["run_id"].(string)
	sel := mustRead(t, sources, Options{RunIDs: []string{id}})
	n := 0
	for _, l := range lines {
		var s struct {
			RunID string `json:"run_id"`
		}
		json.Unmarshal([]byte(l), &s)
		if s.RunID == id {
			n++
		}
	}
	if sel.stats.Steps != int64(n) || sel.stats.Skipped != int64(len(lines)-n) {
		t.Errorf("selected %d skipped %d, want %d and %d", sel.stats.Steps, sel.stats.Skipped, n, len(lines)-n)
	}
}

// A Parquet object in an S3-compatible store is listed with the logs
// beside it and read at offsets through ranged reads.
func TestParquetFromS3(t *testing.T) {
	lines := fixtureLines(t)
	f := newFakeS3(t)
	f.bucket("b")
	f.put("b", "exports/steps.parquet", parquetOf(t, stepTableSchema(), tableLines(t, lines), 50))
	f.put("b", "exports/more.jsonl", []byte(lines[0]+"\n"))
	res := readSeq(t, expand(t, []string{f.url("b/exports/")}, Filter{}), Options{})
	if res.err != nil || len(res.rejects) != 0 {
		t.Fatalf("err %v, rejects %v", res.err, reasons(res.rejects))
	}
	if want := []string{"s3://b/exports/more.jsonl", "s3://b/exports/steps.parquet"}; !slices.Equal(res.names, want) {
		t.Errorf("sources %q, want %q", res.names, want)
	}
	if len(res.rows) != len(lines)+1 {
		t.Errorf("%d rows, want %d", len(res.rows), len(lines)+1)
	}
}

// Decimals stored as big-endian two's complement read as the number they
// stand for, positive and negative, in a few bytes or in sixteen.
func TestParquetDecimalBytes(t *testing.T) {
	for _, tc := range []struct {
		raw   []byte
		scale int
		want  float64
	}{
		{[]byte{0x04, 0xd2}, 2, 12.34},
		{[]byte{0xfb, 0x2e}, 2, -12.34},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0, -1},
		{[]byte{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x39}, 3, 12.345},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xcf, 0xc7}, 3, -12.345},
	} {
		b := array.NewFloat64Builder(memory.NewGoAllocator())
		decimalReader(parquet.FixedLenByteArray, tc.scale)(b, parquet.FixedLenByteArrayValue(tc.raw))
		arr := b.NewFloat64Array()
		if got := arr.Value(0); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("% x scale %d: %v, want %v", tc.raw, tc.scale, got, tc.want)
		}
		arr.Release()
		b.Release()
	}
}

// A dataset of agent runs published as Parquet, a run a row (SWE-Gym's
// OpenHands trajectories, with a messages column of chat messages and
// their tool calls): each row is read as the document its columns make,
// named by its row and the run's own id, as a line of JSON Lines is.
func TestParquetRowsThatAreRunDocuments(t *testing.T) {
	call := arrow.StructOf(
		arrow.Field{Name: "id", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "type", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "function", Type: arrow.StructOf(
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "arguments", Type: arrow.BinaryTypes.String, Nullable: true},
		), Nullable: true},
	)
	msg := arrow.StructOf(
		arrow.Field{Name: "role", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "content", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "tool_call_id", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "tool_calls", Type: arrow.ListOf(call), Nullable: true},
	)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "instance_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "run_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "resolved", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "messages", Type: arrow.ListOf(msg), Nullable: true},
	}, nil)
	row := func(id string, repeats int) string {
		msgs := `{"role": "user", "content": "fix the failing test", "tool_call_id": null, "tool_calls": null}`
		for k := range repeats {
			msgs += fmt.Sprintf(`, {"role": "assistant", "content": "", "tool_call_id": null, "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": "execute_bash", "arguments": "{\"command\": \"pytest tests/test_io.py\"}"}}]}`, k) +
				fmt.Sprintf(`, {"role": "tool", "content": "E   ImportError: cannot import name 'load'\n1 failed in 0.2s", "tool_call_id": "c%d", "tool_calls": null}`, k)
		}
		msgs += `, {"role": "assistant", "content": "I could not fix it.", "tool_call_id": null, "tool_calls": null}`
		return `{"instance_id": "` + id + `", "run_id": "gpt-4o_maxiter_50", "resolved": false, "messages": [` + msgs + `]}`
	}
	data := parquetOf(t, sc, []byte(row("io-1_0", 6)+"\n"+row("io-2_0", 1)+"\n"), 1)
	res := mustRead(t, []Source{memSource("train-00000-of-00001.parquet", data)}, Options{})
	if len(res.rejects) != 0 {
		t.Fatalf("rejects %v", reasons(res.rejects))
	}
	steps := map[string]int{}
	for _, r := range res.rows {
		steps[r["run_id"].(string)]++
	}
	if steps["train-00000-of-00001.parquet:1#io-1_0"] != 7 || steps["train-00000-of-00001.parquet:2#io-2_0"] != 2 || len(steps) != 2 {
		t.Errorf("steps per run %v, want 7 and 2 steps of the two rows' runs", steps)
	}
	if n := res.stats.Formats["openai-messages"]; n.Steps != 9 {
		t.Errorf("formats %v, want the rows read by openai-messages", res.stats.Formats)
	}
}
