package runstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/runawayhq/runaway/detect"
	"io"
	"slices"
	"unsafe"
)

// A segment is one partition's share of a collector, written when a scan
// spills (package spill) and read back, in the order segments were
// written, into the collector that analyzes the partition. It holds what
// CopyTo carries: every row column, the side tables with rows numbered
// from the segment's first, the memory writes and budgets of its runs, the
// args texts its rows need, and every call's short rendering (runs choose
// theirs when they are analyzed). Names (run ids, tools, error types, intents)
// are written once a segment in tables of their own; rows refer to them by
// their index there.
//
// Column values are written as the collector holds them, in the machine's
// byte order: a segment is read only by the process that wrote it.
// Reading one costs about what Collector.Add costs for the same steps less
// the decoding; a segment is about 140 bytes a step on generated logs (80
// without the renderings), against about 360 for the steps' Arrow batches.

// segHeader opens a segment: the number of entries of each section. Only
// uint32 fields, so it has no padding.
type segHeader struct {
	magic    uint32
	flags    uint32
	rows     uint32
	runs     uint32
	tools    uint32
	errTypes uint32 // besides "no error"
	intents  uint32 // besides "no intent"
	pairs    [numSideTables]uint32
	empties  uint32
	sims     uint32
	argSims  uint32
	suspects uint32
	budgets  uint32
	others   uint32
	texts    uint32 // renderings
}

const segMagic = 0x34475352 // "RSG4"

// fixed are the column types, written as they are in memory.
type fixed interface {
	~int32 | ~uint32 | ~int64 | ~uint64 | ~uint16 | ~uint8 | ~float64
}

func asBytes[T fixed](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(zero)))
}

// view returns buf's memory as n values of T, growing buf when needed
// (its uint64 words keep any T aligned).
func view[T fixed](buf *[]uint64, n int) []T {
	var zero T
	words := (n*int(unsafe.Sizeof(zero)) + 7) / 8
	if cap(*buf) < words {
		*buf = make([]uint64, words+words/4)
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(*buf))), n)
}

// localNames numbers the names a segment uses (indices into a collector's
// table) from base, in order of first use. A stamp per name tells whether
// it was numbered for the current segment, so nothing is reset between
// segments.
type localNames struct {
	stamp, local []int32
	list         []int32
	gen          int32
}

func (l *localNames) reset(n int) {
	l.gen++
	l.list = l.list[:0]
	if len(l.stamp) < n {
		l.stamp = append(l.stamp, make([]int32, n-len(l.stamp))...)
		l.local = append(l.local, make([]int32, n-len(l.local))...)
	}
}

func (l *localNames) index(src, base int32) int32 {
	if l.stamp[src] != l.gen {
		l.stamp[src] = l.gen
		l.local[src] = base + int32(len(l.list))
		l.list = append(l.list, src)
	}
	return l.local[src]
}

// segWriter writes segments; its buffers are reused from one segment to
// the next.
type segWriter struct {
	w   *bufio.Writer
	err error
	buf []uint64 // a gathered column

	tools, errTypes, intents localNames
	toolCol, intentCol       []int32
	errCol                   []uint16
	others                   []uint64
	lens                     []uint32
	small                    []byte
}

func (w *segWriter) raw(b []byte) {
	if w.err == nil && len(b) > 0 {
		_, w.err = w.w.Write(b)
	}
}

func (w *segWriter) u32(v uint32) {
	w.small = binary.NativeEndian.AppendUint32(w.small[:0], v)
	w.raw(w.small)
}

func (w *segWriter) u64(v uint64) {
	w.small = binary.NativeEndian.AppendUint64(w.small[:0], v)
	w.raw(w.small)
}

func (w *segWriter) str(s string) {
	w.u32(uint32(len(s)))
	if w.err == nil && len(s) > 0 {
		_, w.err = w.w.WriteString(s)
	}
}

// strings writes n strings: their lengths, then their bytes.
func (w *segWriter) strings(n int, at func(int) string) {
	w.lens = w.lens[:0]
	for i := range n {
		w.lens = append(w.lens, uint32(len(at(i))))
	}
	w.raw(asBytes(w.lens))
	for i := range n {
		if s := at(i); w.err == nil && len(s) > 0 {
			_, w.err = w.w.WriteString(s)
		}
	}
}

