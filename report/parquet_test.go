package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// writeParquet writes runs with row groups of groupRuns runs and returns
// the file.
func writeParquet(t *testing.T, runs []detect.RunResult, groupRuns int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.groupRuns = groupRuns
	for i := range runs {
		if err := w.Write(&runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parquetRuns are the sample runs plus one whose strings are not valid
// UTF-8 and one with several error types, so that every column, the map's
// key order and the replacement of bad bytes are exercised.
func parquetRuns() []detect.RunResult {
	runs := sampleScan().Runs
	bad := hostileScan().Runs[0]
	bad.RunID = "bad-\xff\xfe-utf8"
	bad.Headline = "cut \xe2\x82 in the middle"
	bad.Indicators.ToolErrorsByType = map[string]int64{"TIMEOUT": 2, "RATE_LIMIT": 5, "SCHEMA_ERROR": 1}
	runs = append(runs, bad)
	sortByRunID(runs)
	return runs
}

// Every field of every run reads back from the Parquet file as the ndjson
// line says it, except where the formats differ on purpose: null for "no
// root cause" and "no onset", maps as key/value entries, lists and counts
// that ndjson omits when empty, and the extra detectors column.
func TestParquetRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	runs := parquetRuns()
	data := writeParquet(t, runs, 2)

	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rdr.NumRowGroups(), (len(runs)+1)/2; got != want {
		t.Errorf("%d row groups, want %d (one per 2 runs)", got, want)
	}
	if v := rdr.MetaData().KeyValueMetadata().FindValue("runaway.schema_version"); v == nil || *v != schema.OutputVersion {
		t.Errorf("runaway.schema_version = %v, want %s", v, schema.OutputVersion)
	}
	rdr.Close()

	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	layout, err := parquetLayout()
	if err != nil {
		t.Fatal(err)
	}
	// Type ids, not full equality: Parquet renames list and map children
	// ("element", "entries") and does not keep map key order flags.
	for i, want := range layout.schema.Fields() {
		got := tbl.Schema().Field(i)
		if got.Name != want.Name || got.Nullable != want.Nullable || !sameTypeShape(got.Type, want.Type) {
			t.Errorf("column %d reads back as %s, written as %s", i, got, want)
		}
	}
	if tbl.NumRows() != int64(len(runs)) {
		t.Fatalf("%d rows, want %d", tbl.NumRows(), len(runs))
	}
	for row := range runs {
		got := map[string]any{}
		for c := range int(tbl.NumCols()) {
			got[tbl.Schema().Field(c).Name] = cellJSON(t, tbl.Column(c), row)
		}
		want := parquetWant(t, runs[row], layout.schema)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("row %d:\n got %s\nwant %s", row, g, w)
		}
	}
}

// sameTypeShape compares type ids recursively.
func sameTypeShape(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	na, aok := a.(arrow.NestedType)
	nb, bok := b.(arrow.NestedType)
	if !aok || !bok {
		return aok == bok
	}
	fa, fb := na.Fields(), nb.Fields()
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if !sameTypeShape(fa[i].Type, fb[i].Type) {
			return false
		}
	}
	return true
}

