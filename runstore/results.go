package runstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

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

// ResultWriter appends results to W, each with its length first, and with
// the range of sources its run's steps came from (Sources; nil: 0, 0)
// before it: ResultKey reads the range, and the run id that starts a
// result, without decoding the rest.
type ResultWriter struct {
	W       *bufio.Writer
	Sources func(runID string) (lo, hi int32)
	enc     resultEncoder
	len     []byte
}

// Write appends r.
func (rw *ResultWriter) Write(r *detect.RunResult) error {
	rw.enc.buf = rw.enc.buf[:0]
	var lo, hi int32
	if rw.Sources != nil {
		lo, hi = rw.Sources(r.RunID)
	}
	rw.enc.u64(uint64(lo))
	rw.enc.u64(uint64(hi))
	rw.enc.result(r)
	rw.len = binary.AppendUvarint(rw.len[:0], uint64(len(rw.enc.buf)))
	if _, err := rw.W.Write(rw.len); err != nil {
		return err
	}
	_, err := rw.W.Write(rw.enc.buf)
	return err
}

// ReadRecord reads the next result's bytes, as ResultWriter wrote them,
// into buf; false at the end of the file.
func ReadRecord(r *bufio.Reader, buf []byte) ([]byte, bool, error) {
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

// WriteRecord appends a result's bytes as ReadRecord read them, unchanged.
func WriteRecord(w *bufio.Writer, rec []byte) error {
	var n [binary.MaxVarintLen64]byte
	if _, err := w.Write(binary.AppendUvarint(n[:0], uint64(len(rec)))); err != nil {
		return err
	}
	_, err := w.Write(rec)
	return err
}

// ResultKey reads the range of sources and the run id that start a
// record, without decoding the rest.
func ResultKey(rec []byte) (runID string, lo, hi int32, err error) {
	d := resultDecoder{b: rec}
	lo, hi = int32(d.u64()), int32(d.u64())
	runID = d.str()
	return runID, lo, hi, d.err
}

// DecodeResult decodes a record into r, which it resets first.
func DecodeResult(rec []byte, r *detect.RunResult) error {
	d := resultDecoder{b: rec}
	d.u64() // the sources' range: ResultKey reads it
	d.u64()
	*r = detect.RunResult{}
	d.result(r)
	if d.err == nil && len(d.b) > 0 {
		d.err = fmt.Errorf("%d bytes left after a result", len(d.b))
	}
	return d.err
}

// EncodeResult appends r's record, as DecodeResult reads it (with an empty
// range of sources), to buf: one result on its own, for a caller that
// moves results between processes rather than through a results file.
func EncodeResult(buf []byte, r *detect.RunResult) []byte {
	e := resultEncoder{buf: buf}
	e.u64(0)
	e.u64(0)
	e.result(r)
	return e.buf
}