// writeColumn writes col's values at rows.
func writeColumn[T fixed](w *segWriter, col *chunked[T], rows []int32) {
	out := view[T](&w.buf, len(rows))
	for i, r := range rows {
		out[i] = col.chunks[r>>chunkBits][r&(chunkSize-1)]
	}
	w.raw(asBytes(out))
}

// WriteSegment writes partition part's steps, and everything collected
// about them, to w as one segment (see above); ReadSegment reads it back.
// An error is w's.
func (p *Partitioned) WriteSegment(w *bufio.Writer, part int32) error {
	c := p.c
	if p.seg == nil {
		p.seg = &segWriter{}
	}
	sw := p.seg
	sw.w, sw.err = w, nil
	rows, runs := p.rows.of(part), p.runs.of(part)

	// Names first: the header counts them.
	sw.tools.reset(len(c.tools))
	sw.errTypes.reset(len(c.errTypes))
	sw.intents.reset(len(c.intents))
	sw.toolCol, sw.errCol, sw.intentCol = sw.toolCol[:0], sw.errCol[:0], sw.intentCol[:0]
	for _, r := range rows {
		t := c.tool.at(r)
		if t >= 0 {
			t = sw.tools.index(t, 0)
		}
		sw.toolCol = append(sw.toolCol, t)
		e := int32(c.errType.at(r))
		if e != 0 {
			e = sw.errTypes.index(e, 1)
		}
		sw.errCol = append(sw.errCol, uint16(e))
		in := c.intent.at(r)
		if in != 0 {
			in = sw.intents.index(in, 1)
		}
		sw.intentCol = append(sw.intentCol, in)
	}
	texts := p.texts.of(part)
	sw.others = sw.others[:0]
	if len(c.otherArgs) > 0 {
		for _, r := range rows {
			if k := c.argsKey.at(r); hasKey(c.otherArgs, k) {
				sw.others = append(sw.others, k)
			}
		}
		slices.Sort(sw.others)
		sw.others = slices.Compact(sw.others)
	}
	hdr := segHeader{magic: segMagic, rows: uint32(len(rows)), runs: uint32(len(runs)),
		tools: uint32(len(sw.tools.list)), errTypes: uint32(len(sw.errTypes.list)), intents: uint32(len(sw.intents.list)),
		empties: uint32(len(p.empties.of(part))), sims: uint32(len(p.sims.of(part))), argSims: uint32(len(p.argSims.of(part))), others: uint32(len(sw.others)),
		texts: uint32(len(texts))}
	for t := range p.pairs {
		hdr.pairs[t] = uint32(len(p.pairs[t].of(part)))
	}
	for _, r := range runs {
		hdr.suspects += uint32(len(c.memSuspect[r]))
		if c.budgets[r] != nil {
			hdr.budgets++
		}
	}
	sw.raw(unsafe.Slice((*byte)(unsafe.Pointer(&hdr)), unsafe.Sizeof(hdr)))

	sw.strings(len(runs), func(i int) string { return c.runIDs[runs[i]] })
	sw.strings(len(sw.tools.list), func(i int) string { return c.tools[sw.tools.list[i]] })
	sw.strings(len(sw.errTypes.list), func(i int) string { return c.errTypes[sw.errTypes.list[i]] })
	sw.strings(len(sw.intents.list), func(i int) string { return c.intents[sw.intents.list[i]] })

	runCol := view[int32](&sw.buf, len(rows))
	for i, r := range rows {
		runCol[i] = p.runLocal[c.run.at(r)]
	}
	sw.raw(asBytes(runCol))
	writeColumn(sw, &c.step, rows)
	writeColumn(sw, &c.ts, rows)
	writeColumn(sw, &c.argsKey, rows)
	sw.raw(asBytes(sw.toolCol))
	writeColumn(sw, &c.state, rows)
	writeColumn(sw, &c.flags, rows)
	sw.raw(asBytes(sw.errCol))
	writeColumn(sw, &c.resHash, rows)
	writeColumn(sw, &c.tokens, rows)
	writeColumn(sw, &c.cost, rows)
	writeColumn(sw, &c.file, rows)
	writeColumn(sw, &c.line, rows)
	writeColumn(sw, &c.lineHash, rows)
	sw.raw(asBytes(sw.intentCol))
	writeColumn(sw, &c.normKey, rows)
	writeColumn(sw, &c.shapeKey, rows)

	writePairs := func(rowCol *chunked[int32], pairs []int32) {
		out := view[int32](&sw.buf, len(pairs))
		for i, pi := range pairs {
			out[i] = p.rowLocal[rowCol.at(pi)]
		}
		sw.raw(asBytes(out))
	}
	for t, table := range c.sideTables() {
		pairs := p.pairs[t].of(part)
		writePairs(&table.row, pairs)
		writeColumn(sw, &table.val, pairs)
	}
	writePairs(&c.queryWords.row, p.empties.of(part))
	writeColumn(sw, &c.queryWords.val, p.empties.of(part))
	writePairs(&c.resultSims.row, p.sims.of(part))
	writeColumn(sw, &c.resultSims.val, p.sims.of(part))
	writePairs(&c.argsSims.row, p.argSims.of(part))
	writeColumn(sw, &c.argsSims.val, p.argSims.of(part))

	for i, r := range runs {
		for _, s := range c.memSuspect[r] {
			sw.u32(uint32(i))
			sw.u32(uint32(p.rowLocal[s.row]))
			sw.u64(s.id)
			sw.str(s.name)
			sw.str(s.why)
		}
	}
	for i, r := range runs {
		if b := c.budgets[r]; b != nil {
			sw.u32(uint32(i))
			sw.u64(uint64(b.Steps))
			sw.u64(uint64(b.ToolCalls))
			sw.u64(uint64(b.Tokens))
			sw.u64(*(*uint64)(unsafe.Pointer(&b.CostUSD)))
			sw.u64(*(*uint64)(unsafe.Pointer(&b.Seconds)))
		}
	}
	for _, k := range sw.others {
		sw.u64(k)
		sw.str(c.otherArgs[k])
	}

	writePairs(&c.texts.row, texts)
	sw.lens = sw.lens[:0]
	for _, i := range texts {
		start := uint64(0)
		if i > 0 {
			start = c.texts.val.at(i - 1)
		}
		sw.lens = append(sw.lens, uint32(c.texts.val.at(i)-start))
	}
	sw.raw(asBytes(sw.lens))
	for _, i := range texts {
		// Straight from the arena: a text is copied to a buffer only
		// when it crosses a block.
		if t := c.texts.text(i); sw.err == nil && len(t) > 0 {
			_, sw.err = sw.w.WriteString(t)
		}
	}
	return sw.err
}

