package detect

import (
	"unsafe"

	"github.com/runawayhq/runaway/schema"
)

// CopyRuns appends to dst the steps of c's runs whose id keep accepts, with
// everything collected about them, in c's order: afterwards dst holds what
// it would hold had it read those steps itself, and more batches may follow
// (a scan that spills splits its first, in-memory collector by partition
// this way). c is unchanged. Both must use the same source names.
func (c *Collector) CopyRuns(dst *Collector, keep func(runID string) bool) {
	runMap := make([]int32, len(c.runIDs)) // dst run, or -1
	for r, id := range c.runIDs {
		runMap[r] = -1
		if keep(id) {
			runMap[r] = dst.internRun(id)
		}
	}
	toolMap := make([]int32, len(c.tools))
	for t, name := range c.tools {
		toolMap[t] = dst.internTool(name)
	}
	errMap := make([]uint16, len(c.errTypes))
	for e := 1; e < len(c.errTypes); e++ {
		errMap[e] = dst.internErrType(c.errTypes[e])
	}
	intentMap := make([]int32, len(c.intents))
	for i := 1; i < len(c.intents); i++ {
		intentMap[i] = dst.internIntent(c.intents[i])
	}
	rowMap := make([]int32, c.run.len()) // dst row, or -1
	for row := int32(0); int(row) < c.run.len(); row++ {
		dr := runMap[c.run.at(row)]
		if dr < 0 {
			rowMap[row] = -1
			continue
		}
		rowMap[row] = int32(dst.run.len())
		dst.run.append(dr)
		dst.step.append(c.step.at(row))
		dst.ts.append(c.ts.at(row))
		dst.argsKey.append(c.argsKey.at(row))
		if t := c.tool.at(row); t >= 0 {
			dst.tool.append(toolMap[t])
		} else {
			dst.tool.append(t)
		}
		dst.state.append(c.state.at(row))
		dst.flags.append(c.flags.at(row))
		dst.errType.append(errMap[c.errType.at(row)])
		dst.resHash.append(c.resHash.at(row))
		dst.tokens.append(c.tokens.at(row))
		dst.cost.append(c.cost.at(row))
		dst.file.append(c.file.at(row))
		dst.line.append(c.line.at(row))
		dst.lineHash.append(c.lineHash.at(row))
		dst.intent.append(intentMap[c.intent.at(row)])
		dst.normKey.append(c.normKey.at(row))
	}
	copyValues(&c.artifacts.rowValues, &dst.artifacts.rowValues, rowMap)
	copyValues(&c.memReads.rowValues, &dst.memReads.rowValues, rowMap)
	copyValues(&c.emptyWords, &dst.emptyWords, rowMap)
	copyValues(&c.planKeys, &dst.planKeys, rowMap)
	copyValues(&c.decisions, &dst.decisions, rowMap)
	for r, writes := range c.memSuspect {
		if dr := runMap[r]; dr >= 0 {
			for _, w := range writes {
				w.row = rowMap[w.row]
				dst.memSuspect[dr] = append(dst.memSuspect[dr], w)
				dst.heldBytes += suspectBytes
			}
		}
	}
	for r, b := range c.budgets {
		if dr := runMap[r]; dr >= 0 {
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

func copyValues[T any](src, dst *rowValues[T], rowMap []int32) {
	for i := int32(0); int(i) < src.row.len(); i++ {
		if nr := rowMap[src.row.at(i)]; nr >= 0 {
			dst.add(nr, src.val.at(i))
		}
	}
}

// copyRuns carries over the per-run state of the runs runMap keeps, so that
// their later steps are rendered as if no copy had happened.
func (s *shortArgs) copyRuns(dst *shortArgs, runMap []int32) {
	for r := range s.recent {
		dr := runMap[r]
		if dr < 0 {
			continue
		}
		dst.grow(dr)
		dst.recent[dr], dst.next[dr] = s.recent[r], s.next[r]
		dst.emptyTool[dr], dst.emptyCount[dr] = s.emptyTool[r], s.emptyCount[r]
	}
	for k, text := range s.byKey {
		if dr := runMap[int32(k>>32)]; dr >= 0 {
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
