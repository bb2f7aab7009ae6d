package runstore

import (
	"fmt"
	"github.com/runawayhq/runaway/detect"
	"slices"
	"unsafe"

	"github.com/runawayhq/runaway/schema"
)

// Partitioned is a collector's steps grouped by a partition of its run
// ids, once, so that each partition's runs can be copied out (CopyTo) or
// written (WriteSegment) without scanning the others: a scan that spills
// splits its collectors this way.
type Partitioned struct {
	c        *Collector
	runPart  []int32 // partition of each run
	runLocal []int32 // index of each run among its partition's runs
	runs     groups  // runs, ascending
	rows     groups  // rows in collection order
	rowLocal []int32 // index of each row among its partition's rows
	pairs    [numSideTables]groups
	empties  groups // pair indices of queryWords
	sims     groups // pair indices of resultSims
	argSims  groups // pair indices of argsSims
	texts    groups // entries of texts
	seg      *segWriter
}

// groups are the indices 0..n-1 of some table sorted by partition (stably):
// partition p's are idx[off[p]:off[p+1]].
type groups struct{ idx, off []int32 }

func (g *groups) of(p int32) []int32 { return g.idx[g.off[p]:g.off[p+1]] }

// groupBy sorts the indices of parts by their partition with a counting
// sort.
func groupBy(n int, parts []int32) groups {
	off := make([]int32, n+1)
	for _, p := range parts {
		off[p+1]++
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	idx := make([]int32, len(parts))
	fill := slices.Clone(off[:n])
	for i, p := range parts {
		idx[fill[p]] = int32(i)
		fill[p]++
	}
	return groups{idx: idx, off: off}
}

// numSideTables is how many (row, uint32) side tables a collector keeps.
const numSideTables = 9

// sideTables are the (row, uint32) side tables, in a fixed order.
func (c *Collector) sideTables() [numSideTables]*rowValues[uint32] {
	return [numSideTables]*rowValues[uint32]{&c.artifacts.rowValues, &c.memReads.rowValues, &c.planKeys, &c.decisions, &c.talkWords.rowValues, &c.editFiles, &c.failFiles, &c.fileCopies, &c.failMistakes}
}

// Partition groups c by partOf, which maps a run id to 0..n-1. c must not
// change afterwards.
func (c *Collector) Partition(n int, partOf func(runID string) int32) *Partitioned {
	return c.PartitionRuns(n, func(run int) int32 { return partOf(c.runIDs[run]) })
}

// PartitionRuns is Partition by the runs' indices in c (as Idle gives them).
func (c *Collector) PartitionRuns(n int, partOf func(run int) int32) *Partitioned {
	p := &Partitioned{c: c, runPart: make([]int32, len(c.runIDs)), runLocal: make([]int32, len(c.runIDs))}
	for r := range c.runIDs {
		p.runPart[r] = partOf(r)
	}
	p.runs = groupBy(n, p.runPart)
	for part := range n {
		for i, r := range p.runs.of(int32(part)) {
			p.runLocal[r] = int32(i)
		}
	}
	parts := make([]int32, 0, c.run.len())
	for _, chunk := range c.run.chunks {
		for _, r := range chunk {
			parts = append(parts, p.runPart[r])
		}
	}
	p.rows = groupBy(n, parts)
	p.rowLocal = make([]int32, c.run.len())
	for part := range n {
		for i, row := range p.rows.of(int32(part)) {
			p.rowLocal[row] = int32(i)
		}
	}
	rowsOf := func(rows *chunked[int32]) []int32 {
		parts = parts[:0]
		for _, chunk := range rows.chunks {
			for _, row := range chunk {
				parts = append(parts, p.runPart[c.run.at(row)])
			}
		}
		return parts
	}
	for t, table := range c.sideTables() {
		p.pairs[t] = groupBy(n, rowsOf(&table.row))
	}
	p.empties = groupBy(n, rowsOf(&c.queryWords.row))
	p.sims = groupBy(n, rowsOf(&c.resultSims.row))
	p.argSims = groupBy(n, rowsOf(&c.argsSims.row))
	p.texts = groupBy(n, rowsOf(&c.texts.row))
	return p
}

// Rows is the number of steps of partition part.
func (p *Partitioned) Rows(part int32) int { return len(p.rows.of(part)) }

// ApproxBytes estimates what partition part's steps would hold in a
// collector (see Collector.ApproxBytes).
func (p *Partitioned) ApproxBytes(part int32) int64 {
	c := p.c
	n := int64(len(p.rows.of(part))) * rowBytes
	for t := range p.pairs {
		n += int64(len(p.pairs[t].of(part))) * 8
	}
	n += int64(len(p.empties.of(part))+len(p.sims.of(part))+len(p.argSims.of(part))) * 12
	for _, r := range p.runs.of(part) {
		n += int64(len(c.runIDs[r])) + perRunBytes + int64(len(c.memSuspect[r]))*suspectBytes
	}
	for _, i := range p.texts.of(part) {
		start := uint64(0)
		if i > 0 {
			start = c.texts.val.at(i - 1)
		}
		n += 12 + int64(c.texts.val.at(i)-start)
	}
	return n
}

// CopyTo appends to dst the steps of partition part's runs, with everything
// collected about them, in collection order: afterwards dst holds what it
// would hold had it read those steps itself, and more steps may follow.
// dst may already hold earlier steps of those runs (from ReadSegment). Both
// collectors must use the same source names.
func (p *Partitioned) CopyTo(dst *Collector, part int32) error {
	c := p.c
	runs, rows := p.runs.of(part), p.rows.of(part)
	if len(rows) == 0 && len(runs) == 0 {
		return nil
	}
	if dst.run.len()+len(rows) > maxRows {
		return fmt.Errorf("runstore: more than %d steps in one collector", maxRows)
	}
	runMap := make([]int32, len(runs)) // by local run index
	for i, r := range runs {
		runMap[i] = dst.internRun(c.runIDs[r])
	}
	// Names are interned as rows need them: a partition uses few of them.
	toolMap := map[int32]int32{}
	toolOf := func(t int32) int32 {
		if t < 0 {
			return t
		}
		return remap(toolMap, t, func(t int32) int32 { return dst.internTool(c.tools[t]) })
	}
	errMap := map[uint16]uint16{0: 0}
	intentMap := map[int32]int32{0: 0}
	// The partition's rows land in dst one after another from base.
	base := int32(dst.run.len())
	rowMap := func(row int32) int32 { return base + p.rowLocal[row] }
	for _, row := range rows {
		dst.run.append(runMap[p.runLocal[c.run.at(row)]])
		dst.step.append(c.step.at(row))
		dst.ts.append(c.ts.at(row))
		dst.argsKey.append(c.argsKey.at(row))
		dst.tool.append(toolOf(c.tool.at(row)))
		dst.state.append(c.state.at(row))
		dst.flags.append(c.flags.at(row))
		dst.errType.append(remap(errMap, c.errType.at(row), func(e uint16) uint16 { return dst.internErrType(c.errTypes[e]) }))
		dst.resHash.append(c.resHash.at(row))
		dst.tokens.append(c.tokens.at(row))
		dst.cost.append(c.cost.at(row))
		dst.file.append(c.file.at(row))
		dst.line.append(c.line.at(row))
		dst.lineHash.append(c.lineHash.at(row))
		dst.intent.append(remap(intentMap, c.intent.at(row), func(i int32) int32 { return dst.internIntent(c.intents[i]) }))
		dst.normKey.append(c.normKey.at(row))
		dst.shapeKey.append(c.shapeKey.at(row))
	}
	dstTables := dst.sideTables()
	for t, table := range c.sideTables() {
		copyPairs(table, dstTables[t], p.pairs[t].of(part), rowMap)
	}
	copyPairs(&c.queryWords, &dst.queryWords, p.empties.of(part), rowMap)
	copyPairs(&c.resultSims, &dst.resultSims, p.sims.of(part), rowMap)
	copyPairs(&c.argsSims, &dst.argsSims, p.argSims.of(part), rowMap)
	for i, r := range runs {
		dr := runMap[i]
		for _, w := range c.memSuspect[r] {
			w.row = rowMap(w.row)
			dst.memSuspect[dr] = append(dst.memSuspect[dr], w)
			dst.heldBytes += suspectBytes
		}
		if b := c.budgets[r]; b != nil {
			dst.addBudget(dr, b)
		}
	}
	if len(c.otherArgs) > 0 {
		for _, row := range rows {
			k := c.argsKey.at(row)
			if text, ok := c.otherArgs[k]; ok {
				dst.otherArgs[k] = text
			}
		}
	}
	for _, i := range p.texts.of(part) {
		dst.texts.add(rowMap(c.texts.row.at(i)), c.texts.text(i))
	}
	return nil
}

// addBudget tightens run's budget by b: the tightest logged limit wins
// whichever collector saw it first.
func (c *Collector) addBudget(run int32, b *detect.Budget) {
	cur := c.budgets[run]
	if cur == nil {
		limits := *b
		c.budgets[run] = &limits
		c.heldBytes += budgetBytes
		return
	}
	tighten := func(cur *int64, v int64) {
		if v > 0 && (*cur == 0 || v < *cur) {
			*cur = v
		}
	}
	tightenF := func(cur *float64, v float64) {
		if v > 0 && (*cur == 0 || v < *cur) {
			*cur = v
		}
	}
	tighten(&cur.Steps, b.Steps)
	tighten(&cur.ToolCalls, b.ToolCalls)
	tighten(&cur.Tokens, b.Tokens)
	tightenF(&cur.CostUSD, b.CostUSD)
	tightenF(&cur.Seconds, b.Seconds)
}

// remap returns m[k], filling it with add(k) the first time.
func remap[K comparable](m map[K]K, k K, add func(K) K) K {
	v, ok := m[k]
	if !ok {
		v = add(k)
		m[k] = v
	}
	return v
}

func copyPairs[T any](src, dst *rowValues[T], pairs []int32, rowMap func(int32) int32) {
	for _, i := range pairs {
		dst.add(rowMap(src.row.at(i)), src.val.at(i))
	}
}

func (c *Collector) internRun(id string) int32 {
	idx, added := intern(&c.runIDs, c.runIndex, id)
	if added {
		c.heldBytes += int64(len(id)) + perRunBytes
	}
	return idx
}

func (c *Collector) internTool(name string) int32 {
	idx, _ := intern(&c.tools, c.toolIdx, name)
	return idx
}

func (c *Collector) internIntent(name string) int32 {
	idx, _ := intern(&c.intents, c.intentIdx, name)
	return idx
}

// intern returns the index of name in list, adding it (name must be a
// string the collector may keep) when it is new.
func intern(list *[]string, index map[string]int32, name string) (int32, bool) {
	if idx, ok := index[name]; ok {
		return idx, false
	}
	idx := int32(len(*list))
	*list = append(*list, name)
	index[name] = idx
	return idx, true
}

func (c *Collector) internErrType(name string) uint16 {
	idx, ok := c.errIdx[name]
	if !ok {
		if len(c.errTypes) >= 1<<16-1 {
			return c.errIdx[c.errTypes[len(c.errTypes)-1]]
		}
		idx = uint16(len(c.errTypes))
		c.errTypes = append(c.errTypes, name)
		c.errIdx[name] = idx
	}
	return idx
}

// StepBytes is what one collected step costs in a collector's columns, for
// callers that budget memory by steps.
const StepBytes = rowBytes

// rowBytes is what one collected step costs in the chunked columns: run,
// tool, file, intent (int32); normKey, shapeKey, resHash, tokens, line,
// lineHash (uint32); step, ts, argsKey, cost (8 bytes); flags, errType
// (uint16); state.
const rowBytes = int64(4*4 + 6*4 + 4*8 + 2*2 + unsafe.Sizeof(schema.State(0)))

// Estimated costs of what a collector keeps besides its columns: a run
// (its id's map entry and per-run slots), a suspect memory write, a logged
// budget.
const (
	perRunBytes  = 64
	suspectBytes = 64
	budgetBytes  = 64
)

// ApproxBytes estimates the memory c holds: its columns, side tables,
// interned strings and maps. A scan compares it with its memory budget
// after every batch, so it is kept up to date as c grows, not recounted.
func (c *Collector) ApproxBytes() int64 {
	n := int64(c.run.len()) * rowBytes
	for _, t := range c.sideTables() {
		n += int64(t.row.len()) * 8
	}
	n += int64(c.queryWords.row.len()+c.resultSims.row.len()+c.argsSims.row.len()) * 12
	return n + c.heldBytes + c.texts.bytes()
}