// segReader holds a collector's buffers for reading segments.
type segReader struct {
	r    *bufio.Reader
	err  error
	buf  []uint64
	lens []uint32
	blob []byte
	// Local index -> the collector's.
	runs, tools, intents []int32
	errTypes             []uint16
	bad                  bool // a local index out of range
}

func (s *segReader) full(b []byte) {
	if s.err == nil && len(b) > 0 {
		_, s.err = io.ReadFull(s.r, b)
	}
}

func (s *segReader) u32() uint32 {
	var b [4]byte
	s.full(b[:])
	return binary.NativeEndian.Uint32(b[:])
}

func (s *segReader) u64() uint64 {
	var b [8]byte
	s.full(b[:])
	return binary.NativeEndian.Uint64(b[:])
}

// str reads a string that stays valid until the next read.
func (s *segReader) str() string {
	n := s.u32()
	if s.err != nil {
		return ""
	}
	s.blob = slices.Grow(s.blob[:0], int(n))[:n]
	s.full(s.blob)
	return unsafe.String(unsafe.SliceData(s.blob), len(s.blob))
}

// strings reads n strings and calls add with each (valid during the call).
func (s *segReader) strings(n uint32, add func(i int, s string)) {
	s.lens = slices.Grow(s.lens[:0], int(n))[:n]
	s.full(asBytes(s.lens))
	total := 0
	for _, l := range s.lens {
		total += int(l)
	}
	s.blob = slices.Grow(s.blob[:0], total)[:total]
	s.full(s.blob)
	if s.err != nil {
		return
	}
	off := 0
	for i, l := range s.lens {
		add(i, unsafe.String(unsafe.SliceData(s.blob[off:]), int(l)))
		off += int(l)
	}
}

