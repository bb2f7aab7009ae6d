package runstore

import "math/bits"

// Sizes are how many values each of a collector's columns holds, for
// sizing a collector that will hold about as many (Expect).
type Sizes struct {
	rows, empties, sims, argSims, texts int
	pairs                               [numSideTables]int // sideTables' order
}

// Sizes returns what c holds, for Expect.
func (c *Collector) Sizes() Sizes {
	s := Sizes{rows: c.run.len(), empties: c.queryWords.row.len(), sims: c.resultSims.row.len(), argSims: c.argsSims.row.len(), texts: c.texts.row.len()}
	for t, table := range c.sideTables() {
		s.pairs[t] = table.row.len()
	}
	return s
}

// Expect has each of c's columns, when its first chunk is next made or
// grows, take at once the capacity that doubling would reach for s's
// values: a scan replaces its collector by a fresh one every budget's
// worth of steps, and growing some 25 columns from firstChunk by doubling
// each time allocated, zeroed and copied as much again as the chunks kept.
// A collector that ends up holding about as many values as s holds no more
// than it would have unsized. Expect allocates nothing itself: called once
// the collector it replaces is done with, the chunks are made only after
// that one is garbage.
func (c *Collector) Expect(s Sizes) {
	rows := doublingCap(s.rows)
	c.run.expect, c.step.expect, c.ts.expect, c.argsKey.expect = rows, rows, rows, rows
	c.tool.expect, c.state.expect, c.flags.expect, c.errType.expect = rows, rows, rows, rows
	c.resHash.expect, c.tokens.expect, c.cost.expect, c.file.expect = rows, rows, rows, rows
	c.line.expect, c.lineHash.expect, c.intent.expect, c.normKey.expect = rows, rows, rows, rows
	c.shapeKey.expect = rows
	for t, table := range c.sideTables() {
		table.row.expect, table.val.expect = doublingCap(s.pairs[t]), doublingCap(s.pairs[t])
	}
	c.queryWords.row.expect, c.queryWords.val.expect = doublingCap(s.empties), doublingCap(s.empties)
	c.resultSims.row.expect, c.resultSims.val.expect = doublingCap(s.sims), doublingCap(s.sims)
	c.argsSims.row.expect, c.argsSims.val.expect = doublingCap(s.argSims), doublingCap(s.argSims)
	c.texts.row.expect, c.texts.val.expect = doublingCap(s.texts), doublingCap(s.texts)
}

// doublingCap is the capacity a first chunk reaches by doubling from
// firstChunk to hold n values.
func doublingCap(n int) int {
	if n <= firstChunk {
		return 0
	}
	return min(1<<bits.Len(uint(n-1)), chunkSize)
}
