package detect

import (
	"fmt"
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// runView is one run's steps in order, as parallel columns. Detectors read
// it; it is rebuilt in place for every run, so its slices are reused.
type runView struct {
	id   string
	run  int32 // the collector's index of the run
	n    int
	step []int64
	ts   []int64
	call []uint64 // call identity: tool and args; 0 when the step made no call
	args []uint64 // args key (schema.ArgsKey)
	norm []uint32 // normalised args key (near-duplicates); 0 without args
	// words is the word signature of calls that returned empty; plan the
	// plan of PLAN steps; decision the decision of steps without a call
	// (sidetables.go); 0 where there is none.
	words []uint64
	// sim is the SimHash of each step's result, 0 when it has none.
	sim []uint64
	// argSim is the SimHash of each call\'s args, 0 when they have none.
	argSim   []uint64
	plan     []uint32
	decision []uint32
	tool     []int32
	state    []schema.State
	flags    []uint16
	err      []uint16
	res      []uint32
	tok      []int64
	cost     []float64
	intent   []int32
	// newArtifact marks steps that logged an artifact id not seen before in the run.
	newArtifact []bool
	// memReads lists (step index, memory id) pairs in step order; suspect the
	// memories written from inference, a tool error or low confidence.
	memReads []memAt
	suspect  []suspectAt
	budget   budgetLimits

	dataProblems []string
	duplicates   int64
	conflicts    int64

	// names resolves interned strings for evidence.
	names nameTable

	order []int32 // scratch
	// rows is the run's rows in input order, that is ascending; at maps
	// rows[j] to its step index (-1: a duplicate line dropped), so a search
	// in rows finds a row's step without a map to fill for every run. at
	// is built at most once per run, and only for runs that log artifacts
	// or memory.
	rows     []int32
	at       []int32
	inOrder  bool // order kept the rows' order (gather did not sort them)
	posBuilt bool
	next     int // where position's last search ended in rows
}

// position is the step index of the collector's row, if the run holds it.
func (v *runView) position(row int32) (int, bool) {
	if !v.posBuilt {
		v.at = resize(v.at, len(v.rows))
		if v.inOrder {
			j := 0
			for i, r := range v.order {
				for v.rows[j] != r {
					v.at[j] = -1
					j++
				}
				v.at[j] = int32(i)
				j++
			}
			for ; j < len(v.rows); j++ {
				v.at[j] = -1
			}
		} else {
			for j := range v.at {
				v.at[j] = -1
			}
			for i, r := range v.order {
				j, _ := slices.BinarySearch(v.rows, r)
				v.at[j] = int32(i)
			}
		}
		v.posBuilt = true
	}
	// The side tables list a run's rows in ascending order, so the search
	// mostly walks on from where the previous one ended.
	rows, j := v.rows, v.next
	if j < len(rows) && rows[j] <= row {
		for j < len(rows) && rows[j] < row {
			j++
		}
	} else {
		j, _ = slices.BinarySearch(rows, row)
	}
	v.next = j
	if j == len(rows) || rows[j] != row || v.at[j] < 0 {
		return 0, false
	}
	return int(v.at[j]), true
}

// nameTable turns the interned ids of a view back into text.
type nameTable interface {
	toolName(id int32) string
	intentName(id int32) string
	errTypeName(id uint16) string
	argsText(run int32, args uint64, norm uint32) string
	hasShortArgs(run int32, norm uint32) bool
}

func (c *Collector) toolName(id int32) string {
	if id < 0 || int(id) >= len(c.tools) {
		return ""
	}
	return c.tools[id]
}

func (c *Collector) errTypeName(id uint16) string { return c.errTypes[id] }

func (c *Collector) intentName(id int32) string { return c.intents[id] }

type memAt struct {
	i  int
	id uint32
}

type suspectAt struct {
	i    int
	id   uint32
	name string
	why  string
}

// argsText shows a call's args in evidence: the short rendering of args
// the run repeated (these args, else args equal to them once normalised),
// else the args hash as logged ("sha256:<16 hex>").
func (c *Collector) argsText(run int32, args uint64, norm uint32) string {
	if s, ok := c.shorts.byKey[shortKey(run, norm)]; ok && norm != 0 {
		return s
	}
	if s, ok := c.otherArgs[args]; ok {
		return s
	}
	return fmt.Sprintf("sha256:%016x", args)
}

func (c *Collector) hasShortArgs(run int32, norm uint32) bool {
	_, ok := c.shorts.byKey[shortKey(run, norm)]
	return ok && norm != 0
}

// callText names the call of step i in evidence: tool and args.
func (v *runView) callText(i int) string {
	return v.names.toolName(v.tool[i]) + " " + v.names.argsText(v.run, v.args[i], v.norm[i])
}

// callIdentity combines tool and args key; distinct tools with equal args
// are distinct calls.
func callIdentity(tool int32, args uint64) uint64 {
	id := args ^ (uint64(tool)+1)*0x9E3779B97F4A7C15
	if id == 0 {
		id = 1
	}
	return id
}

const maxDataProblems = 5

// gather builds v for run r from its rows (in input order): sorted by step,
// then ts, then input order; exact duplicate lines (same step, same bytes)
// dropped and counted; conflicting duplicates kept and reported.
func (c *Collector) gather(v *runView, r int32, rows []int32) {
	v.id = c.runIDs[r]
	v.run = r
	v.names = c
	v.dataProblems = nil
	v.posBuilt, v.next = false, 0
	v.duplicates, v.conflicts = 0, 0
	v.rows = rows
	v.order = append(v.order[:0], rows...)
	sorted := true
	for i := 1; i < len(v.order); i++ {
		if c.lessRow(v.order[i], v.order[i-1]) {
			sorted = false
			break
		}
	}
	if !sorted {
		slices.SortStableFunc(v.order, func(a, b int32) int {
			switch {
			case c.lessRow(a, b):
				return -1
			case c.lessRow(b, a):
				return 1
			}
			return 0
		})
	}
	v.inOrder = sorted
	kept := v.order[:0]
	for i, row := range v.order {
		if i > 0 && c.step.at(row) == c.step.at(v.order[i-1]) {
			prev := v.order[i-1]
			if c.lineHash.at(row) == c.lineHash.at(prev) {
				v.duplicates++
				v.problem("step %d logged twice with identical content (%s and %s); the copy was ignored",
					c.step.at(row), c.where(prev), c.where(row))
				continue
			}
			v.conflicts++
			v.problem("step %d logged twice with different content (%s and %s); both were analyzed",
				c.step.at(row), c.where(prev), c.where(row))
		}
		kept = append(kept, row)
	}
	v.order = kept
	n := len(kept)
	v.n = n
	v.step = resize(v.step, n)
	v.ts = resize(v.ts, n)
	v.call = resize(v.call, n)
	v.args = resize(v.args, n)
	v.norm = resize(v.norm, n)
	v.words = resize(v.words, n)
	v.sim = resize(v.sim, n)
	v.argSim = resize(v.argSim, n)
	v.plan = resize(v.plan, n)
	v.decision = resize(v.decision, n)
	v.tool = resize(v.tool, n)
	v.state = resize(v.state, n)
	v.flags = resize(v.flags, n)
	v.err = resize(v.err, n)
	v.res = resize(v.res, n)
	v.tok = resize(v.tok, n)
	v.cost = resize(v.cost, n)
	v.newArtifact = resize(v.newArtifact, n)
	v.intent = resize(v.intent, n)
	for i, row := range kept {
		v.step[i] = c.step.at(row)
		v.ts[i] = c.ts.at(row)
		v.tool[i] = c.tool.at(row)
		v.args[i] = c.argsKey.at(row)
		v.norm[i] = c.normKey.at(row)
		v.words[i], v.plan[i], v.decision[i], v.sim[i], v.argSim[i] = 0, 0, 0, 0, 0
		v.flags[i] = c.flags.at(row)
		if v.flags[i]&flagCall != 0 {
			v.call[i] = callIdentity(v.tool[i], v.args[i])
		} else {
			v.call[i] = 0
		}
		v.state[i] = c.state.at(row)
		v.err[i] = c.errType.at(row)
		v.res[i] = c.resHash.at(row)
		v.tok[i] = int64(c.tokens.at(row))
		v.cost[i] = c.cost.at(row)
		v.newArtifact[i] = false
		v.intent[i] = c.intent.at(row)
	}
	v.budget = budgetLimits{}
	if b := c.budgets[r]; b != nil {
		v.budget = *b
	}
	c.markNewArtifacts(v, r)
	c.placeMemory(v, r)
	placeValues(v, &c.emptyWords, r, v.words)
	placeValues(v, &c.resultSims, r, v.sim)
	placeValues(v, &c.argsSims, r, v.argSim)
	placeValues(v, &c.planKeys, r, v.plan)
	placeValues(v, &c.decisions, r, v.decision)
}

// placeValues copies run r's side-table values to their steps.
func placeValues[T any](v *runView, t *rowValues[T], r int32, dst []T) {
	refs := t.ofRun(r)
	if len(refs) == 0 {
		return
	}
	for _, k := range refs {
		if i, ok := v.position(t.row.at(k)); ok {
			dst[i] = t.val.at(k)
		}
	}
}

// placeMemory maps the run's memory reads and suspect writes to step
// indices, in step order.
func (c *Collector) placeMemory(v *runView, r int32) {
	v.memReads, v.suspect = v.memReads[:0], v.suspect[:0]
	reads, writes := c.memReads.ofRun(r), c.memSuspect[r]
	if len(reads) == 0 && len(writes) == 0 {
		return
	}
	for _, k := range reads {
		if i, ok := v.position(c.memReads.row.at(k)); ok {
			v.memReads = append(v.memReads, memAt{i, c.memReads.val.at(k)})
		}
	}
	for _, w := range writes {
		if i, ok := v.position(w.row); ok {
			v.suspect = append(v.suspect, suspectAt{i, uint32(w.id) ^ uint32(w.id>>32), w.name, w.why})
		}
	}
	slices.SortStableFunc(v.memReads, func(a, b memAt) int { return a.i - b.i })
	slices.SortStableFunc(v.suspect, func(a, b suspectAt) int { return a.i - b.i })
}

func (v *runView) problem(format string, a ...any) {
	if len(v.dataProblems) < maxDataProblems {
		v.dataProblems = append(v.dataProblems, fmt.Sprintf(format, a...))
	}
}

func (c *Collector) where(row int32) string {
	f := c.file.at(row)
	name := "?"
	if int(f) >= 0 && int(f) < len(c.files) {
		name = c.files[f]
	}
	return fmt.Sprintf("%s:%d", name, c.line.at(row))
}

func (c *Collector) lessRow(a, b int32) bool {
	sa, sb := c.step.at(a), c.step.at(b)
	if sa != sb {
		return sa < sb
	}
	return c.ts.at(a) < c.ts.at(b)
}

// markNewArtifacts flags the steps that produced an artifact id the run had
// not produced before (in step order).
func (c *Collector) markNewArtifacts(v *runView, r int32) {
	refs := c.artifacts.ofRun(r)
	if len(refs) == 0 {
		return
	}
	var list []memAt
	for _, k := range refs {
		if i, ok := v.position(c.artifacts.row.at(k)); ok {
			list = append(list, memAt{i, c.artifacts.val.at(k)})
		}
	}
	slices.SortStableFunc(list, func(a, b memAt) int { return a.i - b.i })
	seen := make(map[uint32]bool, len(list))
	for _, a := range list {
		if !seen[a.id] {
			seen[a.id] = true
			v.newArtifact[a.i] = true
		}
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