// readColumn appends n values read from s to col, straight into its chunks,
// passing each piece read to fix (when not nil) to map local values. A
// chunk is allocated for what arrives and doubled as more does, up to
// chunkSize: a partition's collector may hold a few thousand steps, and 128
// of them one after the other with full chunks (64Ki values a column) cost
// more in zeroing than the reading. chunked.append grows a short last chunk
// like any slice.
func readColumn[T fixed](s *segReader, col *chunked[T], n int, fix func([]T)) {
	for n > 0 && s.err == nil {
		if col.n&(chunkSize-1) == 0 {
			col.chunks = append(col.chunks, make([]T, 0, min(chunkSize, max(n, 1024))))
		}
		last := &col.chunks[len(col.chunks)-1]
		start := len(*last)
		k := min(n, chunkSize-start)
		if cap(*last) < start+k {
			grown := make([]T, start, min(chunkSize, max(start+k, 2*cap(*last))))
			copy(grown, *last)
			*last = grown
		}
		*last = (*last)[:start+k]
		piece := (*last)[start : start+k]
		s.full(asBytes(piece))
		if fix != nil {
			fix(piece)
		}
		col.n += k
		n -= k
	}
}

// mapIndex maps local indices through m in place (negative ones stay).
func (s *segReader) mapIndex(m []int32) func([]int32) {
	return func(vs []int32) {
		for i, v := range vs {
			if v < 0 {
				continue
			}
			if int(v) >= len(m) {
				s.bad = true
				continue
			}
			vs[i] = m[v]
		}
	}
}

