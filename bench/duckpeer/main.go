// Command duckpeer computes runaway's core per-run indicators with DuckDB, the
// way a competent user would over the same JSONL step logs: read_json with an
// explicit column spec, window functions, gaps and islands. It is the peer
// runaway is measured against in bench/compare.sh; the SQL it runs is
// indicators.sql, embedded verbatim.
//
//	duckpeer [--threads N] [--memory-limit SIZE] [--per-run FILE] FILE|DIR...
//
// It prints one JSON line: input rows and runs, flagged-run counts, wall
// seconds and MB/s (input bytes on disk over wall time, including opening
// DuckDB). With --per-run it also writes one JSON line per run (run_id and
// every indicator it computes), for the agreement check.
package main

import (
	"bufio"
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

//go:embed indicators.sql
var indicatorsSQL string

type result struct {
	Tool          string             `json:"tool"`
	DuckDBVersion string             `json:"duckdb_version"`
	Threads       int                `json:"threads"`
	MemoryLimit   string             `json:"memory_limit"`
	Files         int                `json:"files"`
	Bytes         int64              `json:"bytes"`
	Rows          int64              `json:"rows"`
	Runs          int64              `json:"runs"`
	Flagged       map[string]int64   `json:"flagged"`
	Stages        map[string]float64 `json:"stage_seconds"`
	WallSeconds   float64            `json:"wall_s"`
	MBps          float64            `json:"mb_s"`
}

func main() {
	os.Exit(run())
}

func run() int {
	threads := flag.Int("threads", 2, "DuckDB threads")
	memLimit := flag.String("memory-limit", "", "DuckDB memory_limit (default: 75% of MemTotal, so nothing spills)")
	perRun := flag.String("per-run", "", "also write one JSON line per run (run_id and indicators) to FILE")
	window := flag.Int("window", 20, "calls in the same-call window (runaway's policy window)")
	maxSteps := flag.Int64("max-steps", 0, "max_steps budget for runs that log none (0 = none; runaway's default)")
	sqlFile := flag.String("sql", "", "run this SQL script instead of the embedded indicators.sql (same placeholders; the last statement is the summary)")
	verbose := flag.Bool("v", false, "print each statement's time on stderr")
	query := flag.String("query", "", "after the script, run SQL over its tables (steps, new_artifact, progress, runs) and print the rows as JSON lines on stderr")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: duckpeer [flags] FILE|DIR...\n\nRuns bench/duckpeer/indicators.sql in DuckDB over JSONL step logs (.gz/.zst too).\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *threads < 1 || *window < 2 || *maxSteps < 0 {
		flag.Usage()
		return 2
	}
	files, size, err := inputs(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckpeer:", err)
		return 2
	}
	if *memLimit == "" {
		*memLimit = defaultMemoryLimit()
	}

	start := time.Now()
	res := result{Tool: "duckdb", Threads: *threads, MemoryLimit: *memLimit, Files: len(files), Bytes: size,
		Flagged: map[string]int64{}, Stages: map[string]float64{}}
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	// One connection: temp tables live in the connection that made them.
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	settings := []string{
		fmt.Sprintf("SET threads = %d", *threads),
		fmt.Sprintf("SET memory_limit = '%s'", strings.ReplaceAll(*memLimit, "'", "")),
		// Results are keyed by run_id; row order is not needed, and keeping
		// it costs DuckDB memory.
		"SET preserve_insertion_order = false",
	}
	for _, s := range settings {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fail(fmt.Errorf("%s: %w", s, err))
		}
	}
	if err := conn.QueryRowContext(ctx, "SELECT library_version FROM pragma_version()").Scan(&res.DuckDBVersion); err != nil {
		return fail(err)
	}

	script := indicatorsSQL
	if *sqlFile != "" {
		b, err := os.ReadFile(*sqlFile)
		if err != nil {
			return fail(err)
		}
		script = string(b)
	}
	stmts := statements(expand(script, files, *window, *maxSteps))
	for i, st := range stmts {
		t0 := time.Now()
		name := stmtName(st)
		if i < len(stmts)-1 {
			if _, err := conn.ExecContext(ctx, st); err != nil {
				return fail(fmt.Errorf("statement %s: %w", name, err))
			}
		} else {
			if err := summary(ctx, conn, st, &res); err != nil {
				return fail(fmt.Errorf("statement %s: %w", name, err))
			}
		}
		res.Stages[name] = round(time.Since(t0).Seconds(), 3)
		if *verbose {
			fmt.Fprintf(os.Stderr, "duckpeer: %-14s %.3fs\n", name, time.Since(t0).Seconds())
		}
	}
	res.WallSeconds = round(time.Since(start).Seconds(), 3)
	if res.WallSeconds > 0 {
		res.MBps = round(float64(size)/1e6/res.WallSeconds, 1)
	}
	if *query != "" {
		if err := writeRows(ctx, conn, *query, os.Stderr); err != nil {
			return fail(err)
		}
	}
	if *perRun != "" {
		if err := writePerRunFile(ctx, conn, *perRun); err != nil {
			return fail(err)
		}
	}
	line, _ := json.Marshal(res)
	fmt.Println(string(line))
	return 0
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "duckpeer:", err)
	return 3
}

