package runstore

import (
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/runawayhq/runaway/schema"
)

// rowValues are (row, value) pairs for facts that most steps do not have
// (artifacts, memory reads, empty results, plans): 8-12 bytes a pair in
// chunked columns instead of a mostly empty column, grouped by run once,
// when the input is complete.
type rowValues[T any] struct {
	row chunked[int32]
	val chunked[T]
	// byRun[offsets[r]:offsets[r+1]] are the pair indices of run r.
	offsets []int32
	byRun   []int32
}

func (p *rowValues[T]) add(row int32, v T) {
	p.row.append(row)
	p.val.append(v)
}

// group sorts the pairs by run (stable: input order within a run).
func (p *rowValues[T]) group(c *Collector) {
	nRuns := len(c.runIDs)
	p.offsets = make([]int32, nRuns+1)
	for i := 0; i < p.row.len(); i++ {
		p.offsets[c.run.at(p.row.at(int32(i)))+1]++
	}
	for r := 0; r < nRuns; r++ {
		p.offsets[r+1] += p.offsets[r]
	}
	fill := slices.Clone(p.offsets[:nRuns])
	p.byRun = make([]int32, p.row.len())
	for i := 0; i < p.row.len(); i++ {
		r := c.run.at(p.row.at(int32(i)))
		p.byRun[fill[r]] = int32(i)
		fill[r]++
	}
}

// ofRun returns the pair indices of run r.
func (p *rowValues[T]) ofRun(r int32) []int32 { return p.byRun[p.offsets[r]:p.offsets[r+1]] }

// rowRefs pair rows with the hash of an id (an artifact, a memory),
// folded to 32 bits.
type rowRefs struct{ rowValues[uint32] }

func fold32(h uint64) uint32 { return uint32(h) ^ uint32(h>>32) }

// addNearDuplicateKeys keeps each call's normalised-args key, the word
// signature of calls that came back empty, and the short rendering of args
// that repeat.
func (c *Collector) addNearDuplicateKeys(rec arrow.RecordBatch, base int32, n int) {
	norm := rec.Column(schema.ColArgsNorm).(*array.Uint64).Uint64Values()
	argsSim := rec.Column(schema.ColArgsSim).(*array.Uint64).Uint64Values()
	words := rec.Column(schema.ColArgsWords).(*array.Uint64).Uint64Values()
	short := rec.Column(schema.ColArgsShort).(*array.String)
	keys := c.normKey.extend(n)
	for i := 0; i < n; i++ {
		row := base + int32(i)
		f := c.flags.at(row)
		if f&flagCall != 0 && argsSim[i] != 0 {
			c.argsSims.add(row, argsSim[i])
		}
		if f&flagCall == 0 || norm[i] == 0 {
			continue
		}
		k := fold32(norm[i]) | 1
		keys.set(i, k)
		if f&flagEmpty != 0 {
			c.emptyWords.add(row, words[i])
		}
		if !short.IsValid(i) {
			continue
		}
		if c.deferShorts {
			c.texts.add(row, short.Value(i))
		} else {
			c.shorts.see(c.runScratch[i], k, c.tool.at(row), f&flagEmpty != 0, short.Value(i))
		}
	}
}

// addDecisions keeps the plan of PLAN steps (the decision's reason, else
// the ids of memory written with tag plan) and the decision of steps
// without a tool call, as hashes: equal hashes are the same plan made
// again, the same thought thought again.
func (c *Collector) addDecisions(rec arrow.RecordBatch, base int32, n int) {
	reason := rec.Column(schema.ColReasonHash).(*array.Uint64).Uint64Values()
	decision := rec.Column(schema.ColDecisionKey).(*array.Uint64).Uint64Values()
	plan := rec.Column(schema.ColPlanKey).(*array.Uint64).Uint64Values()
	for i := 0; i < n; i++ {
		row := base + int32(i)
		if c.state.at(row) == schema.StatePlan {
			// The reason says what the plan is; a plan memory's id may be
			// fresh for every plan, so it identifies one only without a reason.
			if reason[i] != 0 {
				c.planKeys.add(row, fold32(reason[i])|1)
			} else if plan[i] != 0 {
				c.planKeys.add(row, fold32(plan[i])|1)
			}
		}
		if c.flags.at(row)&flagCall == 0 && reason[i] != 0 {
			c.decisions.add(row, fold32(decision[i])|1)
		}
	}
}

