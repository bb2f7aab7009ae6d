package duckread

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
)

// scanFixtures runs the scan pipeline over every fixture log, streaming
// each result into a Parquet file at path as the nightly scan would, and
// returns the results (deep copies: Stream may reuse its buffers).
func scanFixtures(t *testing.T, path string) []detect.RunResult {
	t.Helper()
	logs, err := filepath.Glob("../../fixtures/*/*.jsonl")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	sources, err := ingest.ExpandPaths(logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	collector := runstore.NewCollector(names)
	opts := ingest.Options{Alloc: memory.NewGoAllocator(), Workers: 2}
	if _, err := ingest.Read(context.Background(), sources, opts, func(rec arrow.RecordBatch) error { return collector.Add(rec) }); err != nil {
		t.Fatal(err)
	}

	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := report.NewParquetWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	var runs []detect.RunResult
	err = collector.Stream(detect.DefaultPolicy(), 2, func(r *detect.RunResult) error {
		var line bytes.Buffer
		if err := report.WriteRunNDJSON(&line, r); err != nil {
			return err
		}
		var copied detect.RunResult
		if err := json.Unmarshal(line.Bytes(), &copied); err != nil {
			return err
		}
		runs = append(runs, copied)
		return w.Write(r)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return runs
}

// DuckDB reads the file with the column types the docs promise, and its
// aggregates over a plain column, a nullable one, an indicator (a struct
// child), the detectors list and the error-type map equal the same figures
// computed from the results in Go.
func TestDuckDBReadsParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.parquet")
	runs := scanFixtures(t, path)
	if st, err := os.Stat(path); err == nil {
		t.Logf("%d runs, %d bytes, %.0f bytes/run", len(runs), st.Size(), float64(st.Size())/float64(len(runs)))
	}

	// The figures in Go.
	var steps, toolCalls, flagged, findings int64
	var cost float64
	byDetector := map[string]int64{}
	byErrorType := map[string]int64{}
	for _, r := range runs {
		steps += r.Steps
		toolCalls += r.Indicators.ToolCalls
		cost += r.WastedCostUSD
		if r.Verdict != detect.Healthy {
			flagged++
		}
		for _, f := range r.Findings {
			findings++
			byDetector[f.Detector]++
		}
		for k, n := range r.Indicators.ToolErrorsByType {
			byErrorType[k] += n
		}
	}
	// Without these the list and map checks below would pass on nothing.
	if flagged == 0 || len(byDetector) == 0 || len(byErrorType) == 0 {
		t.Fatalf("fixtures give %d flagged runs, %d detectors, %d error types: too little to check", flagged, len(byDetector), len(byErrorType))
	}

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	from := " FROM read_parquet('" + strings.ReplaceAll(path, "'", "''") + "')"

	types := map[string]string{}
	rows, err := db.Query("SELECT column_name, column_type FROM (DESCRIBE SELECT *" + from + ")")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			t.Fatal(err)
		}
		types[name] = typ
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for name, want := range map[string]string{
		"run_id": "VARCHAR", "verdict": "VARCHAR", "root_cause": "VARCHAR", "onset_step": "BIGINT",
		"wasted_cost_usd": "DOUBLE", "detectors": "VARCHAR[]", "signals": "VARCHAR[]",
	} {
		if types[name] != want {
			t.Errorf("DuckDB reads %s as %q, want %s", name, types[name], want)
		}
	}
	if typ := types["indicators"]; !strings.HasPrefix(typ, "STRUCT(") || !strings.Contains(typ, "tool_errors_by_type MAP(VARCHAR, BIGINT)") ||
		!strings.Contains(typ, "tool_calls BIGINT") || !strings.Contains(typ, "ended_with_stop BOOLEAN") {
		t.Errorf("DuckDB reads indicators as %s", typ)
	}

	var n, gotSteps, gotToolCalls, gotFlagged, nullCauses, nullOnsets, gotFindings int64
	var gotCost float64
	err = db.QueryRow(`SELECT count(*), sum(steps), sum(indicators.tool_calls), count(*) FILTER (WHERE verdict <> 'healthy'),
		count(*) FILTER (WHERE root_cause IS NULL), count(*) FILTER (WHERE onset_step IS NULL),
		sum(len(detectors)), sum(wasted_cost_usd)`+from).Scan(&n, &gotSteps, &gotToolCalls, &gotFlagged, &nullCauses, &nullOnsets, &gotFindings, &gotCost)
	if err != nil {
		t.Fatal(err)
	}
	healthy := int64(len(runs)) - flagged
	for _, c := range []struct {
		what      string
		got, want int64
	}{
		{"count(*)", n, int64(len(runs))}, {"sum(steps)", gotSteps, steps}, {"sum(indicators.tool_calls)", gotToolCalls, toolCalls},
		{"flagged runs", gotFlagged, flagged}, {"runs with a null root_cause", nullCauses, healthy},
		{"runs with a null onset_step", nullOnsets, healthy}, {"sum(len(detectors))", gotFindings, findings},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
	if math.Abs(gotCost-cost) > 1e-9*math.Max(1, math.Abs(cost)) {
		t.Errorf("sum(wasted_cost_usd) = %v, want %v", gotCost, cost)
	}

	gotByDetector := groupCounts(t, db, "SELECT d, count(*) FROM (SELECT unnest(detectors) AS d"+from+") GROUP BY d")
	if !maps.Equal(gotByDetector, byDetector) {
		t.Errorf("runs by detector: DuckDB %v, Go %v", gotByDetector, byDetector)
	}
	gotByErrorType := groupCounts(t, db, "SELECT k, sum(v) FROM (SELECT unnest(map_keys(m)) AS k, unnest(map_values(m)) AS v FROM (SELECT indicators.tool_errors_by_type AS m"+from+")) GROUP BY k")
	if !maps.Equal(gotByErrorType, byErrorType) {
		t.Errorf("tool errors by type: DuckDB %v, Go %v", gotByErrorType, byErrorType)
	}
	// Map lookup by key, as a user would write it.
	for k, want := range byErrorType {
		var got int64
		q := "SELECT coalesce(sum(indicators.tool_errors_by_type['" + strings.ReplaceAll(k, "'", "''") + "']), 0)" + from
		if err := db.QueryRow(q).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("sum(tool_errors_by_type['%s']) = %d, want %d", k, got, want)
		}
	}
}

func groupCounts(t *testing.T, db *sql.DB, query string) map[string]int64 {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		out[k] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
