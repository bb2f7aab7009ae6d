package runstore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/synth"
)

// mixedLog is a log that exercises everything a collector keeps: runs of
// up to 60 steps, interleaved at random, that repeat a few calls (their
// args sometimes written differently but equal once normalised, so which
// rendering is kept matters), get runs of empty results from one tool,
// log different budgets at different steps, write suspect memory, read
// memory, produce artifacts, plan and decide, and log args hashes that are
// not sha256. Ahead of them, generated runs that use many other tools (so
// tool indices differ between collectors).
func mixedLog(t testing.TB, seed uint64, runs int) string {
	t.Helper()
	var gen bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 60, RunawayRate: 0.3, Seed: seed, Interleave: 16}, &gen, nil); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	tools := []string{"search", "fetch", "lookup", "db_query"}
	argsOf := func(v int) string {
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf(`{"q":"V%d"}`, v) // equal to the others once normalised
		case 1:
			return fmt.Sprintf(`{ "q" : "v%d" }`, v)
		}
		return fmt.Sprintf(`{"q":"v%d"}`, v)
	}
	var lines [][]string
	for r := range runs {
		id := fmt.Sprintf("mix-%03d", r)
		var ls []string
		n := 5 + rng.IntN(56)
		for step := range n {
			var f []string
			f = append(f, fmt.Sprintf(`"run_id":%q,"step":%d,"ts":%d`, id, step, 1_700_000_000_000+int64(step)*1000))
			switch {
			case step%9 == 0:
				f = append(f, `"state":"PLAN"`, fmt.Sprintf(`"decision":{"next_state":"ACT","reason":"plan %d"}`, rng.IntN(3)))
			case rng.IntN(6) == 0:
				f = append(f, `"state":"EVAL"`, fmt.Sprintf(`"decision":{"next_state":"ACT","reason":"think %d"}`, rng.IntN(2)))
			default:
				f = append(f, `"state":"ACT"`, fmt.Sprintf(`"intent":"find %d"`, rng.IntN(3)))
				tool := tools[rng.IntN(len(tools))]
				if rng.IntN(3) == 0 { // streaks of one tool
					tool = tools[r%len(tools)]
				}
				call := fmt.Sprintf(`"tool_call":{"name":%q,"args":%s`, tool, argsOf(rng.IntN(3)))
				if rng.IntN(10) == 0 {
					call += fmt.Sprintf(`,"args_hash":"custom-%d"`, rng.IntN(4))
				}
				f = append(f, call+"}")
				switch rng.IntN(5) {
				case 0, 1:
					f = append(f, `"tool_result":{"ok":true,"result_count":0}`)
				case 2:
					f = append(f, `"tool_result":{"ok":false,"error_type":"TIMEOUT"}`)
				default:
					f = append(f, fmt.Sprintf(`"tool_result":{"ok":true,"result_count":%d}`, 1+rng.IntN(3)))
				}
			}
			if rng.IntN(7) == 0 {
				f = append(f, fmt.Sprintf(`"budget":{"max_steps":%d,"max_cost_usd":%g}`, 10+rng.IntN(40), float64(1+rng.IntN(9))/10))
			}
			switch rng.IntN(8) {
			case 0:
				f = append(f, fmt.Sprintf(`"memory":{"retrieved":["m-%d"],"written":["m-%d"],"write_tags":["inference"]}`, rng.IntN(3), step))
			case 1:
				f = append(f, fmt.Sprintf(`"memory":{"written":["m-%d"],"entries":[{"id":"m-%d","type":"observation","confidence":0.1}]}`, step, step))
			case 2:
				f = append(f, fmt.Sprintf(`"artifacts":["a-%d"]`, rng.IntN(4)))
			}
			f = append(f, fmt.Sprintf(`"usage":{"prompt_tokens":%d,"cost_usd":0.001}`, 100+rng.IntN(900)))
			ls = append(ls, "{"+strings.Join(f, ",")+"}")
		}
		lines = append(lines, ls)
	}
	out := gen.String()
	var b strings.Builder
	b.WriteString(out)
	for len(lines) > 0 { // interleave: the next line of a run picked at random
		i := rng.IntN(min(len(lines), 12))
		b.WriteString(lines[i][0] + "\n")
		if lines[i] = lines[i][1:]; len(lines[i]) == 0 {
			lines = slices.Delete(lines, i, i+1)
		}
	}
	return b.String()
}

