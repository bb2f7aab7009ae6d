// Command agree compares runaway's per-run indicators with duckpeer's, run
// by run: the evidence that both sides of bench/compare.sh did the same job.
//
//	agree [--strict steps,tool_calls] [--labels LABELS.jsonl] RUNAWAY.ndjson DUCKPEER.ndjson
//
// RUNAWAY.ndjson is `runaway scan --format ndjson` (or bench/pipeline
// --per-run): one object per run with run_id and indicators{...}.
// DUCKPEER.ndjson is `duckpeer --per-run`: one flat object per run. Every
// run must be on both sides and the --strict fields must be equal in every
// run, else agree exits 1. For the other indicators both compute, it prints
// how many runs agree (informational: DuckDB's SQL approximates some of
// them; docs/performance.md, "What the SQL approximates", says which).
//
// With --labels (the file `runaway gen --labels` writes), it also scores
// both against the labels: runaway's verdict "runaway" and DuckDB's
// threshold flag (the per-run "flagged" column) against label "runaway".
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type row map[string]json.RawMessage

func main() {
	strict := flag.String("strict", "steps,tool_calls", "comma-separated indicators that must agree in every run")
	show := flag.Int("show", 10, "mismatches to print per indicator")
	labels := flag.String("labels", "", "score runaway's verdicts and DuckDB's flags against this labels file")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: agree [--strict FIELDS] RUNAWAY.ndjson DUCKPEER.ndjson")
		os.Exit(2)
	}
	verdicts := map[string]string{}
	ra, err := load(flag.Arg(0), verdicts)
	if err != nil {
		fail(err)
	}
	dp, err := load(flag.Arg(1), nil)
	if err != nil {
		fail(err)
	}
	ok := true
	var onlyRA, onlyDP []string
	for id := range ra {
		if _, found := dp[id]; !found {
			onlyRA = append(onlyRA, id)
		}
	}
	for id := range dp {
		if _, found := ra[id]; !found {
			onlyDP = append(onlyDP, id)
		}
	}
	sort.Strings(onlyRA)
	sort.Strings(onlyDP)
	fmt.Printf("runs: runaway %d, duckdb %d, only in runaway %d, only in duckdb %d\n", len(ra), len(dp), len(onlyRA), len(onlyDP))
	if len(onlyRA)+len(onlyDP) > 0 {
		ok = false
		for _, id := range head(onlyRA, *show) {
			fmt.Printf("  only in runaway: %s\n", id)
		}
		for _, id := range head(onlyDP, *show) {
			fmt.Printf("  only in duckdb: %s\n", id)
		}
	}

	ids := make([]string, 0, len(ra))
	for id := range ra {
		if _, found := dp[id]; found {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	strictSet := map[string]bool{}
	for _, f := range strings.Split(*strict, ",") {
		if f = strings.TrimSpace(f); f != "" {
			strictSet[f] = true
		}
	}
	// Fields both sides have, strict ones first.
	var fields []string
	if len(ids) > 0 {
		for f := range dp[ids[0]] {
			if _, found := ra[ids[0]][f]; found && f != "run_id" {
				fields = append(fields, f)
			}
		}
	}
	for f := range strictSet {
		if len(ids) > 0 {
			if _, found := ra[ids[0]][f]; !found {
				fail(fmt.Errorf("strict field %q missing from runaway's output", f))
			}
			if _, found := dp[ids[0]][f]; !found {
				fail(fmt.Errorf("strict field %q missing from duckpeer's output", f))
			}
		}
	}
	sort.Slice(fields, func(i, j int) bool {
		if strictSet[fields[i]] != strictSet[fields[j]] {
			return strictSet[fields[i]]
		}
		return fields[i] < fields[j]
	})
	fmt.Printf("%-34s %8s %10s  %s\n", "indicator", "check", "agree", "first mismatches (run: runaway/duckdb)")
	for _, f := range fields {
		same := 0
		var diffs []string
		for _, id := range ids {
			a, b := norm(ra[id][f]), norm(dp[id][f])
			if a == b {
				same++
			} else if len(diffs) < *show {
				diffs = append(diffs, fmt.Sprintf("%s: %s/%s", id, a, b))
			}
		}
		kind := "info"
		if strictSet[f] {
			kind = "STRICT"
			if same != len(ids) {
				ok = false
			}
		}
		pct := 100.0
		if len(ids) > 0 {
			pct = 100 * float64(same) / float64(len(ids))
		}
		fmt.Printf("%-34s %8s %9.2f%%  %s\n", f, kind, pct, strings.Join(head(diffs, 3), "; "))
		if strictSet[f] && len(diffs) > 3 {
			for _, d := range diffs[3:] {
				fmt.Printf("%-34s %8s %10s  %s\n", "", "", "", d)
			}
		}
	}
	if *labels != "" {
		if err := score(*labels, ids, verdicts, dp); err != nil {
			fail(err)
		}
	}
	if !ok {
		fmt.Println("AGREEMENT: FAIL")
		os.Exit(1)
	}
	fmt.Printf("AGREEMENT: OK (%s equal in all %d runs)\n", *strict, len(ids))
}

// load reads one JSON object per line keyed by run_id. With verdicts != nil
// the fields are read from the "indicators" object (runaway's layout) and
// each run's "verdict" goes into verdicts.
func load(path string, verdicts map[string]string) (map[string]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]row{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var top row
		if err := json.Unmarshal(sc.Bytes(), &top); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		var id string
		if err := json.Unmarshal(top["run_id"], &id); err != nil {
			return nil, fmt.Errorf("%s:%d: run_id: %w", path, line, err)
		}
		r := top
		if verdicts != nil {
			var v string
			if raw, found := top["verdict"]; found {
				if err := json.Unmarshal(raw, &v); err != nil {
					return nil, fmt.Errorf("%s:%d: verdict: %w", path, line, err)
				}
			}
			verdicts[id] = v
			r = row{}
			if err := json.Unmarshal(top["indicators"], &r); err != nil {
				return nil, fmt.Errorf("%s:%d: indicators: %w", path, line, err)
			}
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: run %q listed twice", path, line, id)
		}
		out[id] = r
	}
	return out, sc.Err()
}

