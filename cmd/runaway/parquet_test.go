package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeParquet writes rows (JSON objects, one a line) as a Parquet file of
// schema sc, through arrow's JSON reader, so each column has the type the
// export's writer gives it.
func writeParquet(t *testing.T, path string, sc *arrow.Schema, rows []map[string]any) {
	t.Helper()
	var lines bytes.Buffer
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(b, '\n'))
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rdr := array.NewJSONReader(&lines, sc, array.WithAllocator(mem), array.WithChunk(-1))
	defer rdr.Release()
	if !rdr.Next() {
		t.Fatalf("JSON reader: %v", rdr.Err())
	}
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rdr.RecordBatch()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sampleRecords reads a sample trace's JSON lines.
func sampleRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []map[string]any
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// jsonText is v as the JSON text an export writes into a string column.
func jsonText(v any) any {
	if v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// mapEntries is a JSON object as arrow's JSON reader takes a map column.
func mapEntries(v any, value func(any) any) any {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	out := []map[string]any{}
	for k, x := range m {
		out = append(out, map[string]any{"key": k, "value": value(x)})
	}
	return out
}

// Langfuse's blob storage export as Parquet (the enriched observations
// table: snake_case columns, times as timestamps, metadata and usage as
// maps, costs as decimals, input and output as JSON text) and LangSmith's
// bulk export as Parquet (a run's fields as columns, objects as JSON text)
// read as the same runs, with the same verdicts, as their JSON exports.
func TestTracingExportsAsParquet(t *testing.T) {
	dir := t.TempDir()
	str := arrow.BinaryTypes.String
	ms := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	cost := &arrow.Decimal128Type{Precision: 38, Scale: 12}

	// Langfuse: the trace records' session is denormalised onto every
	// observation, as the enriched export does.
	lf := sampleRecords(t, filepath.Join(tracesDir, "langfuse", "loop.ndjson"))
	session := map[string]any{}
	for _, r := range lf {
		if _, isTrace := r["timestamp"]; isTrace {
			session[r["id"].(string)] = r["sessionId"]
		}
	}
	var obs []map[string]any
	for _, r := range lf {
		if _, isTrace := r["timestamp"]; isTrace {
			continue
		}
		obs = append(obs, map[string]any{
			"id": r["id"], "trace_id": r["traceId"], "type": r["type"], "parent_observation_id": r["parentObservationId"],
			"start_time": r["startTime"], "end_time": r["endTime"], "name": r["name"], "level": r["level"],
			"status_message": r["statusMessage"], "input": jsonText(r["input"]), "output": jsonText(r["output"]),
			"metadata":            mapEntries(r["metadata"], jsonText),
			"provided_model_name": r["model"], "session_id": session[r["traceId"].(string)],
			"usage_details": mapEntries(r["usageDetails"], func(v any) any { return v }),
			"cost_details":  mapEntries(r["costDetails"], func(v any) any { return v }),
		})
	}
	writeParquet(t, filepath.Join(dir, "observations_v2.parquet"), arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: str}, {Name: "trace_id", Type: str}, {Name: "type", Type: str},
		{Name: "parent_observation_id", Type: str, Nullable: true},
		{Name: "start_time", Type: ms}, {Name: "end_time", Type: ms, Nullable: true},
		{Name: "name", Type: str, Nullable: true}, {Name: "level", Type: str}, {Name: "status_message", Type: str, Nullable: true},
		{Name: "input", Type: str, Nullable: true}, {Name: "output", Type: str, Nullable: true},
		{Name: "metadata", Type: arrow.MapOf(str, str), Nullable: true},
		{Name: "provided_model_name", Type: str, Nullable: true}, {Name: "session_id", Type: str, Nullable: true},
		{Name: "usage_details", Type: arrow.MapOf(str, arrow.PrimitiveTypes.Uint64), Nullable: true},
		{Name: "cost_details", Type: arrow.MapOf(str, cost), Nullable: true},
	}, nil), obs)

	// LangSmith: the runs' fields; objects as JSON text, times as
	// timestamps without a zone.
	var runs []map[string]any
	for _, r := range sampleRecords(t, filepath.Join(tracesDir, "langsmith", "loop.ndjson")) {
		runs = append(runs, map[string]any{
			"id": r["id"], "trace_id": r["trace_id"], "parent_run_id": r["parent_run_id"], "dotted_order": r["dotted_order"],
			"run_type": r["run_type"], "name": r["name"], "status": r["status"],
			"start_time": r["start_time"], "end_time": r["end_time"],
			"inputs": jsonText(r["inputs"]), "outputs": jsonText(r["outputs"]), "extra": jsonText(r["extra"]), "error": r["error"],
			"prompt_tokens": r["prompt_tokens"], "completion_tokens": r["completion_tokens"], "total_cost": r["total_cost"],
		})
	}
	writeParquet(t, filepath.Join(dir, "runs.parquet"), arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: str}, {Name: "trace_id", Type: str}, {Name: "parent_run_id", Type: str, Nullable: true},
		{Name: "dotted_order", Type: str}, {Name: "run_type", Type: str}, {Name: "name", Type: str}, {Name: "status", Type: str, Nullable: true},
		{Name: "start_time", Type: us}, {Name: "end_time", Type: us, Nullable: true},
		{Name: "inputs", Type: str, Nullable: true}, {Name: "outputs", Type: str, Nullable: true},
		{Name: "extra", Type: str, Nullable: true}, {Name: "error", Type: str, Nullable: true},
		{Name: "prompt_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "completion_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "total_cost", Type: cost, Nullable: true},
	}, nil), runs)

	got := scanTraces(t, dir)
	for _, id := range []string{"support-chat-8817", "cs-thread-4821"} {
		if got[id] != wantTraces[id] {
			t.Errorf("%s from Parquet: %+v, want %+v", id, got[id], wantTraces[id])
		}
	}
	if len(got) != 2 {
		t.Errorf("runs: %v", got)
	}
	// explain and fixture read the Parquet exports too; the fixture holds
	// the run's steps as JSON lines and verifies.
	for _, id := range []string{"support-chat-8817", "cs-thread-4821"} {
		explainFixtureVerify(t, id, wantTraces[id].RootCause, dir)
	}

	if f := filesByFormat(t, dir); f["langfuse"] != 1 || f["langsmith"] != 1 {
		t.Errorf("files by format: %v", f)
	}
}