func readLog(t testing.TB, text string, batchRows int, add func(arrow.RecordBatch) error) {
	t.Helper()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	src := ingest.Source{Name: "in.jsonl", Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(text)), nil
	}}
	stats, err := ingest.Read(context.Background(), []ingest.Source{src}, ingest.Options{Alloc: alloc, BatchRows: batchRows, Workers: 2}, add)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rejected > 0 {
		t.Fatalf("%d lines rejected", stats.Rejected)
	}
}

// spiller does what package spill does with segments, in memory: a
// collector that spills each partition's steps as a segment when it passes
// budget, partitions analyzed from their segments and the last collector,
// and, at level 0, every third partition split again through a spiller of
// its own (whose first collector reads segments and spills them again).
type spiller struct {
	t      testing.TB
	budget int64
	level  int
	cur    *Collector
	files  []bytes.Buffer
	spills int
}

func newSpiller(t testing.TB, budget int64, parts, level int) *spiller {
	c := NewCollector([]string{"in.jsonl"})
	return &spiller{t: t, budget: budget, level: level, cur: c, files: make([]bytes.Buffer, parts)}
}

func (s *spiller) partOf(id string) int32 {
	return int32(xxhash.Sum64String(fmt.Sprint(s.level, id)) % uint64(len(s.files)))
}

func (s *spiller) check() error {
	if s.cur.ApproxBytes() <= s.budget {
		return nil
	}
	p := s.cur.Partition(len(s.files), s.partOf)
	for part := range s.files {
		if p.Rows(int32(part)) == 0 {
			continue
		}
		w := bufio.NewWriter(&s.files[part])
		if err := p.WriteSegment(w, int32(part)); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	s.spills++
	s.cur = NewCollector([]string{"in.jsonl"})
	return nil
}

func (s *spiller) add(rec arrow.RecordBatch) error {
	if err := s.cur.Add(rec); err != nil {
		return err
	}
	return s.check()
}

// readAll reads every segment of part into c, calling after each.
func (s *spiller) readAll(part int, c func() *Collector, after func() error) {
	r := bufio.NewReader(bytes.NewReader(s.files[part].Bytes()))
	for {
		err := c().ReadSegment(r)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			s.t.Fatal(err)
		}
		if err := after(); err != nil {
			s.t.Fatal(err)
		}
	}
}

