package spill

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/runawayhq/runaway/detect"
)

// The results of a partition wait in a file, in run-id order, until every
// partition is analyzed and the files are merged. They are written in a
// binary form of their own: gob spent about a second of CPU on the 1 GB
// bench corpus encoding and decoding them, several times this. Each result
// is its length (uvarint), then its fields in declaration order: integers
// as varints, floats as their 8 bytes, strings and slices as length+1 (0
// for nil, so nil and empty stay apart, as they do in JSON), then their
// elements. TestResultCodecRoundTripsEveryField fails when a field is
// added to RunResult but not here.

type resultEncoder struct{ buf []byte }

func (e *resultEncoder) i64(v int64)  { e.buf = binary.AppendVarint(e.buf, v) }
func (e *resultEncoder) u64(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *resultEncoder) f64(v float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}

func (e *resultEncoder) str(s string) {
	e.u64(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *resultEncoder) bool(b bool) {
	v := byte(0)
	if b {
		v = 1
	}
	e.buf = append(e.buf, v)
}

// length writes the length of a slice or map, keeping nil apart.
func (e *resultEncoder) length(n int, isNil bool) {
	if isNil {
		e.u64(0)
		return
	}
	e.u64(uint64(n) + 1)
}

func (e *resultEncoder) strs(v []string) {
	e.length(len(v), v == nil)
	for _, s := range v {
		e.str(s)
	}
}

func (e *resultEncoder) result(r *detect.RunResult) {
	e.str(r.RunID)
	e.u64(uint64(r.Verdict))
	e.str(string(r.RootCause))
	e.i64(r.OnsetStep)
	e.i64(r.Steps)
	e.i64(r.WastedSteps)
	e.i64(r.WastedTokens)
	e.f64(r.WastedCostUSD)
	e.bool(r.CostLogged)
	e.bool(r.CostEstimated)
	e.str(r.Headline)
	e.strs(r.Signals)
	e.indicators(&r.Indicators)
	e.length(len(r.Findings), r.Findings == nil)
	for i := range r.Findings {
		e.finding(&r.Findings[i])
	}
	e.strs(r.DataProblems)
	e.i64(r.DuplicateSteps)
	e.i64(r.ConflictingSteps)
}

func (e *resultEncoder) finding(f *detect.Finding) {
	e.str(f.Detector)
	e.str(f.Slug)
	e.u64(uint64(f.Severity))
	e.str(string(f.RootCause))
	e.str(f.Message)
	e.i64(f.OnsetStep)
	ev := &f.Evidence
	e.length(len(ev.Steps), ev.Steps == nil)
	for _, s := range ev.Steps {
		e.i64(s.From)
		e.i64(s.To)
	}
	e.strs(ev.Keys)
	e.length(len(ev.Counts), ev.Counts == nil)
	for _, c := range ev.Counts {
		e.str(c.Name)
		e.i64(c.Value)
	}
	e.i64(f.WastedSteps)
	e.i64(f.WastedTokens)
	e.f64(f.WastedCostUSD)
	e.str(f.Guard)
}

func (e *resultEncoder) indicators(in *detect.Indicators) {
	for _, v := range []int64{in.Steps, in.ToolCalls, in.DistinctCalls, in.SameCallMax, in.SameCallMaxWindow,
		in.SameCallMaxStreak, in.SameNormArgsMax, in.StateOscillation, in.PlanActRoundTrips,
		in.UnproductivePlanRoundTrip, in.Plans, in.PlansRepeated, in.MaxRepeatedDecision, in.ProgressEvents,
		in.NoProgressSteps, in.ToolErrors} {
		e.i64(v)
	}
	// Map order does not matter: the map is rebuilt, and encoded with
	// sorted keys in every output.
	e.length(len(in.ToolErrorsByType), in.ToolErrorsByType == nil)
	for k, v := range in.ToolErrorsByType {
		e.str(k)
		e.i64(v)
	}
	for _, v := range []int64{in.MaxErrorStreak, in.EmptyResults, in.BudgetMaxSteps, in.BudgetMaxToolCalls, in.BudgetMaxTokens} {
		e.i64(v)
	}
	e.f64(in.BudgetMaxCostUSD)
	e.f64(in.BudgetMaxSeconds)
	e.i64(in.BudgetCrossings)
	e.i64(in.StepsAfterBudget)
	e.i64(in.Tokens)
	e.f64(in.CostUSD)
	e.i64(in.DurationMS)
	e.bool(in.EndedWithStop)
}

type resultDecoder struct {
	b   []byte
	err error
}

var errShortResult = errors.New("result cut short")

func (d *resultDecoder) fail() {
	if d.err == nil {
		d.err = errShortResult
	}
	d.b = nil
}

func (d *resultDecoder) i64() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *resultDecoder) u64() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *resultDecoder) f64() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *resultDecoder) bool() bool {
	if len(d.b) < 1 {
		d.fail()
		return false
	}
	v := d.b[0] != 0
	d.b = d.b[1:]
	return v
}