// norm makes 3 and 3.0 compare equal.
func norm(v json.RawMessage) string {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return string(v)
	}
	if f, isNum := x.(float64); isNum {
		return fmt.Sprintf("%g", f)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agree:", err)
	os.Exit(2)
}

// score prints precision and recall of runaway's verdicts and DuckDB's
// threshold flags against the labels, over the runs both sides have.
func score(path string, ids []string, verdicts map[string]string, dp map[string]row) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	type label struct {
		RunID      string `json:"run_id"`
		Label      string `json:"label"`
		Confounder string `json:"confounder"`
	}
	labels := map[string]label{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var l label
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		labels[l.RunID] = l
	}
	if err := sc.Err(); err != nil {
		return err
	}
	type tally struct{ tp, fp, fn, tn, fpConfounded int }
	var ra, dk tally
	add := func(t *tally, flagged bool, l label) {
		truth := l.Label == "runaway"
		switch {
		case flagged && truth:
			t.tp++
		case flagged && !truth:
			t.fp++
			if l.Confounder != "" {
				t.fpConfounded++
			}
		case !flagged && truth:
			t.fn++
		default:
			t.tn++
		}
	}
	missing := 0
	for _, id := range ids {
		l, found := labels[id]
		if !found {
			missing++
			continue
		}
		add(&ra, verdicts[id] == "runaway", l)
		var flagged bool
		if raw, found := dp[id]["flagged"]; found {
			if err := json.Unmarshal(raw, &flagged); err != nil {
				return fmt.Errorf("duckpeer flagged for %s: %w", id, err)
			}
		}
		add(&dk, flagged, l)
	}
	fmt.Printf("\nagainst the labels (%s; %d runs without a label):\n", path, missing)
	fmt.Printf("%-34s %8s %8s %8s %8s %10s %8s %18s\n", "", "flagged", "TP", "FP", "FN", "precision", "recall", "FP on confounders")
	for _, x := range []struct {
		name string
		t    tally
	}{{"runaway verdict=runaway", ra}, {"DuckDB thresholds (flagged)", dk}} {
		t := x.t
		prec, rec := 0.0, 0.0
		if t.tp+t.fp > 0 {
			prec = float64(t.tp) / float64(t.tp+t.fp)
		}
		if t.tp+t.fn > 0 {
			rec = float64(t.tp) / float64(t.tp+t.fn)
		}
		fmt.Printf("%-34s %8d %8d %8d %8d %10.3f %8.3f %18d\n", x.name, t.tp+t.fp, t.tp, t.fp, t.fn, prec, rec, t.fpConfounded)
	}
	return nil
}