// cellJSON is one cell as a decoded JSON value.
func cellJSON(t *testing.T, col *arrow.Column, row int) any {
	t.Helper()
	for _, chunk := range col.Data().Chunks() {
		if row >= chunk.Len() {
			row -= chunk.Len()
			continue
		}
		b, err := json.Marshal(chunk.GetOneForMarshal(row))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	t.Fatalf("column %s has no row %d", col.Name(), row)
	return nil
}

// parquetWant is the row r must read back as, built from its ndjson line
// (the output contract) and reshaped by the Arrow type of each column.
func parquetWant(t *testing.T, r detect.RunResult, sc *arrow.Schema) map[string]any {
	t.Helper()
	var line bytes.Buffer
	if err := WriteRunNDJSON(&line, &r); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(line.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	detectors := []any{}
	for _, f := range r.Findings {
		detectors = append(detectors, f.Detector)
	}
	obj["detectors"] = detectors
	want := map[string]any{}
	for _, f := range sc.Fields() {
		want[f.Name] = reshape(f.Type, obj[f.Name])
	}
	if want["root_cause"] == "" {
		want["root_cause"] = nil
	}
	if want["onset_step"] == float64(-1) {
		want["onset_step"] = nil
	}
	return want
}

// reshape turns a decoded ndjson value into the decoded JSON of the Arrow
// value of type typ: absent becomes the empty or zero value, an object of
// type map becomes key/value entries sorted by key.
func reshape(typ arrow.DataType, v any) any {
	switch typ := typ.(type) {
	case *arrow.MapType:
		m, _ := v.(map[string]any)
		entries := []any{}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			entries = append(entries, map[string]any{"key": k, "value": reshape(typ.ItemType(), m[k])})
		}
		return entries
	case *arrow.ListType:
		l, _ := v.([]any)
		out := []any{}
		for _, e := range l {
			out = append(out, reshape(typ.Elem(), e))
		}
		return out
	case *arrow.StructType:
		m, _ := v.(map[string]any)
		out := map[string]any{}
		for _, f := range typ.Fields() {
			out[f.Name] = reshape(f.Type, m[f.Name])
		}
		return out
	}
	if v != nil {
		return v
	}
	switch typ.ID() {
	case arrow.STRING:
		return ""
	case arrow.BOOL:
		return false
	}
	return float64(0)
}

// The same runs give the same bytes, also after the compressors have
// served another file (they are pooled), so a nightly file can be diffed
// and cached by hash.
func TestParquetDeterministic(t *testing.T) {
	runs := parquetRuns()
	first := writeParquet(t, runs, 2)
	writeParquet(t, benchScan(5000).Runs, 1000)
	if second := writeParquet(t, runs, 2); !bytes.Equal(first, second) {
		t.Fatalf("two writes of the same runs differ (%d and %d bytes)", len(first), len(second))
	}
	// The same runs built in another order of map insertion.
	shuffled := parquetRuns()
	for i := range shuffled {
		m := map[string]int64{}
		keys := slices.Sorted(maps.Keys(shuffled[i].Indicators.ToolErrorsByType))
		slices.Reverse(keys)
		for _, k := range keys {
			m[k] = shuffled[i].Indicators.ToolErrorsByType[k]
		}
		shuffled[i].Indicators.ToolErrorsByType = m
	}
	if third := writeParquet(t, shuffled, 2); !bytes.Equal(first, third) {
		t.Fatal("the bytes depend on map insertion order")
	}
}

// A scan with no runs still gives a valid file with every column.
func TestParquetEmpty(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	data := writeParquet(t, nil, 2)
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	layout, _ := parquetLayout()
	if tbl.NumRows() != 0 || int(tbl.NumCols()) != len(layout.columns) {
		t.Errorf("empty file: %d rows, %d columns; want 0 rows, %d columns", tbl.NumRows(), tbl.NumCols(), len(layout.columns))
	}
}

// A failed write reaches the caller, from Write or at the latest from
// Close.
func TestParquetWriteError(t *testing.T) {
	// How many writes the whole file takes: the last one fails too.
	calls := &failingWriter{after: 1 << 30}
	w, err := NewParquetWriter(calls)
	if err != nil {
		t.Fatal(err)
	}
	w.groupRuns = 2
	for _, r := range benchScan(50).Runs {
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := 1<<30 - calls.after
	for _, after := range []int{0, 1, 3, n / 2, n - 1} {
		t.Run(fmt.Sprint(after), func(t *testing.T) {
			w, err := NewParquetWriter(&failingWriter{after: after})
			if err != nil {
				if !errors.Is(err, os.ErrClosed) {
					t.Errorf("NewParquetWriter: %v, want the writer's error", err)
				}
				return
			}
			w.groupRuns = 2
			var werr error
			runs := benchScan(50).Runs
			for i := range runs {
				if werr = w.Write(&runs[i]); werr != nil {
					break
				}
			}
			cerr := w.Close()
			if !errors.Is(cerr, os.ErrClosed) {
				t.Fatalf("Close: %v, want the writer's error", cerr)
			}
			if werr != nil && werr != cerr {
				t.Errorf("Close after a failed Write returned %v, want %v", cerr, werr)
			}
			if err := w.Write(&runs[0]); err == nil {
				t.Error("Write after a failure and Close succeeded")
			}
		})
	}
}

// The writer does not close what it writes to: the caller commits or
// aborts its output file.
func TestParquetLeavesWriterOpen(t *testing.T) {
	dst := &closeRecorder{}
	w, err := NewParquetWriter(dst)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if dst.closed {
		t.Error("Close closed the destination")
	}
	if !bytes.HasPrefix(dst.Bytes(), []byte("PAR1")) || !bytes.HasSuffix(dst.Bytes(), []byte("PAR1")) {
		t.Error("not a Parquet file")
	}
}

type closeRecorder struct {
	bytes.Buffer
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// Every json field of a run is a column, every indicator a typed child of
// the indicators column, and a field type without a mapping is an error,
// not a silently missing column.
func TestParquetLayoutMapsRunResult(t *testing.T) {
	layout, err := parquetLayout()
	if err != nil {
		t.Fatalf("RunResult has a field Parquet cannot hold: %v", err)
	}
	names := map[string]arrow.Field{}
	for _, f := range layout.schema.Fields() {
		names[f.Name] = f
	}
	for _, name := range jsonFieldNames(reflect.TypeFor[detect.RunResult]()) {
		if _, ok := names[name]; !ok {
			t.Errorf("run field %s has no column", name)
		}
	}
	ind, ok := names["indicators"].Type.(*arrow.StructType)
	if !ok {
		t.Fatalf("indicators is a %s, want a struct", names["indicators"].Type)
	}
	for f := range reflect.TypeFor[detect.Indicators]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		child, ok := ind.FieldByName(name)
		if !ok {
			t.Errorf("indicator %s has no column", name)
			continue
		}
		want := map[reflect.Kind]arrow.Type{reflect.Int64: arrow.INT64, reflect.Float64: arrow.FLOAT64, reflect.Bool: arrow.BOOL, reflect.Map: arrow.MAP}[f.Type.Kind()]
		if child.Type.ID() != want {
			t.Errorf("indicator %s is %s, want %s", name, child.Type, want)
		}
	}
	if names["detectors"].Type.ID() != arrow.LIST || !names["root_cause"].Nullable || !names["onset_step"].Nullable || names["run_id"].Nullable {
		t.Errorf("detectors, root_cause, onset_step, run_id: %v %v %v %v", names["detectors"], names["root_cause"], names["onset_step"], names["run_id"])
	}

	type unmapped struct {
		OK  int64          `json:"ok"`
		Bad map[int]string `json:"bad"`
	}
	if _, err := deriveParquetLayout(reflect.TypeFor[unmapped](), nil, nil); err == nil || !strings.Contains(err.Error(), "Bad") {
		t.Errorf("a map[int]string field: err = %v, want one naming the field", err)
	}
	type pointer struct {
		P *int64 `json:"p"`
	}
	if _, err := deriveParquetLayout(reflect.TypeFor[pointer](), nil, nil); err == nil {
		t.Error("a pointer field was mapped")
	}
	if _, err := deriveParquetLayout(reflect.TypeFor[detect.RunResult](), map[string]any{"no_such_field": ""}, nil); err == nil {
		t.Error("a null sentinel for a missing field was accepted")
	}
	if _, err := deriveParquetLayout(reflect.TypeFor[detect.RunResult](), map[string]any{"onset_step": -1}, nil); err == nil {
		t.Error("an int sentinel for an int64 field was accepted: it would never match")
	}
	if _, err := deriveParquetLayout(reflect.TypeFor[detect.RunResult](), nil, []parquetColumn{{field: arrow.Field{Name: "run_id"}}}); err == nil {
		t.Error("a derived column shadowing a field was accepted")
	}
}

// BenchmarkParquetWrite measures the writer per run (reflection included).
func BenchmarkParquetWrite(b *testing.B) {
	runs := benchScan(10_000).Runs
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		w, err := NewParquetWriter(&buf)
		if err != nil {
			b.Fatal(err)
		}
		for i := range runs {
			if err := w.Write(&runs[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/float64(len(runs)), "bytes/run")
}
