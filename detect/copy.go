package detect

import (
	"slices"
	"unsafe"

	"github.com/runawayhq/runaway/schema"
)

// Partitioned is a collector's steps grouped by a partition of its run
// ids, once, so that each partition's runs can be copied out without
// scanning the others (a scan that spills splits its first, in-memory
// collector this way).
type Partitioned struct {
	c       *Collector
	runPart []int32      // partition of each run
	rows    [][]int32    // by partition: rows in collection order
	runs    [][]int32    // by partition: runs
	pairs   [4][][]int32 // by side table (sideTables), by partition: pair indices
	empties [][]int32    // by partition: pair indices of emptyWords
}

// sideTables are the (row, uint32) side tables, in a fixed order.
func (c *Collector) sideTables() [4]*rowValues[uint32] {
	return [4]*rowValues[uint32]{&c.artifacts.rowValues, &c.memReads.rowValues, &c.planKeys, &c.decisions}
}

// Partition groups c by partOf, which maps a run id to 0..n-1. c must not
// change afterwards.
func (c *Collector) Partition(n int, partOf func(runID string) int32) *Partitioned {
	p := &Partitioned{c: c, runPart: make([]int32, len(c.runIDs)), rows: make([][]int32, n), runs: make([][]int32, n)}
	for r, id := range c.runIDs {
		part := partOf(id)
		p.runPart[r] = part
		p.runs[part] = append(p.runs[part], int32(r))
	}
	for row := int32(0); int(row) < c.run.len(); row++ {
		part := p.runPart[c.run.at(row)]
		p.rows[part] = append(p.rows[part], row)
	}
	group := func(rowOf func(i int32) int32, count int) [][]int32 {
		out := make([][]int32, n)
		for i := int32(0); int(i) < count; i++ {
			part := p.runPart[c.run.at(rowOf(i))]
			out[part] = append(out[part], i)
		}
		return out
	}
	for t, table := range c.sideTables() {
		p.pairs[t] = group(table.row.at, table.row.len())
	}
	p.empties = group(c.emptyWords.row.at, c.emptyWords.row.len())
	return p
}

// CopyTo appends to dst the steps of partition part's runs, with everything
// collected about them, in collection order: afterwards dst holds what it
// would hold had it read those steps itself, and more batches may follow.
// Both collectors must use the same source names.
func (p *Partitioned) CopyTo(dst *Collector, part int32) {
	c := p.c
	runMap := make(map[int32]int32, len(p.runs[part]))
	for _, r := range p.runs[part] {
		runMap[r] = dst.internRun(c.runIDs[r])
	}
	// Names are interned as rows need them: a partition uses few of them.
	toolMap := map[int32]int32{}
	errMap := map[uint16]uint16{0: 0}
	intentMap := map[int32]int32{0: 0}
	// The partition's rows are ascending and land in dst one after another
	// from base, so a row's place in dst is found by binary search.
	rows, base := p.rows[part], int32(dst.run.len())
	rowMap := func(row int32) int32 {
		i, _ := slices.BinarySearch(rows, row)
		return base + int32(i)
	}
	for _, row := range rows {
		dst.run.append(runMap[c.run.at(row)])
		dst.step.append(c.step.at(row))
		dst.ts.append(c.ts.at(row))
		dst.argsKey.append(c.argsKey.at(row))
		t := c.tool.at(row)
		if t >= 0 {
			t = remap(toolMap, t, func(t int32) int32 { return dst.internTool(c.tools[t]) })
		}
		dst.tool.append(t)
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
	}
	dstTables := dst.sideTables()
	for t, table := range c.sideTables() {
		copyPairs(table, dstTables[t], p.pairs[t][part], rowMap)
	}
	copyPairs(&c.emptyWords, &dst.emptyWords, p.empties[part], rowMap)
	for _, r := range p.runs[part] {
		dr := runMap[r]
		for _, w := range c.memSuspect[r] {
			w.row = rowMap(w.row)
			dst.memSuspect[dr] = append(dst.memSuspect[dr], w)
			dst.heldBytes += suspectBytes
		}
		if b := c.budgets[r]; b != nil {
			limits := *b
			dst.budgets[dr] = &limits
			dst.heldBytes += budgetBytes
		}
	}
	for k, text := range c.otherArgs {
		dst.otherArgs[k] = text
	}
	c.shorts.copyRuns(&dst.shorts, runMap)
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

// copyRuns carries over the per-run state of the runs runMap holds (source
// run -> destination run), so that their later steps are rendered as if no
// copy had happened.
func (s *shortArgs) copyRuns(dst *shortArgs, runMap map[int32]int32) {
	for r, dr := range runMap {
		if int(r) >= len(s.recent) {
			continue
		}
		dst.grow(dr)
		dst.recent[dr], dst.next[dr] = s.recent[r], s.next[r]
		dst.emptyTool[dr], dst.emptyCount[dr] = s.emptyTool[r], s.emptyCount[r]
	}
	for k, text := range s.byKey {
		if dr, ok := runMap[int32(k>>32)]; ok {
			dst.byKey[shortKey(dr, uint32(k))] = text
			dst.bytes += int64(len(text)) + shortBytes
		}
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
// tool, file, intent (int32); normKey, resHash, tokens, line, lineHash
// (uint32); step, ts, argsKey, cost (8 bytes); flags, errType (uint16);
// state.
const rowBytes = int64(4*4 + 5*4 + 4*8 + 2*2 + unsafe.Sizeof(schema.State(0)))

// Estimated costs of what a collector keeps besides its columns: a run
// (its id's map entry and per-run slots), a suspect memory write, a logged
// budget, a kept args rendering (besides its text).
const (
	perRunBytes  = 64
	suspectBytes = 64
	budgetBytes  = 64
	shortBytes   = 48
)

// ApproxBytes estimates the memory c holds: its columns, side tables,
// interned strings and maps. A scan compares it with its memory budget
// after every batch, so it is kept up to date as c grows, not recounted.
func (c *Collector) ApproxBytes() int64 {
	n := int64(c.run.len()) * rowBytes
	n += int64(c.artifacts.row.len()+c.memReads.row.len()+c.planKeys.row.len()+c.decisions.row.len()) * 8
	n += int64(c.emptyWords.row.len()) * 12
	return n + c.heldBytes + c.shorts.bytes
}
