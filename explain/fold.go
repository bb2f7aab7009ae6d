package explain

import (
	"cmp"
	"slices"
	"strings"
)

// maxPeriod is the longest block of steps a fold repeats: RA102 finds
// cycles of up to four calls.
const maxPeriod = 4

// The fold rule (docs/explain.md). Two steps are alike when they have the
// same state, the same call (tool and args equal once normalised, so
// near-duplicates that differ in a request id fold too, and the row says
// so; the same decision text for a step without a call), and both are inside the loop segment or
// both outside it. Outside the loop, a step with a progress event (a new
// artifact or memory, a call that returned new data, STOP) is alike no
// other step: it is the honest work a reader needs to see. Inside the
// loop the detector has judged the stretch a loop, and a retry that
// succeeds after a RATE_LIMIT is a "new outcome" to the indicator but the
// same call to the reader: progress does not break a fold there, and the
// folded line says how many of its steps had one. What the steps returned
// and the memory they read are not compared: a call retried with ok and
// RATE_LIMIT results in turn folds into one line that counts each.
//
// From the first step on, a row takes the longest stretch that repeats a
// block of 1 to maxPeriod alike steps at least twice (the shorter block on
// a tie); a step that starts no repeat is a row of its own. So folds never
// straddle the onset or the loop's end, and A B A B A B folds into one row
// of 3 repetitions of 2 steps.
func fold(steps []Step) []Row {
	sig := make([]alike, len(steps))
	for i := range steps {
		sig[i] = signature(&steps[i], i)
	}
	var rows []Row
	for i := 0; i < len(steps); {
		period, reps := 1, 1
		for p := 1; p <= maxPeriod && i+2*p <= len(steps); p++ {
			k := 1
			for i+(k+1)*p <= len(steps) && slices.Equal(sig[i+k*p:i+(k+1)*p], sig[i:i+p]) {
				k++
			}
			if k >= 2 && k*p > period*reps {
				period, reps = p, k
			}
		}
		rows = append(rows, makeRow(steps, i, period, reps))
		i += period * reps
	}
	return rows
}

// foldShown folds each stretch of steps between gaps on its own (fold),
// with a row for each gap between them.
func foldShown(steps []Step, gaps []Gap) []Row {
	if len(gaps) == 0 {
		return fold(steps)
	}
	var rows []Row
	from := 0
	for k := 0; k <= len(gaps); k++ {
		to := len(steps)
		if k < len(gaps) {
			to = gaps[k].At
		}
		for _, row := range fold(steps[from:to]) {
			row.First += from
			row.Last += from
			for p := range row.Positions {
				row.Positions[p].Sample += from
			}
			rows = append(rows, row)
		}
		if k < len(gaps) {
			rows = append(rows, Row{Gap: &gaps[k], First: -1, Last: -1, InLoop: gaps[k].InLoop})
		}
		from = to
	}
	return rows
}

// alike is what makes steps alike (see fold); a progress step's unique
// number makes it alike no other step.
type alike struct {
	unique      int
	inLoop      bool
	state, tool string
	call        uint64
	shape       uint32
	next        string
	reason      string
	reasonKey   uint64
}

func signature(s *Step, i int) alike {
	a := alike{inLoop: s.InLoop, state: s.State}
	switch {
	case s.Progress && !s.InLoop:
		a.unique = i + 1
	case s.Tool != "" && s.InLoop && s.ShapeKey != 0:
		// In the loop, calls that differ only in their numbers are one
		// call to a reader, as to RA104: a file paged back and forth.
		a.tool, a.shape = s.Tool, s.ShapeKey
	case s.Tool != "" && s.NormKey != 0:
		// Near-duplicates are the same call to a reader, as to RA103.
		a.tool, a.call = s.Tool, uint64(s.NormKey)
	case s.Tool != "":
		a.tool, a.call = s.Tool, s.CallKey
	default:
		a.next, a.reason, a.reasonKey = s.NextState, s.Reason, s.reasonKey
	}
	return a
}

func makeRow(steps []Step, first, period, reps int) Row {
	row := Row{First: first, Last: first + period*reps - 1, Period: period, Reps: reps, InLoop: steps[first].InLoop}
	for i := row.First; i <= row.Last; i++ {
		if steps[i].Progress {
			row.Progress++
		}
		switch sample := &steps[row.First+(i-row.First)%period]; {
		case steps[i].NormKey != sample.NormKey:
			row.NumbersDiffer = true // alike only by their shape
		case steps[i].CallKey != sample.CallKey:
			row.NearDuplicates = true
		}
	}
	for p := 0; p < period; p++ {
		pos := Position{Sample: first + p}
		results, reads, writes := map[string]int{}, map[string]int{}, map[string]int{}
		for k := 0; k < reps; k++ {
			s := &steps[first+p+k*period]
			if l := resultLabel(s.Result); l != "" {
				results[l]++
			}
			for _, id := range uniq(s.Retrieved) {
				reads[id]++
			}
			for _, id := range uniq(s.Written) {
				writes[id]++
			}
		}
		pos.Results, pos.Reads, pos.Writes = tallies(results, resultOrder), tallies(reads, nil), tallies(writes, nil)
		row.Positions = append(row.Positions, pos)
	}
	return row
}

// resultLabel names a result in a tally: ok, empty, no result, or the
// error type; "" without a call.
func resultLabel(r Result) string {
	switch r.Class {
	case OK:
		return "ok"
	case Empty:
		return "empty"
	case NoResult:
		return "no result"
	case Error:
		if r.ErrorType == "" {
			return "error"
		}
		return r.ErrorType
	}
	return ""
}

// resultOrder puts ok and empty first, then errors, then calls without a
// result; within a rank, the most frequent first, then by label.
func resultOrder(label string) int {
	switch label {
	case "ok":
		return 0
	case "empty":
		return 1
	case "no result":
		return 3
	}
	return 2
}

func tallies(m map[string]int, rank func(string) int) []Tally {
	out := make([]Tally, 0, len(m))
	for l, n := range m {
		out = append(out, Tally{l, n})
	}
	slices.SortFunc(out, func(a, b Tally) int {
		if rank != nil {
			if c := cmp.Compare(rank(a.Label), rank(b.Label)); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Label, b.Label))
	})
	return out
}

func uniq(ids []string) []string {
	if len(ids) < 2 {
		return ids
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
