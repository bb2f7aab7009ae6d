package runstore

import (
	"cmp"
	"fmt"
	"github.com/runawayhq/runaway/detect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/runawayhq/runaway/schema"
)

// Collector gathers steps from Arrow record batches into compact columns,
// one pass per column per batch, and analyzes every run when the input is
// complete. Runs may be interleaved and split across batches; steps may
// arrive out of order. Only what the detectors read is kept (about 70 bytes
// a step); strings are interned.
type Collector struct {
	files []string

	runIDs   []string
	runIndex map[string]int32
	tools    []string
	toolIdx  map[string]int32
	errTypes []string // index 0 is "no error"
	errIdx   map[string]uint16
	// otherArgs maps the key of an args_hash that is not "sha256:<hex>" back
	// to its text, for evidence.
	otherArgs map[uint64]string

	run      chunked[int32]
	step     chunked[int64]
	ts       chunked[int64]
	argsKey  chunked[uint64]
	tool     chunked[int32]
	state    chunked[schema.State]
	flags    chunked[uint16]
	errType  chunked[uint16]
	resHash  chunked[uint32]
	tokens   chunked[uint32]
	cost     chunked[float64]
	file     chunked[int32]
	line     chunked[uint32]
	lineHash chunked[uint32]

	intents   []string // index 0 is "no intent"
	intentIdx map[string]int32
	intent    chunked[int32]

	budgets   map[int32]*detect.Budget
	artifacts rowRefs
	// talkWords pairs the agent's turns of conversation with their words
	// (schema.TalkWords): what markStaleTalk compares.
	talkWords rowRefs
	// memReads and memSuspect are per-run side tables: most steps read or
	// write no memory, so a column would be mostly empty.
	memReads   rowRefs
	memSuspect map[int32][]suspectWrite

	// What near-duplicate, empty-result, re-plan and monologue detection
	// read (sidetables.go).
	normKey chunked[uint32]
	// shapeKey is each call's args shape (schema.ArgsShape) folded to 32
	// bits, 0 without one: what a paging loop (RA104) compares.
	shapeKey chunked[uint32]
	// queryWords is the word signature of the calls that came back
	// empty and of queries (schema.IsQuery).
	queryWords rowValues[uint64]
	// resultSims holds the SimHash of results that have one: most logs
	// carry no payload to compare, so a column would be mostly zeros.
	resultSims rowValues[uint64]
	argsSims   rowValues[uint64] // likewise for long args
	planKeys   rowValues[uint32]
	decisions  rowValues[uint32]
	// editFiles and failFiles hold the file an edit changed and the file a
	// failure was raised in (schema.EditFileKey, FailureFileKey) folded to
	// 32 bits, for the steps that have one: a failure the edits do not
	// reach (RA301).
	editFiles rowValues[uint32]
	failFiles rowValues[uint32]
	// fileCopies holds, beside them, which copy of the file the step
	// names when its path is absolute (schema.FoldCopyKey): an edit of one
	// copy that a failure raised in another never reached.
	fileCopies rowValues[uint32]
	// failMistakes holds a failure's mistake (schema.FailureMistakeKey),
	// the same whatever script and line raised it (RA301).
	failMistakes rowValues[uint32]
	// texts holds the short rendering of every call's args; each run
	// chooses the ones its evidence shows when it is analyzed (shortArgs).
	texts shortTexts
	seg   *segReader // ReadSegment's buffers

	runScratch []int32
	// heldBytes estimates what the maps and strings hold (ApproxBytes).
	heldBytes int64
}

// maxRows bounds one Collector: rows are addressed by int32.
const maxRows = 1<<31 - 1

// NewCollector returns a collector. files names the sources that the
// batches' src_file column indexes, for messages.
func NewCollector(files []string) *Collector {
	return &Collector{
		files:      files,
		runIndex:   map[string]int32{},
		toolIdx:    map[string]int32{},
		errTypes:   []string{""},
		errIdx:     map[string]uint16{},
		otherArgs:  map[uint64]string{},
		intents:    []string{""},
		intentIdx:  map[string]int32{},
		budgets:    map[int32]*detect.Budget{},
		memSuspect: map[int32][]suspectWrite{},
	}
}

// SetSourceName names source index i (the src_file column) for messages,
// for callers that learn the sources as they read them.
func (c *Collector) SetSourceName(i int, name string) {
	for len(c.files) <= i {
		c.files = append(c.files, "")
	}
	c.files[i] = name
}

// Runs is the number of runs collected so far.
func (c *Collector) Runs() int { return len(c.runIDs) }