func (d *resultDecoder) str() string {
	n := d.u64()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// length reads a slice's or map's length; ok is false for nil.
func (d *resultDecoder) length() (n int, ok bool) {
	v := d.u64()
	if v == 0 {
		return 0, false
	}
	if v-1 > uint64(len(d.b)) { // every element takes at least a byte
		d.fail()
		return 0, false
	}
	return int(v - 1), true
}

func (d *resultDecoder) strs() []string {
	n, ok := d.length()
	if !ok {
		return nil
	}
	v := make([]string, n)
	for i := range v {
		v[i] = d.str()
	}
	return v
}

func (d *resultDecoder) result(r *detect.RunResult) {
	r.RunID = d.str()
	r.Verdict = detect.Verdict(d.u64())
	r.RootCause = detect.RootCause(d.str())
	r.OnsetStep = d.i64()
	r.Steps = d.i64()
	r.WastedSteps = d.i64()
	r.WastedTokens = d.i64()
	r.WastedCostUSD = d.f64()
	r.CostLogged = d.bool()
	r.CostEstimated = d.bool()
	r.Headline = d.str()
	r.Signals = d.strs()
	d.indicators(&r.Indicators)
	if n, ok := d.length(); ok {
		r.Findings = make([]detect.Finding, n)
		for i := range r.Findings {
			d.finding(&r.Findings[i])
		}
	}
	r.DataProblems = d.strs()
	r.DuplicateSteps = d.i64()
	r.ConflictingSteps = d.i64()
}

func (d *resultDecoder) finding(f *detect.Finding) {
	f.Detector = d.str()
	f.Slug = d.str()
	f.Severity = detect.Verdict(d.u64())
	f.RootCause = detect.RootCause(d.str())
	f.Message = d.str()
	f.OnsetStep = d.i64()
	ev := &f.Evidence
	if n, ok := d.length(); ok {
		ev.Steps = make([]detect.StepRange, n)
		for i := range ev.Steps {
			ev.Steps[i].From = d.i64()
			ev.Steps[i].To = d.i64()
		}
	}
	ev.Keys = d.strs()
	if n, ok := d.length(); ok {
		ev.Counts = make([]detect.Count, n)
		for i := range ev.Counts {
			ev.Counts[i].Name = d.str()
			ev.Counts[i].Value = d.i64()
		}
	}
	f.WastedSteps = d.i64()
	f.WastedTokens = d.i64()
	f.WastedCostUSD = d.f64()
	f.Guard = d.str()
}

func (d *resultDecoder) indicators(in *detect.Indicators) {
	for _, p := range []*int64{&in.Steps, &in.ToolCalls, &in.DistinctCalls, &in.SameCallMax, &in.SameCallMaxWindow,
		&in.SameCallMaxStreak, &in.SameNormArgsMax, &in.StateOscillation, &in.PlanActRoundTrips,
		&in.UnproductivePlanRoundTrip, &in.Plans, &in.PlansRepeated, &in.MaxRepeatedDecision, &in.ProgressEvents,
		&in.NoProgressSteps, &in.ToolErrors} {
		*p = d.i64()
	}
	if n, ok := d.length(); ok {
		in.ToolErrorsByType = make(map[string]int64, n)
		for range n {
			k := d.str()
			in.ToolErrorsByType[k] = d.i64()
		}
	}
	for _, p := range []*int64{&in.MaxErrorStreak, &in.EmptyResults, &in.BudgetMaxSteps, &in.BudgetMaxToolCalls, &in.BudgetMaxTokens} {
		*p = d.i64()
	}
	in.BudgetMaxCostUSD = d.f64()
	in.BudgetMaxSeconds = d.f64()
	in.BudgetCrossings = d.i64()
	in.StepsAfterBudget = d.i64()
	in.Tokens = d.i64()
	in.CostUSD = d.f64()
	in.DurationMS = d.i64()
	in.EndedWithStop = d.bool()
}

// resultWriter appends results to w, each with its length first, and with
// the range of sources its run's steps came from (sources; nil: 0, 0) before
// it: splitRuns reads the ranges, and the run id that starts a result,
// without decoding the rest.
type resultWriter struct {
	w       *bufio.Writer
	sources func(runID string) (lo, hi int32)
	enc     resultEncoder
	len     []byte
}

func (rw *resultWriter) write(r *detect.RunResult) error {
	rw.enc.buf = rw.enc.buf[:0]
	var lo, hi int32
	if rw.sources != nil {
		lo, hi = rw.sources(r.RunID)
	}
	rw.enc.u64(uint64(lo))
	rw.enc.u64(uint64(hi))
	rw.enc.result(r)
	rw.len = binary.AppendUvarint(rw.len[:0], uint64(len(rw.enc.buf)))
	if _, err := rw.w.Write(rw.len); err != nil {
		return err
	}
	_, err := rw.w.Write(rw.enc.buf)
	return err
}

// readRecord reads the next result's bytes, as resultWriter wrote them,
// into buf; false at the end of the file.
func readRecord(r *bufio.Reader, buf []byte) ([]byte, bool, error) {
	n, err := binary.ReadUvarint(r)
	if errors.Is(err, io.EOF) {
		return buf, false, nil
	}
	if err != nil {
		return buf, false, err
	}
	if n > 1<<30 {
		return buf, false, fmt.Errorf("a result of %d bytes", n)
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return buf, false, fmt.Errorf("result cut short: %w", err)
	}
	return buf, true, nil
}

// resultSource reads a result file one result ahead.
type resultSource struct {
	drop map[string]bool // results of these runs are left out
	f    *os.File
	r    *bufio.Reader
	buf  []byte
	cur  detect.RunResult
}

func (s *resultSource) runID() string  { return s.cur.RunID }
func (s *resultSource) file() *os.File { return s.f }

// next reads the next result into cur; false at the end of the file.
func (s *resultSource) next() (bool, error) {
	var ok bool
	var err error
	if s.buf, ok, err = readRecord(s.r, s.buf); !ok || err != nil {
		return false, err
	}
	d := resultDecoder{b: s.buf}
	d.u64() // the sources' range: splitRuns reads it
	d.u64()
	s.cur = detect.RunResult{}
	d.result(&s.cur)
	if d.err == nil && len(d.b) > 0 {
		d.err = fmt.Errorf("%d bytes left after a result", len(d.b))
	}
	return true, d.err
}

// mergeResults emits the results of the files (each in run-id order) in
// run-id order, leaving out the results of the runs in drop from the first
// n files: those runs were analyzed in pieces, and the later files hold
// their whole results (Store.Replace). Otherwise a run lives in one file.
// The files are read and decoded on a goroutine of their own, a batch of
// results ahead of emit: emit (encoding the reports) is the longer part,
// and it need not wait for the decoding.
func mergeResults(paths []string, n int, drop map[string]bool, emit func(*detect.RunResult) error) error {
	batches := make(chan []detect.RunResult, 2)
	free := make(chan []detect.RunResult, 3)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(batches)
		readErr = readMerged(paths, n, drop, free, batches, stop)
	}()
	var err error
	for batch := range batches {
		for i := range batch {
			if err == nil {
				err = emit(&batch[i])
			}
		}
		if err != nil {
			close(stop)
			for range batches { // let the reader see stop and end
			}
			return err
		}
		select {
		case free <- batch[:0]:
		default:
		}
	}
	return readErr
}