// finish returns the collectors that analyze the partitions.
func (s *spiller) finish() []*Collector {
	if s.spills == 0 {
		return []*Collector{s.cur}
	}
	last := s.cur.Partition(len(s.files), s.partOf)
	var out []*Collector
	for part := range s.files {
		if s.level == 0 && part%3 == 0 && s.files[part].Len() > 0 {
			child := newSpiller(s.t, s.budget, 3, s.level+1)
			s.readAll(part, func() *Collector { return child.cur }, child.check)
			if err := last.CopyTo(child.cur, int32(part)); err != nil {
				s.t.Fatal(err)
			}
			out = append(out, child.finish()...)
			continue
		}
		c := NewCollector([]string{"in.jsonl"})
		s.readAll(part, func() *Collector { return c }, func() error { return nil })
		if err := last.CopyTo(c, int32(part)); err != nil {
			s.t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// dumpRuns writes out, by run id, everything c holds about each run, with
// names for indices and rows numbered within their run: what two
// collectors that hold the same runs must agree on.
func dumpRuns(c *Collector) map[string]string {
	nRuns := len(c.runIDs)
	b := make([]strings.Builder, nRuns)
	pos := make([]int, c.run.len()) // a row's place in its run
	seen := make([]int, nRuns)
	name := func(list []string, i int) string {
		switch {
		case i < 0:
			return "<none>"
		case i >= len(list):
			return fmt.Sprintf("<bad index %d>", i)
		}
		return list[i]
	}
	for row := int32(0); int(row) < c.run.len(); row++ {
		r := c.run.at(row)
		pos[row] = seen[r]
		seen[r]++
		other, ok := c.otherArgs[c.argsKey.at(row)]
		fmt.Fprintf(&b[r], "row %d: step %d ts %d args %x %v%q tool %s state %d flags %x err %s res %x tokens %d cost %v at %d:%d %x intent %q norm %x shape %x\n",
			pos[row], c.step.at(row), c.ts.at(row), c.argsKey.at(row), ok, other, name(c.tools, int(c.tool.at(row))), c.state.at(row),
			c.flags.at(row), c.errTypes[c.errType.at(row)], c.resHash.at(row), c.tokens.at(row), c.cost.at(row), c.file.at(row),
			c.line.at(row), c.lineHash.at(row), c.intents[c.intent.at(row)], c.normKey.at(row), c.shapeKey.at(row))
	}
	for t, table := range c.sideTables() {
		for i := int32(0); int(i) < table.row.len(); i++ {
			row := table.row.at(i)
			fmt.Fprintf(&b[c.run.at(row)], "side %d: row %d %x\n", t, pos[row], table.val.at(i))
		}
	}
	for i := int32(0); int(i) < c.queryWords.row.len(); i++ {
		row := c.queryWords.row.at(i)
		fmt.Fprintf(&b[c.run.at(row)], "empty: row %d %x\n", pos[row], c.queryWords.val.at(i))
	}
	for r := range nRuns {
		for _, w := range c.memSuspect[int32(r)] {
			fmt.Fprintf(&b[r], "suspect: row %d %x %q %q\n", pos[w.row], w.id, w.name, w.why)
		}
		if bl := c.budgets[int32(r)]; bl != nil {
			fmt.Fprintf(&b[r], "budget: %+v\n", *bl)
		}
	}
	for i := int32(0); int(i) < c.texts.row.len(); i++ {
		row := c.texts.row.at(i)
		fmt.Fprintf(&b[c.run.at(row)], "text: row %d %q\n", pos[row], c.texts.text(i))
	}
	out := make(map[string]string, nRuns)
	for r, id := range c.runIDs {
		out[id] = b[r].String()
	}
	return out
}

func resultsByRun(t testing.TB, cs ...*Collector) map[string]string {
	out := map[string]string{}
	for _, c := range cs {
		for _, r := range c.Results(detect.DefaultPolicy(), 2) {
			j, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if _, dup := out[r.RunID]; dup {
				t.Fatalf("run %s analyzed by two collectors", r.RunID)
			}
			out[r.RunID] = string(j)
		}
	}
	return out
}

// The collectors that analyze a spilled scan's partitions hold, run by run,
// exactly what one collector that read the whole input holds: the same
// rows in the same order, side tables, memory writes, tightest budgets,
// and the same args renderings chosen (shortArgs), however the input was
// cut into collectors and segments: budgets from a few steps to many
// batches, batches of 1 to 50 rows, 1 to 8 partitions, partitions split
// again and read back into collectors that spill in turn.
func TestSegmentsKeepWhatOneCollectorHolds(t *testing.T) {
	text := mixedLog(t, 11, 150)
	want := NewCollector([]string{"in.jsonl"})
	readLog(t, text, 64, want.Add)
	wantDump, wantResults := dumpRuns(want), resultsByRun(t, want)
	shown := 0 // evidence that shows args: renderings chosen
	for _, r := range wantResults {
		shown += strings.Count(r, ` {\"`)
	}
	t.Logf("one collector: %d bytes, %d args shown in evidence", want.ApproxBytes(), shown)
	if shown < 30 {
		t.Fatalf("only %d args shown in evidence: the log does not exercise their choice", shown)
	}
	for _, tc := range []struct {
		budget    int64
		parts     int
		batchRows int
	}{
		{2 << 10, 4, 3},
		{6 << 10, 3, 7},
		{20 << 10, 8, 7},
		{50 << 10, 1, 50},
		{120 << 10, 5, 13},
		{150 << 10, 2, 50},
		{1 << 30, 4, 7}, // nothing spills
	} {
		t.Run(fmt.Sprintf("budget %d, %d partitions, batches of %d", tc.budget, tc.parts, tc.batchRows), func(t *testing.T) {
			s := newSpiller(t, tc.budget, tc.parts, 0)
			readLog(t, text, tc.batchRows, s.add)
			if tc.budget < 1<<30 && s.spills < 2 {
				t.Fatalf("%d spills; want several", s.spills)
			}
			cs := s.finish()
			got := map[string]string{}
			for _, c := range cs {
				for id, d := range dumpRuns(c) {
					if _, dup := got[id]; dup {
						t.Fatalf("run %s in two collectors", id)
					}
					got[id] = d
				}
			}
			if len(got) != len(wantDump) {
				t.Fatalf("%d runs, want %d", len(got), len(wantDump))
			}
			for id, w := range wantDump {
				if got[id] != w {
					t.Fatalf("run %s differs:\n got: %s\nwant: %s", id, got[id], w)
				}
			}
			gotResults := resultsByRun(t, cs...)
			for id, w := range wantResults {
				if gotResults[id] != w {
					t.Fatalf("result of run %s differs:\n got: %s\nwant: %s", id, gotResults[id], w)
				}
			}
		})
	}
}

// ReadSegment tells a clean end of input from a cut or foreign one.
func TestReadSegmentErrors(t *testing.T) {
	src := NewCollector(nil)
	readLog(t, mixedLog(t, 5, 10), 50, src.Add)
	p := src.Partition(1, func(string) int32 { return 0 })
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := p.WriteSegment(w, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	read := func(b []byte) error {
		c := NewCollector(nil)
		return c.ReadSegment(bufio.NewReader(bytes.NewReader(b)))
	}
	if err := read(nil); !errors.Is(err, io.EOF) {
		t.Errorf("empty input: %v, want io.EOF", err)
	}
	if err := read(buf.Bytes()[:buf.Len()/2]); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("cut segment: %v, want an error other than io.EOF", err)
	}
	if err := read(bytes.Repeat([]byte{'x'}, 200)); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("not a segment: %v, want an error other than io.EOF", err)
	}
	if err := read(buf.Bytes()); err != nil {
		t.Errorf("whole segment: %v", err)
	}
}

// CopyTo from a collector that chose its renderings carries each run's
// state (in the destination's tool numbering), so steps added afterwards
// choose as one collector would: here the destination first holds a run
// that numbers the tools in another order.
func TestCopyToCarriesChosenStateAcrossToolNumberings(t *testing.T) {
	text := mixedLog(t, 17, 120)
	lines := strings.SplitAfter(text, "\n")
	// Blank lines keep the second half's line numbers.
	first, rest := strings.Join(lines[:len(lines)/2], ""), strings.Repeat("\n", len(lines)/2)+strings.Join(lines[len(lines)/2:], "")
	var pre strings.Builder
	for i, tool := range []string{"db_query", "lookup", "fetch", "search", "zz_other"} {
		fmt.Fprintf(&pre, `{"run_id":"aaa-prefix","step":%d,"tool_call":{"name":%q,"args":{"x":1}}}`+"\n", i, tool)
	}
	want := NewCollector([]string{"in.jsonl"})
	readLog(t, text, 64, want.Add)
	wantDump := dumpRuns(want)

	src := NewCollector([]string{"in.jsonl"})
	readLog(t, first, 64, src.Add)
	const parts = 3
	partOf := func(id string) int32 { return int32(xxhash.Sum64String(id) % parts) }
	p := src.Partition(parts, partOf)
	compared := 0
	for part := range int32(parts) {
		dst := NewCollector([]string{"in.jsonl"})
		readLog(t, pre.String(), 64, dst.Add)
		if err := p.CopyTo(dst, part); err != nil {
			t.Fatal(err)
		}
		readLog(t, rest, 64, dst.Add)
		for id, got := range dumpRuns(dst) {
			// Runs of other partitions got only their later steps.
			if id == "aaa-prefix" || partOf(id) != part || !slices.Contains(src.runIDs, id) {
				continue
			}
			compared++
			if got != wantDump[id] {
				t.Fatalf("run %s differs:\n got: %s\nwant: %s", id, got, wantDump[id])
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d runs compared", compared)
	}
}

// The renderings a deferring collector keeps come back whole, also those
// that cross the arena's blocks.
func TestShortTextsCrossBlocks(t *testing.T) {
	var texts shortTexts
	var want []string
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; texts.data.n < 3*arenaBlock+100; i++ {
		b := make([]byte, rng.IntN(200))
		for j := range b {
			b[j] = byte('a' + rng.IntN(26))
		}
		if i == 50 {
			b = make([]byte, arenaBlock+7) // longer than a block
		}
		want = append(want, string(b))
		texts.add(int32(i), string(b))
	}
	crossed := 0
	for i, w := range want {
		if got := texts.text(int32(i)); got != w {
			t.Fatalf("text %d: %d bytes, want %d", i, len(got), len(w))
		}
		if end := texts.val.at(int32(i)); len(w) > 0 && (end-1)>>arenaBits != (end-uint64(len(w)))>>arenaBits {
			crossed++
		}
	}
	if crossed < 3 {
		t.Fatalf("only %d texts cross a block", crossed)
	}
	if got := texts.bytes(); got < int64(texts.data.n) {
		t.Fatalf("bytes %d, less than the texts", got)
	}
}