// ReadSegment appends the steps of one segment (Partitioned.WriteSegment)
// read from r, with everything collected about them: afterwards c holds
// what it would hold had it read those steps itself, after the ones it
// holds. Segments of a partition must be read in the order they were
// written. It returns io.EOF when r ends before a segment. After any other
// error c is unusable.
func (c *Collector) ReadSegment(r *bufio.Reader) error {
	if c.seg == nil {
		c.seg = &segReader{}
	}
	s := c.seg
	s.r, s.err, s.bad = r, nil, false
	var hdr segHeader
	hb := unsafe.Slice((*byte)(unsafe.Pointer(&hdr)), unsafe.Sizeof(hdr))
	if n, err := io.ReadFull(r, hb); err != nil {
		if n == 0 && errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("runstore: reading a segment: %w", err)
	}
	if hdr.magic != segMagic {
		return errors.New("runstore: not a segment")
	}
	if hdr.flags != 0 {
		return errors.New("runstore: a segment with unknown flags")
	}
	rows := int(hdr.rows)
	if c.run.len()+rows > maxRows {
		return fmt.Errorf("runstore: more than %d steps in one collector", maxRows)
	}
	base := int32(c.run.len())

	s.runs = s.runs[:0]
	s.strings(hdr.runs, func(_ int, id string) {
		idx, ok := c.runIndex[id]
		if !ok {
			idx = c.internRun(string([]byte(id)))
		}
		s.runs = append(s.runs, idx)
	})
	s.tools = s.tools[:0]
	s.strings(hdr.tools, func(_ int, name string) {
		idx, ok := c.toolIdx[name]
		if !ok {
			idx = c.internTool(string([]byte(name)))
		}
		s.tools = append(s.tools, idx)
	})
	s.errTypes = append(s.errTypes[:0], 0)
	s.strings(hdr.errTypes, func(_ int, name string) {
		idx, ok := c.errIdx[name]
		if !ok {
			idx = c.internErrType(string([]byte(name)))
		}
		s.errTypes = append(s.errTypes, idx)
	})
	s.intents = append(s.intents[:0], 0)
	s.strings(hdr.intents, func(_ int, name string) {
		idx, ok := c.intentIdx[name]
		if !ok {
			idx = c.internIntent(string([]byte(name)))
		}
		s.intents = append(s.intents, idx)
	})

	readColumn(s, &c.run, rows, s.mapIndex(s.runs))
	readColumn(s, &c.step, rows, nil)
	readColumn(s, &c.ts, rows, nil)
	readColumn(s, &c.argsKey, rows, nil)
	readColumn(s, &c.tool, rows, s.mapIndex(s.tools))
	readColumn(s, &c.state, rows, nil)
	readColumn(s, &c.flags, rows, nil)
	readColumn(s, &c.errType, rows, func(vs []uint16) {
		for i, v := range vs {
			if int(v) >= len(s.errTypes) {
				s.bad = true
				continue
			}
			vs[i] = s.errTypes[v]
		}
	})
	readColumn(s, &c.resHash, rows, nil)
	readColumn(s, &c.tokens, rows, nil)
	readColumn(s, &c.cost, rows, nil)
	readColumn(s, &c.file, rows, nil)
	readColumn(s, &c.line, rows, nil)
	readColumn(s, &c.lineHash, rows, nil)
	readColumn(s, &c.intent, rows, s.mapIndex(s.intents))
	readColumn(s, &c.normKey, rows, nil)
	readColumn(s, &c.shapeKey, rows, nil)

	toRow := func(vs []int32) {
		for i, v := range vs {
			if uint32(v) >= uint32(rows) {
				s.bad = true
			}
			vs[i] = base + v
		}
	}
	for t, table := range c.sideTables() {
		readColumn(s, &table.row, int(hdr.pairs[t]), toRow)
		readColumn(s, &table.val, int(hdr.pairs[t]), nil)
	}
	readColumn(s, &c.queryWords.row, int(hdr.empties), toRow)
	readColumn(s, &c.queryWords.val, int(hdr.empties), nil)
	readColumn(s, &c.resultSims.row, int(hdr.sims), toRow)
	readColumn(s, &c.resultSims.val, int(hdr.sims), nil)
	readColumn(s, &c.argsSims.row, int(hdr.argSims), toRow)
	readColumn(s, &c.argsSims.val, int(hdr.argSims), nil)

	run := func(local uint32) int32 {
		if int(local) >= len(s.runs) {
			s.bad = true
			return 0
		}
		return s.runs[local]
	}
	for range hdr.suspects {
		dr, row, id := run(s.u32()), base+int32(s.u32()), s.u64()
		name := string([]byte(s.str()))
		why := string([]byte(s.str()))
		if s.err != nil || s.bad {
			break
		}
		c.memSuspect[dr] = append(c.memSuspect[dr], suspectWrite{row: row, id: id, name: name, why: why})
		c.heldBytes += suspectBytes
	}
	for range hdr.budgets {
		dr := run(s.u32())
		var b detect.Budget
		b.Steps, b.ToolCalls, b.Tokens = int64(s.u64()), int64(s.u64()), int64(s.u64())
		cost, secs := s.u64(), s.u64()
		b.CostUSD, b.Seconds = *(*float64)(unsafe.Pointer(&cost)), *(*float64)(unsafe.Pointer(&secs))
		if s.err != nil || s.bad {
			break
		}
		c.addBudget(dr, &b)
	}
	for range hdr.others {
		k, text := s.u64(), s.str()
		if s.err != nil {
			break
		}
		if _, ok := c.otherArgs[k]; !ok {
			c.otherArgs[k] = string([]byte(text))
		}
	}

	local := view[int32](&s.buf, int(hdr.texts))
	s.full(asBytes(local))
	s.strings(hdr.texts, func(i int, text string) {
		if uint32(local[i]) >= uint32(rows) {
			s.bad = true
			return
		}
		c.texts.add(base+local[i], text)
	})
	if s.err != nil {
		return fmt.Errorf("runstore: reading a segment: %w", s.err)
	}
	if s.bad {
		return errors.New("runstore: a segment refers to rows or names it does not hold")
	}
	return nil
}

func hasKey(m map[uint64]string, k uint64) bool {
	_, ok := m[k]
	return ok
}