// inputs expands directories into their regular files and sums the sizes.
func inputs(args []string) ([]string, int64, error) {
	var files []string
	var size int64
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, 0, err
		}
		if !st.IsDir() {
			files = append(files, a)
			size += st.Size()
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				info, err := d.Info()
				if err != nil {
					return err
				}
				found = append(found, p)
				size += info.Size()
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("no input files")
	}
	return files, size, nil
}

// expand fills the placeholders of indicators.sql.
func expand(sqlText string, files []string, window int, maxSteps int64) string {
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = "'" + strings.ReplaceAll(f, "'", "''") + "'"
	}
	r := strings.NewReplacer(
		"__FILES__", "["+strings.Join(quoted, ", ")+"]",
		"__WINDOW__", strconv.Itoa(window),
		"__MAX_STEPS__", strconv.FormatInt(maxSteps, 10),
	)
	return r.Replace(sqlText)
}

// statements splits the script at lines that end in ';' (comments dropped).
func statements(script string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(script, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "--") || t == "" {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(t, ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

var createRE = regexp.MustCompile(`(?i)CREATE\s+TEMP\s+TABLE\s+(\w+)`)

func stmtName(st string) string {
	if m := createRE.FindStringSubmatch(st); m != nil {
		return m[1]
	}
	return "summary"
}

func summary(ctx context.Context, conn *sql.Conn, st string, res *result) error {
	rows, err := conn.QueryContext(ctx, st)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("no summary row")
	}
	vals := make([]sql.NullInt64, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return err
	}
	for i, c := range cols {
		switch c {
		case "rows":
			res.Rows = vals[i].Int64
		case "runs":
			res.Runs = vals[i].Int64
		default:
			res.Flagged[c] = vals[i].Int64
		}
	}
	return rows.Err()
}

// writePerRunFile writes the runs table as JSON lines, ordered by run_id.
func writePerRunFile(ctx context.Context, conn *sql.Conn, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeRows(ctx, conn, "SELECT * FROM runs ORDER BY run_id", f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeRows runs query and writes each row as a JSON object on its own line.
func writeRows(ctx context.Context, conn *sql.Conn, query string, out io.Writer) error {
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = vals[i]
		}
		if err := enc.Encode(m); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// defaultMemoryLimit is 75% of MemTotal, well above what the query needs, so
// DuckDB does not spill to disk; "8GB" when /proc/meminfo is unreadable.
func defaultMemoryLimit() string {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "8GB"
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil && kb > 0 {
				return fmt.Sprintf("%dMB", kb*3/4/1024)
			}
		}
	}
	return "8GB"
}

func round(f float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(f*p+0.5)) / p
}