// Rows is the number of steps collected so far.
func (c *Collector) Rows() int { return c.run.len() }

// Add collects one batch of schema.StepArrowSchema. It does not keep a
// reference to the batch.
func (c *Collector) Add(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(schema.StepArrowSchema) {
		return fmt.Errorf("runstore: batch schema does not match schema.StepArrowSchema")
	}
	n := int(rec.NumRows())
	if c.run.len()+n > maxRows {
		return fmt.Errorf("runstore: more than %d steps in one collector", maxRows)
	}
	if n > chunkSize {
		// extend takes at most a chunk at a time.
		for lo := 0; lo < n; lo += chunkSize {
			part := rec.NewSlice(int64(lo), int64(min(lo+chunkSize, n)))
			err := c.Add(part)
			part.Release()
			if err != nil {
				return err
			}
		}
		return nil
	}
	base := int32(c.run.len())
	flags := rec.Column(schema.ColFlags).(*array.Uint16).Uint16Values()
	c.addRunIDs(rec.Column(schema.ColRunID).(*array.String), n)
	c.step.extend(n).copyFrom(rec.Column(schema.ColStep).(*array.Int64).Int64Values())
	c.addTimestamps(rec.Column(schema.ColTSMillis).(*array.Int64), n)
	c.flags.extend(n).copyFrom(flags)
	c.addCalls(rec, flags, n)
	states := rec.Column(schema.ColState).(*array.Uint8).Uint8Values()
	c.state.extend(n).copyFrom(unsafe.Slice((*schema.State)(unsafe.SliceData(states)), len(states)))
	c.addResults(rec, flags, n)
	c.addUsage(rec, n)
	c.addSource(rec, n)
	c.addBudgets(rec, n)
	c.addArtifacts(rec.Column(schema.ColArtifacts).(*array.List), base, n)
	addHashes(&c.talkWords, rec.Column(schema.ColTalkWords).(*array.List), base, n)
	c.addIntents(rec.Column(schema.ColIntent).(*array.String), n)
	c.addMemory(rec, base, n)
	c.addNearDuplicateKeys(rec, base, n)
	c.addDecisions(rec, base, n)
	c.addFiles(rec, base, n)
	return nil
}

// internBatchName is the index of name in list, which index maps; a name
// not there yet is copied before it is kept: it points into a batch's
// buffers, which are not the collector's to keep.
func internBatchName(list *[]string, index map[string]int32, name string) int32 {
	if idx, ok := index[name]; ok {
		return idx
	}
	name = strings.Clone(name)
	idx := int32(len(*list))
	*list = append(*list, name)
	index[name] = idx
	return idx
}

func (c *Collector) addIntents(col *array.String, n int) {
	out := c.intent.extend(n)
	// A run's steps often share an intent: skip the map for a repeat.
	last, lastIdx := "", int32(0)
	for i := 0; i < n; i++ {
		name := col.Value(i)
		if col.IsNull(i) || name == "" {
			continue
		}
		if name != last {
			last, lastIdx = name, internBatchName(&c.intents, c.intentIdx, name)
		}
		out.set(i, lastIdx)
	}
}

// suspectWrite is a schema.SuspectWrite of a row, its id hashed.
type suspectWrite struct {
	row  int32
	id   uint64
	name string
	why  string
}

// addMemory keeps the hashes of the memories each step read and the
// suspect writes (ingest found them: schema.AppendSuspectWrites).
func (c *Collector) addMemory(rec arrow.RecordBatch, base int32, n int) {
	retrieved := rec.Column(schema.ColMemRetrieved).(*array.List)
	suspect := rec.Column(schema.ColMemSuspect).(*array.List)
	if retrieved.NullN() < n {
		hashes := retrieved.ListValues().(*array.Uint64).Uint64Values()
		for i := 0; i < n; i++ {
			if retrieved.IsValid(i) {
				s, e := retrieved.ValueOffsets(i)
				for _, h := range hashes[s:e] {
					c.memReads.add(base+int32(i), fold32(h))
				}
			}
		}
	}
	if suspect.NullN() == n {
		return
	}
	st := suspect.ListValues().(*array.Struct)
	ids, whys := st.Field(0).(*array.String), st.Field(1).(*array.String)
	for i := 0; i < n; i++ {
		if !suspect.IsValid(i) {
			continue
		}
		run, row := c.runScratch[i], base+int32(i)
		s, e := suspect.ValueOffsets(i)
		for j := int(s); j < int(e); j++ {
			id := ids.Value(j)
			c.memSuspect[run] = append(c.memSuspect[run], suspectWrite{row: row, id: schema.IDHash(id), name: strings.Clone(id), why: strings.Clone(whys.Value(j))})
			c.heldBytes += suspectBytes
		}
	}
}