// shortArgs keeps a short rendering of args that a run repeats, for
// evidence: keeping one for every call would cost more than all the other
// columns together, and loops repeat their args within a few calls. A run
// remembers the normalised keys of its last recentCalls calls; a call whose
// key is there twice already (its third time: where the loop detectors
// start) has its rendering kept, once per key. So does the third empty
// result in a row of one tool: a rephrased search. Healthy runs that repeat
// a call once or twice (polling, a retried timeout) keep nothing.
type shortArgs struct {
	recent     [][recentCalls]uint32 // by run
	next       []uint8
	emptyTool  []int32 // by run: tool+1 of the last calls if they came back empty, else 0
	emptyCount []uint8
	// byKey maps (run, normalised args key) to a rendering. Per run, so a
	// run's evidence depends on its own steps only, however the input was
	// grouped into collectors (spill partitions).
	byKey map[uint64]string
	bytes int64 // estimated, for Collector.ApproxBytes
}

const recentCalls = 8

func newShortArgs() shortArgs {
	return shortArgs{byKey: map[uint64]string{}}
}

func (s *shortArgs) see(run int32, norm uint32, tool int32, empty bool, text string) {
	s.grow(run)
	switch {
	case !empty:
		s.emptyTool[run], s.emptyCount[run] = 0, 0
	case s.emptyTool[run] == tool+1:
		s.emptyCount[run] = min(s.emptyCount[run]+1, 3)
	default:
		s.emptyTool[run], s.emptyCount[run] = tool+1, 1
	}
	recent := &s.recent[run]
	seen := 0
	for _, k := range recent {
		if k == norm {
			seen++
		}
	}
	if seen >= 2 || s.emptyCount[run] >= 3 {
		if k := shortKey(run, norm); s.byKey[k] == "" {
			s.byKey[k] = string([]byte(text))
			s.bytes += int64(len(text)) + shortBytes
		}
	}
	recent[s.next[run]] = norm
	s.next[run] = (s.next[run] + 1) % recentCalls
}

func shortKey(run int32, norm uint32) uint64 { return uint64(uint32(run))<<32 | uint64(norm) }

// grow makes room for the state of run.
func (s *shortArgs) grow(run int32) {
	for int(run) >= len(s.recent) {
		s.recent = append(s.recent, [recentCalls]uint32{})
		s.next = append(s.next, 0)
		s.emptyTool = append(s.emptyTool, 0)
		s.emptyCount = append(s.emptyCount, 0)
	}
}

// shortTexts are the renderings of every call that has one, by row, in a
// collector that defers the shortArgs decisions (DeferShortArgs): a run's
// decisions depend on its earlier calls, which such a collector may not
// have seen, so whichever collector ends up with the run's whole history
// replays them (see) in order. About 60 bytes a call on generated logs.
type shortTexts struct {
	row  chunked[int32]
	end  chunked[uint64] // where the text of the entry ends in data
	data textArena
}

func (t *shortTexts) add(row int32, text string) {
	t.row.append(row)
	t.end.append(t.data.add(text))
}

// text returns entry i's text, valid until the next call of text.
func (t *shortTexts) text(i int32) string {
	start := uint64(0)
	if i > 0 {
		start = t.end.at(i - 1)
	}
	return t.data.text(start, t.end.at(i))
}

// bytes is what t holds, for ApproxBytes.
func (t *shortTexts) bytes() int64 { return int64(t.row.len())*12 + int64(t.data.n) }

// textArena packs texts end to end in fixed blocks: one allocation per
// block instead of one per text. A text may cross a block boundary.
type textArena struct {
	blocks  [][]byte
	n       uint64
	scratch []byte
}

const arenaBits = 16
const arenaBlock = 1 << arenaBits

// add appends s and returns where it ends.
func (a *textArena) add(s string) uint64 {
	for len(s) > 0 {
		off := a.n & (arenaBlock - 1)
		if off == 0 {
			a.blocks = append(a.blocks, make([]byte, arenaBlock))
		}
		k := copy(a.blocks[len(a.blocks)-1][off:], s)
		s = s[k:]
		a.n += uint64(k)
	}
	return a.n
}

// text returns the bytes [start, end) as a string that shares a's memory
// (or its scratch buffer, when they cross blocks): callers copy what they
// keep.
func (a *textArena) text(start, end uint64) string {
	if end <= start {
		return ""
	}
	b := start >> arenaBits
	if (end-1)>>arenaBits == b {
		return unsafe.String(&a.blocks[b][start&(arenaBlock-1)], end-start)
	}
	a.scratch = a.appendTo(a.scratch[:0], start, end)
	return unsafe.String(unsafe.SliceData(a.scratch), len(a.scratch))
}

// appendTo appends the bytes [start, end) to dst.
func (a *textArena) appendTo(dst []byte, start, end uint64) []byte {
	for start < end {
		b, off := start>>arenaBits, start&(arenaBlock-1)
		k := min(end-start, arenaBlock-off)
		dst = append(dst, a.blocks[b][off:off+k]...)
		start += k
	}
	return dst
}
