package explain

import (
	"fmt"
	"strings"
	"testing"
)

// steps builds a run from a compact spec: one token per step, "A" a call
// of tool A, "A!" a call of A that failed, "p" a PLAN step without a call,
// "A+" a call with progress; a "|" starts the loop segment.
func steps(spec string) []Step {
	var out []Step
	loop := false
	for _, tok := range strings.Fields(spec) {
		if tok == "|" {
			loop = true
			continue
		}
		s := Step{Step: int64(len(out)), State: "ACT", InLoop: loop}
		switch {
		case tok == "p":
			s.State, s.NextState, s.Reason = "PLAN", "ACT", "plan again"
		default:
			s.Tool, s.CallKey, s.Result = tok[:1], uint64(tok[0]), Result{Class: OK}
			if strings.HasSuffix(tok, "!") {
				s.Result = Result{Class: Error, ErrorType: "RATE_LIMIT"}
			}
			s.Progress = strings.HasSuffix(tok, "+")
		}
		out = append(out, s)
	}
	return out
}

// shape writes rows as "first-last/period xreps".
func shape(rows []Row, st []Step) string {
	var parts []string
	for _, r := range rows {
		p := fmt.Sprint(st[r.First].Step)
		if r.Folded() {
			p = fmt.Sprintf("%d-%d/%dx%d", st[r.First].Step, st[r.Last].Step, r.Period, r.Reps)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestFoldRule(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		// The same call in a row folds, whatever it returned.
		{"A A! A A! A", "0-4/1x5"},
		// A single step is its own row; two alike steps fold.
		{"A B B", "0 1-2/1x2"},
		// A B A B A B: one block of two steps, three times.
		{"A B A B A B", "0-5/2x3"},
		// A cycle of three calls with a remainder.
		{"A B C A B C A B", "0-5/3x2 6 7"},
		// The longest cover wins; on a tie the shorter block (A A A A is
		// 4 x A, not 2 x AA).
		{"A A A A", "0-3/1x4"},
		{"p A p A p A p", "0-5/2x3 6"},
		// Outside the loop a progress step is never folded: it is honest
		// work. Inside, the loop is the detector's verdict: it folds.
		{"A+ A A A", "0 1-3/1x3"},
		{"| A+ A A A", "0-3/1x4"},
		// Folds never straddle the start of the loop.
		{"A A | A A A", "0-1/1x2 2-4/1x3"},
		// Blocks longer than four steps do not fold.
		{"A B C D E A B C D E", "0 1 2 3 4 5 6 7 8 9"},
	} {
		st := steps(c.spec)
		if got := shape(fold(st), st); got != c.want {
			t.Errorf("fold(%q) = %s, want %s", c.spec, got, c.want)
		}
	}
}

// A folded row counts each result class, errors by type.
func TestFoldTalliesResults(t *testing.T) {
	st := steps("A A! A A! A! A")
	rows := fold(st)
	if len(rows) != 1 {
		t.Fatalf("rows %s", shape(rows, st))
	}
	got := resultCell(&st[0], rows[0].Positions[0], rows[0].Reps)
	if got != "3 ok, 3 RATE_LIMIT" {
		t.Errorf("result cell %q, want 3 ok, 3 RATE_LIMIT", got)
	}
}

func TestFormatOffset(t *testing.T) {
	for ms, want := range map[int64]string{0: "+0s", 850: "+850ms", 2500: "+2.5s", 3000: "+3s", 65_000: "+1m05s", 7_380_000: "+2h03m", -1500: "-1.5s"} {
		if got := FormatOffset(ms); got != want {
			t.Errorf("FormatOffset(%d) = %q, want %q", ms, got, want)
		}
	}
}

// Calls whose args differ as logged but are equal once normalised (a new
// request id each time) fold as one call, and the row says so; calls that
// differ once normalised do not fold.
func TestNearDuplicatesFoldAndAreNamed(t *testing.T) {
	st := steps("A A A B B")
	for i := range st {
		st[i].CallKey = uint64(100 + i) // every call's args differ as logged
	}
	for i := range 3 {
		st[i].NormKey = 7 // the A calls are equal once normalised
	}
	st[3].NormKey, st[4].NormKey = 8, 9 // the B calls are not
	rows := fold(st)
	if got := shape(rows, st); got != "0-2/1x3 3 4" {
		t.Fatalf("rows %s, want 0-2/1x3 3 4", got)
	}
	if !rows[0].NearDuplicates || rows[1].NearDuplicates {
		t.Errorf("near-duplicates flagged %v, %v; want the folded row only", rows[0].NearDuplicates, rows[1].NearDuplicates)
	}
	same := steps("A A")
	same[0].NormKey, same[1].NormKey = 7, 7
	if r := fold(same); len(r) != 1 || r[0].NearDuplicates {
		t.Errorf("identical calls: %+v, want one row not marked near-duplicate", r)
	}
}

// In the loop, calls that differ only in their numbers (a file paged back
// and forth, RA104) fold as one call and the row says so; outside the loop
// they are the agent's reading and stay one line each.
func TestPagedCallsFoldInTheLoopOnly(t *testing.T) {
	st := steps("A A A | A A A A")
	for i := range st {
		st[i].CallKey, st[i].NormKey, st[i].ShapeKey = uint64(100+i), uint32(200+i), 9 // other lines of one file each time
	}
	rows := fold(st)
	if got := shape(rows, st); got != "0 1 2 3-6/1x4" {
		t.Fatalf("rows %s, want 0 1 2 3-6/1x4: three views outside the loop, four folded in it", got)
	}
	if last := rows[len(rows)-1]; !last.NumbersDiffer || last.NearDuplicates {
		t.Errorf("the folded row: numbers differ %v, near-duplicates %v; want numbers only", last.NumbersDiffer, last.NearDuplicates)
	}
	other := steps("| A A")
	other[0].NormKey, other[0].ShapeKey = 1, 9
	other[1].NormKey, other[1].ShapeKey = 2, 8 // another file
	if got := shape(fold(other), other); got != "0 1" {
		t.Errorf("calls of other shapes in the loop: rows %s, want 0 1", got)
	}
}