func (c *Collector) addRunIDs(col *array.String, n int) {
	last, lastIdx := "", int32(-1)
	c.runScratch = c.runScratch[:0]
	out := c.run.extend(n)
	for i := 0; i < n; i++ {
		id := col.Value(i)
		if lastIdx < 0 || id != last {
			idx, ok := c.runIndex[id]
			if !ok {
				id = string([]byte(id)) // the batch's buffer is not ours to keep
				idx = int32(len(c.runIDs))
				c.runIDs = append(c.runIDs, id)
				c.heldBytes += int64(len(id)) + perRunBytes
				c.runIndex[id] = idx
			}
			last, lastIdx = id, idx
		}
		out.set(i, lastIdx)
		c.runScratch = append(c.runScratch, lastIdx)
	}
}

func (c *Collector) addTimestamps(col *array.Int64, n int) {
	out := c.ts.extend(n)
	out.copyFrom(col.Int64Values())
	if col.NullN() == 0 {
		return
	}
	for i := 0; i < n; i++ {
		if col.IsNull(i) {
			out.set(i, detect.NoTS)
		}
	}
}

func (c *Collector) addCalls(rec arrow.RecordBatch, flags []uint16, n int) {
	names := rec.Column(schema.ColToolName).(*array.String)
	hashes := rec.Column(schema.ColArgsHash).(*array.String)
	keys := rec.Column(schema.ColArgsKey).(*array.Uint64).Uint64Values()
	lastName, lastTool := "", int32(-1)
	tools := c.tool.extend(n)
	c.argsKey.extend(n).copyFrom(keys)
	for i := 0; i < n; i++ {
		if flags[i]&flagCall == 0 {
			tools.set(i, -1)
			continue
		}
		name := names.Value(i)
		if lastTool < 0 || name != lastName {
			lastName, lastTool = name, internBatchName(&c.tools, c.toolIdx, name)
		}
		tools.set(i, lastTool)
	}
	if hashes.NullN() == n {
		return
	}
	// args_hash is there only when its key is not a prefix of it: keep
	// the text for evidence.
	for i := 0; i < n; i++ {
		if hashes.IsValid(i) {
			if _, ok := c.otherArgs[keys[i]]; !ok {
				c.otherArgs[keys[i]] = strings.Clone(hashes.Value(i))
			}
		}
	}
}

func (c *Collector) addResults(rec arrow.RecordBatch, flags []uint16, n int) {
	errType := rec.Column(schema.ColErrorType).(*array.String)
	resHash := rec.Column(schema.ColResultHash).(*array.Uint64).Uint64Values()
	resSim := rec.Column(schema.ColResultSim).(*array.Uint64).Uint64Values()
	errTypes, resHashes := c.errType.extend(n), c.resHash.extend(n)
	base := int32(c.resHash.len() - n)
	for i := 0; i < n; i++ {
		if flags[i]&flagError != 0 {
			errTypes.set(i, c.errTypeIndex(errType, i))
		}
		resHashes.set(i, fold32(resHash[i]))
		if resSim[i] != 0 {
			c.resultSims.add(base+int32(i), resSim[i])
		}
	}
}

func (c *Collector) errTypeIndex(col *array.String, i int) uint16 {
	name := schema.ErrUnknown
	if !col.IsNull(i) {
		name = col.Value(i)
	}
	idx, ok := c.errIdx[name]
	if !ok {
		if len(c.errTypes) >= 1<<16-1 {
			return c.errIdx[schema.ErrUnknown]
		}
		name = string([]byte(name))
		idx = uint16(len(c.errTypes))
		c.errTypes = append(c.errTypes, name)
		c.errIdx[name] = idx
	}
	return idx
}

func (c *Collector) addUsage(rec arrow.RecordBatch, n int) {
	cost := rec.Column(schema.ColCostUSD).(*array.Float64)
	c.tokens.extend(n).copyFrom(rec.Column(schema.ColTokens).(*array.Uint32).Uint32Values())
	costs := c.cost.extend(n)
	if cost.NullN() == n {
		return
	}
	for i := 0; i < n; i++ {
		if cost.IsValid(i) && cost.Value(i) > 0 {
			costs.set(i, cost.Value(i))
		}
	}
}