// runaway's own steps in a Parquet table go through scan, explain and
// fixture as their JSON lines do; the fixture written from the table holds
// its steps as JSON lines and verifies.
func TestStepsParquetThroughScanExplainFixture(t *testing.T) {
	raw := readFile(t, filepath.Join(fixturesDir, "detectors", "RA301.positive.jsonl"))
	var rows []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if tc, ok := m["tool_call"].(map[string]any); ok {
			tc["args"] = jsonText(tc["args"])
		}
		if tr, ok := m["tool_result"].(map[string]any); ok {
			tr["data"] = jsonText(tr["data"])
		}
		rows = append(rows, m)
	}
	str := arrow.BinaryTypes.String
	dir := t.TempDir()
	pq := filepath.Join(dir, "steps.parquet")
	writeParquet(t, pq, arrow.NewSchema([]arrow.Field{
		{Name: "run_id", Type: str}, {Name: "step", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}}, {Name: "state", Type: str},
		{Name: "goal", Type: str, Nullable: true},
		{Name: "tool_call", Type: arrow.StructOf(arrow.Field{Name: "name", Type: str, Nullable: true}, arrow.Field{Name: "args", Type: str, Nullable: true}), Nullable: true},
		{Name: "tool_result", Type: arrow.StructOf(
			arrow.Field{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
			arrow.Field{Name: "error_type", Type: str, Nullable: true},
			arrow.Field{Name: "status", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "retryable", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
			arrow.Field{Name: "data", Type: str, Nullable: true}), Nullable: true},
		{Name: "usage", Type: arrow.StructOf(
			arrow.Field{Name: "prompt_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "completion_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), Nullable: true},
	}, nil), rows)

	want := scanTraces(t, filepath.Join(fixturesDir, "detectors", "RA301.positive.jsonl"))
	got := scanTraces(t, pq)
	if len(got) != 1 || len(want) != 1 {
		t.Fatalf("runs: %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w || w.Verdict != "runaway" {
			t.Fatalf("%s: %+v from Parquet, %+v from lines", id, got[id], w)
		}
		explainFixtureVerify(t, id, w.RootCause, pq)
	}
}

// The runs Parquet a scan writes is not mistaken for steps when a later
// scan walks the directory it was written to: its rows are rejects that
// say what the file is.
func TestScanOwnRunsParquetIsNotSteps(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "runs.parquet")
	if code, _, stderr := runCLI(t, "", "scan", filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"), "--output", "parquet="+pq); code != exitClean && code != exitFindings {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "", "scan", dir)
	if code != exitFailure || !strings.Contains(stderr, "runs.parquet") || !strings.Contains(stderr, "runaway's own report of runs") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