const mergeBatch = 256

// readMerged merges the files into batches of results sent to out, taking
// emptied batches back from free, until the files end or stop closes; the
// first n files' results of runs in drop are left out.
func readMerged(paths []string, n int, drop map[string]bool, free <-chan []detect.RunResult, out chan<- []detect.RunResult, stop <-chan struct{}) error {
	h, err := openSources(paths, func(i int, f *os.File, r *bufio.Reader) *resultSource {
		src := &resultSource{f: f, r: r}
		if i < n {
			src.drop = drop
		}
		return src
	})
	defer h.close()
	if err != nil {
		return err
	}
	var batch []detect.RunResult
	send := func() bool {
		select {
		case out <- batch:
		case <-stop:
			return false
		}
		select {
		case batch = <-free:
		default:
			batch = make([]detect.RunResult, 0, mergeBatch)
		}
		return true
	}
	batch = make([]detect.RunResult, 0, mergeBatch)
	for h.Len() > 0 {
		src := h.items[0]
		if !src.drop[src.cur.RunID] {
			batch = append(batch, src.cur)
			if len(batch) == mergeBatch && !send() {
				return nil
			}
		}
		if err := h.advance(); err != nil {
			return err
		}
	}
	if len(batch) > 0 {
		send()
	}
	return nil
}