func (c *Collector) addSource(rec arrow.RecordBatch, n int) {
	file := rec.Column(schema.ColSrcFile).(*array.Int32).Int32Values()
	line := rec.Column(schema.ColSrcLine).(*array.Int64).Int64Values()
	lh := rec.Column(schema.ColLineHash).(*array.Uint64).Uint64Values()
	c.file.extend(n).copyFrom(file)
	lines, hashes := c.line.extend(n), c.lineHash.extend(n)
	for i := 0; i < n; i++ {
		lines.set(i, uint32(min(max(line[i], 0), 1<<32-1)))
		hashes.set(i, fold32(lh[i]))
	}
}

func (c *Collector) addBudgets(rec arrow.RecordBatch, n int) {
	steps := rec.Column(schema.ColBudgetMaxSteps).(*array.Int64)
	calls := rec.Column(schema.ColBudgetMaxToolCalls).(*array.Int64)
	tokens := rec.Column(schema.ColBudgetMaxTokens).(*array.Int64)
	cost := rec.Column(schema.ColBudgetMaxCostUSD).(*array.Float64)
	secs := rec.Column(schema.ColBudgetMaxSeconds).(*array.Float64)
	if steps.NullN() == n && calls.NullN() == n && tokens.NullN() == n && cost.NullN() == n && secs.NullN() == n {
		return
	}
	minPos := func(cur, v int64) int64 {
		if v > 0 && (cur == 0 || v < cur) {
			return v
		}
		return cur
	}
	minPosF := func(cur, v float64) float64 {
		if v > 0 && (cur == 0 || v < cur) {
			return v
		}
		return cur
	}
	for i := 0; i < n; i++ {
		if steps.IsNull(i) && calls.IsNull(i) && tokens.IsNull(i) && cost.IsNull(i) && secs.IsNull(i) {
			continue
		}
		run := c.runScratch[i]
		b := c.budgets[run]
		if b == nil {
			b = &detect.Budget{}
			c.budgets[run] = b
			c.heldBytes += budgetBytes
		}
		if steps.IsValid(i) {
			b.Steps = minPos(b.Steps, steps.Value(i))
		}
		if calls.IsValid(i) {
			b.ToolCalls = minPos(b.ToolCalls, calls.Value(i))
		}
		if tokens.IsValid(i) {
			b.Tokens = minPos(b.Tokens, tokens.Value(i))
		}
		if cost.IsValid(i) {
			b.CostUSD = minPosF(b.CostUSD, cost.Value(i))
		}
		if secs.IsValid(i) {
			b.Seconds = minPosF(b.Seconds, secs.Value(i))
		}
	}
}

func (c *Collector) addArtifacts(col *array.List, base int32, n int) {
	addHashes(&c.artifacts, col, base, n)
}

// addHashes pairs each row of a list<uint64> column with its hashes,
// folded to 32 bits.
func addHashes(refs *rowRefs, col *array.List, base int32, n int) {
	if col.NullN() == n {
		return
	}
	hashes := col.ListValues().(*array.Uint64).Uint64Values()
	for i := 0; i < n; i++ {
		if !col.IsValid(i) {
			continue
		}
		s, e := col.ValueOffsets(i)
		for _, h := range hashes[s:e] {
			refs.add(base+int32(i), fold32(h))
		}
	}
}

// Results analyzes every run collected and returns the results sorted by
// run id, each analyzed by detect with p's thresholds (p must be valid:
// detect.Policy.Validate). workers <= 0 means GOMAXPROCS. The output does
// not depend on workers or on the order the batches, and the rows in them,
// arrived in (gather).
func (c *Collector) Results(p detect.Policy, workers int) []detect.RunResult {
	return c.results(&p, workers, nil)
}

func (c *Collector) results(p *detect.Policy, workers int, visit func(detect.RunSteps, *detect.RunResult)) []detect.RunResult {
	out := make([]detect.RunResult, 0, len(c.runIDs))
	// Collecting every result cannot fail.
	_ = c.stream(p, workers, nil, visit, func(r *detect.RunResult) error {
		out = append(out, *r)
		return nil
	})
	return out
}

// Visit analyzes every run, like Results, and calls fn with each run's
// steps and result, one call at a time, in no particular order. Results are
// returned sorted by run id, as from Results.
func (c *Collector) Visit(p detect.Policy, workers int, fn func(detect.RunSteps, *detect.RunResult)) []detect.RunResult {
	var mu sync.Mutex
	return c.results(&p, workers, func(s detect.RunSteps, res *detect.RunResult) {
		mu.Lock()
		defer mu.Unlock()
		fn(s, res)
	})
}

