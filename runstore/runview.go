package runstore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// runView builds one run's detect.Run from the collector's rows, in place: a
// worker keeps one and reuses its columns from run to run.
type runView struct {
	detect.Run
	names  runNames
	shorts shortArgs // the renderings of args evidence may show

	order  []int32 // scratch
	textAt []int32 // scratch: each step's entry in the collector's texts, -1 for none
	// rows is the run's rows in input order, that is ascending; at maps
	// rows[j] to its step index (-1: a duplicate line dropped), so a search
	// in rows finds a row's step without a map to fill for every run. at
	// is built at most once per run, and only for runs that log artifacts
	// or memory.
	rows     []int32
	at       []int32
	lines    stepLines // gather's scratch
	inOrder  bool      // order kept the rows' order (gather did not sort them)
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

// runNames are the collector's names as one run's Names.
type runNames struct {
	c      *Collector
	shorts *shortArgs // the run's
}

func (n *runNames) ToolName(id int32) string {
	if id < 0 || int(id) >= len(n.c.tools) {
		return ""
	}
	return n.c.tools[id]
}

func (n *runNames) ErrTypeName(id uint16) string { return n.c.errTypes[id] }

func (n *runNames) IntentName(id int32) string { return n.c.intents[id] }

// argsText shows a call's args in evidence: the short rendering of args
// the run repeated (these args, else args equal to them once normalised),
// else the args hash as logged ("sha256:<16 hex>").
func (n *runNames) ArgsText(args uint64, norm uint32) string {
	if s, ok := n.shorts.byNorm[norm]; ok && norm != 0 {
		return s
	}
	if s, ok := n.c.otherArgs[args]; ok {
		return s
	}
	return fmt.Sprintf("sha256:%016x", args)
}

func (n *runNames) HasShortArgs(norm uint32) bool {
	_, ok := n.shorts.byNorm[norm]
	return ok && norm != 0
}

const maxDataProblems = 5

// gather builds v for run r from its rows (in input order): sorted by
// step, then ts, then content (lessRow), so that the order does not depend
// on the input's; exact duplicate lines (same step, same bytes) dropped and
// counted; conflicting duplicates kept and reported.
func (c *Collector) gather(v *runView, r int32, rows []int32) {
	v.ID = c.runIDs[r]
	v.names = runNames{c, &v.shorts}
	v.Names = &v.names
	v.DataProblems = nil
	v.posBuilt, v.next = false, 0
	v.Duplicates, v.Conflicts = 0, 0
	v.rows = rows
	v.order = append(v.order[:0], rows...)
	sorted := true
	for i := 1; i < len(v.order); i++ {
		if c.compareRows(v.order[i], v.order[i-1]) < 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		slices.SortFunc(v.order, c.compareRows)
	}
	v.inOrder = sorted
	kept := v.order[:0]
	group := 0 // kept[group:] are the rows kept of the current step
	for _, row := range v.order {
		if len(kept) == 0 || c.step.at(row) != c.step.at(kept[len(kept)-1]) {
			group = len(kept)
			v.lines.reset()
			kept = append(kept, row)
			continue
		}
		// A copy is compared with every line kept of its step, not only
		// the row before it: that one may be a conflicting version, and
		// messages must name a line the analysis holds.
		if same, ok := v.lines.same(c, kept[group:], row); ok {
			v.Duplicates++
			v.problem("step %d logged twice with identical content (kept %s, dropped %s)",
				c.step.at(row), c.where(same), c.where(row))
			continue
		}
		v.Conflicts++
		v.problem("step %d logged twice with different content (%s and %s); both were analyzed",
			c.step.at(row), c.where(kept[group]), c.where(row))
		kept = append(kept, row)
	}
	v.order = kept
	n := len(kept)
	v.Step = resize(v.Step, n)
	v.TS = resize(v.TS, n)
	v.Args = resize(v.Args, n)
	v.Norm = resize(v.Norm, n)
	v.Shape = resize(v.Shape, n)
	v.Words = resize(v.Words, n)
	v.EditFile = resize(v.EditFile, n)
	v.FailFile = resize(v.FailFile, n)
	v.FileCopy = resize(v.FileCopy, n)
	v.FailMistake = resize(v.FailMistake, n)
	v.Sim = resize(v.Sim, n)
	v.ArgSim = resize(v.ArgSim, n)
	v.Plan = resize(v.Plan, n)
	v.Decision = resize(v.Decision, n)
	v.Tool = resize(v.Tool, n)
	v.State = resize(v.State, n)
	v.Flags = resize(v.Flags, n)
	v.ErrType = resize(v.ErrType, n)
	v.Result = resize(v.Result, n)
	v.Tokens = resize(v.Tokens, n)
	v.Cost = resize(v.Cost, n)
	v.NewArtifact = resize(v.NewArtifact, n)
	v.StaleTalk = resize(v.StaleTalk, n)
	v.AskedFirst = resize(v.AskedFirst, n)
	v.Intent = resize(v.Intent, n)
	for i, row := range kept {
		v.Step[i] = c.step.at(row)
		v.TS[i] = c.ts.at(row)
		v.Tool[i] = c.tool.at(row)
		v.Args[i] = c.argsKey.at(row)
		v.Norm[i] = c.normKey.at(row)
		v.Shape[i] = c.shapeKey.at(row)
		v.Words[i], v.Plan[i], v.Decision[i], v.Sim[i], v.ArgSim[i] = 0, 0, 0, 0, 0
		v.EditFile[i], v.FailFile[i], v.FileCopy[i], v.FailMistake[i] = 0, 0, 0, 0
		v.Flags[i] = c.flags.at(row)
		v.State[i] = c.state.at(row)
		v.ErrType[i] = c.errType.at(row)
		v.Result[i] = c.resHash.at(row)
		v.Tokens[i] = int64(c.tokens.at(row))
		v.Cost[i] = c.cost.at(row)
		v.NewArtifact[i], v.StaleTalk[i], v.AskedFirst[i] = false, false, -1
		v.Intent[i] = c.intent.at(row)
	}
	v.Budget = detect.Budget{}
	if b := c.budgets[r]; b != nil {
		v.Budget = *b
	}
	c.markNewArtifacts(v, r)
	talk := v.inStepOrder(&c.talkWords, r)
	markStaleTalk(v, talk)
	markRestated(v, talk)
	c.placeMemory(v, r)
	placeValues(v, &c.queryWords, r, v.Words)
	placeValues(v, &c.resultSims, r, v.Sim)
	placeValues(v, &c.argsSims, r, v.ArgSim)
	placeValues(v, &c.planKeys, r, v.Plan)
	placeValues(v, &c.decisions, r, v.Decision)
	placeValues(v, &c.editFiles, r, v.EditFile)
	placeValues(v, &c.failFiles, r, v.FailFile)
	placeValues(v, &c.fileCopies, r, v.FileCopy)
	placeValues(v, &c.failMistakes, r, v.FailMistake)
	c.chooseShortArgs(v, r)
}

// chooseShortArgs chooses the run's args renderings (shortArgs) over its
// calls in step order.
func (c *Collector) chooseShortArgs(v *runView, r int32) {
	v.shorts.reset()
	refs := c.texts.ofRun(r)
	if len(refs) == 0 {
		return
	}
	v.textAt = resize(v.textAt, len(v.Step))
	for i := range v.textAt {
		v.textAt[i] = -1
	}
	for _, k := range refs {
		if i, ok := v.position(c.texts.row.at(k)); ok {
			v.textAt[i] = k
		}
	}
	for i, k := range v.textAt {
		if k >= 0 && v.shorts.see(v.Norm[i], v.Tool[i], v.Flags[i]&(flagEmpty|schema.FlagQuery) != 0) {
			v.shorts.byNorm[v.Norm[i]] = c.texts.keep(k)
		}
	}
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
	v.MemReads, v.Suspect = v.MemReads[:0], v.Suspect[:0]
	reads, writes := c.memReads.ofRun(r), c.memSuspect[r]
	if len(reads) == 0 && len(writes) == 0 {
		return
	}
	for _, k := range reads {
		if i, ok := v.position(c.memReads.row.at(k)); ok {
			v.MemReads = append(v.MemReads, detect.MemRead{At: i, ID: c.memReads.val.at(k)})
		}
	}
	for _, w := range writes {
		if i, ok := v.position(w.row); ok {
			v.Suspect = append(v.Suspect, detect.SuspectWrite{At: i, ID: uint32(w.id) ^ uint32(w.id>>32), Name: w.name, Why: w.why})
		}
	}
	slices.SortStableFunc(v.MemReads, func(a, b detect.MemRead) int { return a.At - b.At })
	slices.SortStableFunc(v.Suspect, func(a, b detect.SuspectWrite) int { return a.At - b.At })
}

func (v *runView) problem(format string, a ...any) {
	if len(v.DataProblems) < maxDataProblems {
		v.DataProblems = append(v.DataProblems, fmt.Sprintf(format, a...))
	}
}

// linearLines is the most kept rows of a step sameLine compares one by
// one; past it, a map keeps a logger that numbers every step 0 from
// costing the square of its lines.
const linearLines = 16

// stepLines finds, among the rows kept so far of one step, the one whose
// line is identical to another row's.
type stepLines struct {
	index   map[uint32]int32 // line hash -> the first row kept with it, past linearLines
	indexed int              // kept rows in index
}

func (s *stepLines) reset() { s.indexed = 0 }

// same returns the row of kept (the rows kept so far of row's step, in
// order) whose line is identical to row's.
func (s *stepLines) same(c *Collector, kept []int32, row int32) (int32, bool) {
	h := c.lineHash.at(row)
	if len(kept) <= linearLines {
		for _, k := range kept {
			if c.lineHash.at(k) == h {
				return k, true
			}
		}
		return 0, false
	}
	if s.index == nil {
		s.index = map[uint32]int32{}
	}
	if s.indexed == 0 {
		clear(s.index)
	}
	for _, k := range kept[s.indexed:] {
		if _, ok := s.index[c.lineHash.at(k)]; !ok {
			s.index[c.lineHash.at(k)] = k
		}
	}
	s.indexed = len(kept)
	k, ok := s.index[h]
	return k, ok
}

func (c *Collector) where(row int32) string {
	return fmt.Sprintf("%s:%d", c.fileName(c.file.at(row)), c.line.at(row))
}

// compareRows orders a run's rows: by step, then ts, then the hash of the
// line (what it says), then the name of its file and its line there. Rows
// that compare equal are the same line read from the same place (a file
// named twice). Input order never decides: ties on (step, ts) are the
// conflicting and re-shipped copies of a step, and the one a scan keeps, and
// the order of those it reports, must not change with the order of the
// files or lines. The last keys only order exact copies, for the locations
// that data_problems name, by file name (a source's index is its place in
// the input's order).
func (c *Collector) compareRows(a, b int32) int {
	if x := cmp.Compare(c.step.at(a), c.step.at(b)); x != 0 {
		return x
	}
	if x := cmp.Compare(c.ts.at(a), c.ts.at(b)); x != 0 {
		return x
	}
	if x := cmp.Compare(c.lineHash.at(a), c.lineHash.at(b)); x != 0 {
		return x
	}
	if fa, fb := c.file.at(a), c.file.at(b); fa != fb {
		if x := strings.Compare(c.fileName(fa), c.fileName(fb)); x != 0 {
			return x
		}
	}
	return cmp.Compare(c.line.at(a), c.line.at(b))
}

// fileName is the name of source f, "?" when it has none.
func (c *Collector) fileName(f int32) string {
	if int(f) >= 0 && int(f) < len(c.files) {
		return c.files[f]
	}
	return "?"
}

// talkNumbersMark and talkAskMark are schema.TalkNumbersMark and
// schema.TalkAskMark as the side table holds them.
var (
	talkNumbersMark = fold32(schema.IDHash(schema.TalkNumbersMark))
	talkAskMark     = fold32(schema.IDHash(schema.TalkAskMark))
)

// pastAsk is a thing the agent asked for since its last call of another
// tool: its words, and the turn that first asked for it.
type pastAsk struct {
	words []uint32
	turn  int
}

// markStaleTalk flags the agent's turns of conversation that say nothing
// new (detect.Run.StaleTalk): in step order, the words, numbers and asks
// of its turns since its last call of another tool are remembered; a turn
// of which fewer than a third of the words are new, and no number, is
// stale, and so is a turn that asks again for something it asked for
// before (detect.Run.AskedFirst names the turn that first asked). The
// first turn after a call is never stale: there is nothing it could
// repeat. list is the run's talk_words in step order; turns one agent of
// the run addressed to another are markRestated's.
func markStaleTalk(v *runView, list []valueAt) {
	if len(list) == 0 {
		return
	}
	said := map[uint32]bool{}
	var asked []pastAsk
	k := 0
	for i := range v.Len() {
		if v.Tool[i] < 0 {
			continue
		}
		if v.names.ToolName(v.Tool[i]) != schema.ToolMessage {
			clear(said)
			asked = asked[:0]
			continue
		}
		first := k
		for k < len(list) && list[k].i == i {
			k++
		}
		turn := list[first:k]
		if len(turn) > 0 && turn[0].val == talkAgentMark {
			continue // a turn to another agent of the run: markRestated's
		}
		words, freshWords, freshNumbers := 0, 0, 0
		numbers := false
		end := len(turn) // where the turn's asks begin
		for j, w := range turn {
			if w.val == talkAskMark {
				end = j
				break
			}
			switch {
			case w.val == talkNumbersMark:
				numbers = true
			case said[w.val] && !numbers:
				words++
			case numbers:
				if !said[w.val] {
					freshNumbers++
				}
			default:
				words++
				freshWords++
			}
		}
		asks := splitAsks(turn[end:])
		again := -1
		for _, ask := range asks {
			if t := askedBefore(asked, ask); t >= 0 && (again < 0 || t < again) {
				again = t
			}
		}
		v.StaleTalk[i] = len(said) > 0 && ((words > 0 && 3*freshWords < words && freshNumbers == 0) || again >= 0)
		if again >= 0 {
			v.AskedFirst[i] = int32(again)
		}
		for _, w := range turn[:end] {
			if w.val != talkNumbersMark {
				said[w.val] = true
			}
		}
		for _, ask := range asks {
			if askedBefore(asked, ask) < 0 {
				asked = append(asked, pastAsk{words: ask, turn: i})
			}
		}
	}
}

// splitAsks cuts the ask part of a turn's talk_words at each
// talkAskMark.
func splitAsks(list []valueAt) [][]uint32 {
	var asks [][]uint32
	for _, w := range list {
		if w.val == talkAskMark {
			asks = append(asks, nil)
			continue
		}
		if len(asks) > 0 {
			asks[len(asks)-1] = append(asks[len(asks)-1], w.val)
		}
	}
	return asks
}

// askedBefore is the turn that first asked for what ask asks for, or -1:
// an earlier ask sharing at least two of its words and at least half of
// them ("your reservation id" and "the reservation id of the booking").
func askedBefore(asked []pastAsk, ask []uint32) int {
	for _, p := range asked {
		shared := 0
		for _, w := range ask {
			if slices.Contains(p.words, w) {
				shared++
			}
		}
		if shared >= 2 && 2*shared >= len(ask) {
			return p.turn
		}
	}
	return -1
}

// markNewArtifacts flags the steps that produced an artifact id the run had
// not produced before (in step order).
func (c *Collector) markNewArtifacts(v *runView, r int32) {
	list := v.inStepOrder(&c.artifacts, r)
	seen := make(map[uint32]bool, len(list))
	for _, a := range list {
		if !seen[a.val] {
			seen[a.val] = true
			v.NewArtifact[a.i] = true
		}
	}
}

// valueAt is a side table's value at step index i of the run view.
type valueAt struct {
	i   int
	val uint32
}

// inStepOrder is run r's pairs of the side table, at their step indices,
// in step order (a step's values in the order logged).
func (v *runView) inStepOrder(refs *rowRefs, r int32) []valueAt {
	pairs := refs.ofRun(r)
	if len(pairs) == 0 {
		return nil
	}
	list := make([]valueAt, 0, len(pairs))
	for _, k := range pairs {
		if i, ok := v.position(refs.row.at(k)); ok {
			list = append(list, valueAt{i, refs.val.at(k)})
		}
	}
	slices.SortStableFunc(list, func(a, b valueAt) int { return a.i - b.i })
	return list
}
