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

// addNearDuplicateKeys keeps each call's normalised-args key and args shape, the word
// signature of calls that came back empty, and the short rendering of every
// call's args (evidence shows those of the calls a run repeats: shortArgs).
func (c *Collector) addNearDuplicateKeys(rec arrow.RecordBatch, base int32, n int) {
	norm := rec.Column(schema.ColArgsNorm).(*array.Uint64).Uint64Values()
	argsSim := rec.Column(schema.ColArgsSim).(*array.Uint64).Uint64Values()
	words := rec.Column(schema.ColArgsWords).(*array.Uint64).Uint64Values()
	short := rec.Column(schema.ColArgsShort).(*array.String)
	shape := rec.Column(schema.ColArgsShape).(*array.Uint64).Uint64Values()
	keys := c.normKey.extend(n)
	shapes := c.shapeKey.extend(n)
	for i := 0; i < n; i++ {
		row := base + int32(i)
		f := c.flags.at(row)
		if f&flagCall != 0 && argsSim[i] != 0 {
			c.argsSims.add(row, argsSim[i])
		}
		if f&flagCall != 0 && shape[i] != 0 {
			shapes.set(i, fold32(shape[i])|1)
		}
		if f&flagCall == 0 || norm[i] == 0 {
			continue
		}
		k := fold32(norm[i]) | 1
		keys.set(i, k)
		if words[i] != 0 {
			// Ingest keeps the words of calls that came back empty and of
			// queries (schema.IsQuery).
			c.queryWords.add(row, words[i])
		}
		if short.IsValid(i) {
			c.texts.add(row, short.Value(i))
		}
	}
}

// addDecisions keeps the plan of PLAN steps (the decision's reason, else
// the ids of memory written with tag plan) and the decision of every step
// that logged a reason (a thought before a call, or a decision without
// one), as hashes: equal hashes are the same plan made again, the same
// thought thought again.
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
		if reason[i] != 0 {
			c.decisions.add(row, fold32(decision[i])|1)
		}
	}
}

// addFiles keeps the file each edit changed and the file each failure was
// raised in, for the steps that name one.
func (c *Collector) addFiles(rec arrow.RecordBatch, base int32, n int) {
	edit := rec.Column(schema.ColEditFile).(*array.Uint64).Uint64Values()
	fail := rec.Column(schema.ColFailFile).(*array.Uint64).Uint64Values()
	copies := rec.Column(schema.ColFileCopy).(*array.Uint64).Uint64Values()
	mistakes := rec.Column(schema.ColFailMistake).(*array.Uint64).Uint64Values()
	for i := 0; i < n; i++ {
		if edit[i] != 0 {
			c.editFiles.add(base+int32(i), fold32(edit[i])|1)
		}
		if fail[i] != 0 {
			c.failFiles.add(base+int32(i), fold32(fail[i])|1)
		}
		if copies[i] != 0 {
			c.fileCopies.add(base+int32(i), schema.FoldCopyKey(copies[i]))
		}
		if mistakes[i] != 0 {
			c.failMistakes.add(base+int32(i), fold32(mistakes[i])|1)
		}
	}
}

// shortArgs chooses, run by run, the short renderings of args that
// evidence shows: keeping one for every call in the results would cost more
// than all the other columns together, and loops repeat their args within a
// few calls. Walking the run's calls in step order, it remembers the
// normalised keys of the last recentCalls calls; a call whose key is there
// twice already (its third time: where the loop detectors start) has its
// rendering kept, once per key. So does the third empty result or query
// (schema.IsQuery) in a row of one tool: a rephrased search. Healthy runs that repeat a call once or
// twice (polling, a retried timeout) keep nothing.
//
// The choice is made when the run is analyzed, over its steps in the order
// the analysis sees them (runView.gather: by step, ts, then content), from
// the renderings of every call the collector kept (shortTexts). Made while
// the steps arrived, it depended on the order of the input lines: the same
// run read from files in another order, or from a shuffled file, showed
// another call's args, or an args hash instead.
type shortArgs struct {
	recent      [recentCalls]uint32
	next        uint8
	searchTool  int32 // tool+1 of the last calls if they came back empty or were queries, else 0
	searchCount uint8
	// byNorm maps a normalised args key to its rendering.
	byNorm map[uint32]string
}

const recentCalls = 8

// reset readies s for another run.
func (s *shortArgs) reset() {
	*s = shortArgs{byNorm: s.byNorm}
	if s.byNorm == nil {
		s.byNorm = map[uint32]string{}
	}
	clear(s.byNorm)
}

// see takes the run's next call that has a rendering, and reports whether
// its rendering is to be kept (then the caller keeps it in byNorm). search
// says the call came back empty or was a query.
func (s *shortArgs) see(norm uint32, tool int32, search bool) bool {
	switch {
	case !search:
		s.searchTool, s.searchCount = 0, 0
	case s.searchTool == tool+1:
		s.searchCount = min(s.searchCount+1, 3)
	default:
		s.searchTool, s.searchCount = tool+1, 1
	}
	seen := 0
	for _, k := range s.recent {
		if k == norm {
			seen++
		}
	}
	s.recent[s.next] = norm
	s.next = (s.next + 1) % recentCalls
	if seen >= 2 || s.searchCount >= 3 {
		_, ok := s.byNorm[norm]
		return !ok
	}
	return false
}

// shortTexts are the renderings of every call that has one, by row: a run's
// choice (shortArgs) depends on its calls in step order, known only once
// every step of the run is in. About 60 bytes a call on generated logs.
type shortTexts struct {
	rowValues[uint64] // val: where the text of the entry ends in data
	data              textArena
}

func (t *shortTexts) add(row int32, text string) {
	t.rowValues.add(row, t.data.add(text))
}

// text returns entry i's text, valid until the next call of text. Not safe
// for concurrent use (see keep).
func (t *shortTexts) text(i int32) string {
	start := uint64(0)
	if i > 0 {
		start = t.val.at(i - 1)
	}
	return t.data.text(start, t.val.at(i))
}

// keep returns entry i's text as a string that stays valid: the arena's
// bytes, which never change once written, or a copy when the text crosses
// a block. Safe for concurrent use.
func (t *shortTexts) keep(i int32) string {
	start := uint64(0)
	if i > 0 {
		start = t.val.at(i - 1)
	}
	end := t.val.at(i)
	if end > start && (end-1)>>arenaBits == start>>arenaBits {
		return t.data.text(start, end)
	}
	return string(t.data.appendTo(nil, start, end))
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