// Stream analyzes every run and calls emit with each result in run-id
// order, as Results would return them, without holding them all: only a
// bounded window of analyzed runs waits for its turn. It stops at the first
// error emit returns and returns it.
func (c *Collector) Stream(p detect.Policy, workers int, emit func(*detect.RunResult) error) error {
	return c.stream(&p, workers, nil, nil, emit)
}

// StreamVisit is Stream that also calls visit with each run's steps and
// result as the run is analyzed, from the workers at once and in no
// particular order: visit must be safe for concurrent use, and must not
// keep the steps after it returns.
func (c *Collector) StreamVisit(p detect.Policy, workers int, visit func(detect.RunSteps, *detect.RunResult), emit func(*detect.RunResult) error) error {
	return c.stream(&p, workers, nil, visit, emit)
}

// streamWindow bounds how far analysis may run ahead of emission.
const streamWindow = 4096

// streamChunk is how many consecutive runs (in run-id order) a worker takes
// at a time and hands over at once. Handing over each run on its own cost a
// channel operation and a wake-up per run, about 85,000 goroutine blockings
// on the 1 GB bench corpus.
const streamChunk = 64

// stream is Stream over the runs whose index has keep set (nil: every
// run), calling visit, if set, with each run's view as it is analyzed.
func (c *Collector) stream(p *detect.Policy, workers int, keep []bool, visit func(detect.RunSteps, *detect.RunResult), emit func(*detect.RunResult) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	order, rows, offsets := c.groupRows()
	if keep != nil {
		order = slices.DeleteFunc(order, func(r int32) bool { return !keep[r] })
	}
	// Small inputs get smaller chunks, so every worker has some.
	chunk := min(max(len(order)/(4*workers), 1), streamChunk)
	nChunks := (len(order) + chunk - 1) / chunk
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		done    = make([][]detect.RunResult, nChunks)
		claimed int // chunks taken by workers
		emitted int // chunks emitted
		failed  bool
	)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			var v runView
			var z detect.Analyzer
			for {
				mu.Lock()
				for claimed < nChunks && (claimed-emitted)*chunk >= streamWindow && !failed {
					cond.Wait()
				}
				if failed || claimed == nChunks {
					mu.Unlock()
					return
				}
				ci := claimed
				claimed++
				mu.Unlock()
				lo, hi := ci*chunk, min((ci+1)*chunk, len(order))
				out := make([]detect.RunResult, hi-lo)
				for i := range out {
					r := order[lo+i]
					c.gather(&v, r, rows[offsets[r]:offsets[r+1]])
					out[i] = z.Analyze(&v.Run, p)
					if visit != nil {
						visit(z.Steps(), &out[i])
					}
				}
				mu.Lock()
				done[ci] = out
				cond.Broadcast()
				mu.Unlock()
			}
		})
	}
	var err error
	for ci := range done {
		mu.Lock()
		for done[ci] == nil {
			cond.Wait()
		}
		out := done[ci]
		done[ci] = nil
		mu.Unlock()
		for i := range out {
			if err = emit(&out[i]); err != nil {
				break
			}
		}
		mu.Lock()
		emitted = ci + 1
		failed = err != nil
		cond.Broadcast()
		mu.Unlock()
		if err != nil {
			break
		}
	}
	wg.Wait()
	return err
}

// groupRows sorts the rows by run with a counting sort (stable: each run's
// rows stay in input order) and orders the runs by id.
func (c *Collector) groupRows() (order, rows, offsets []int32) {
	nRuns := len(c.runIDs)
	offsets = make([]int32, nRuns+1)
	for ci := range c.run.chunks {
		for _, r := range c.run.chunks[ci] {
			offsets[r+1]++
		}
	}
	for r := 0; r < nRuns; r++ {
		offsets[r+1] += offsets[r]
	}
	rows = make([]int32, c.run.len())
	fill := slices.Clone(offsets[:nRuns])
	for i := 0; i < c.run.len(); i++ {
		r := c.run.at(int32(i))
		rows[fill[r]] = int32(i)
		fill[r]++
	}
	c.artifacts.group(c)
	c.talkWords.group(c)
	c.memReads.group(c)
	c.queryWords.group(c)
	c.resultSims.group(c)
	c.argsSims.group(c)
	c.planKeys.group(c)
	c.decisions.group(c)
	c.editFiles.group(c)
	c.failFiles.group(c)
	c.fileCopies.group(c)
	c.failMistakes.group(c)
	c.texts.group(c)
	order = make([]int32, nRuns)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(c.runIDs[a], c.runIDs[b]) })
	return order, rows, offsets
}
