package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/runawayhq/runaway/schema"
)

func gen(t testing.TB, cfg Config) ([]byte, []byte, Summary) {
	t.Helper()
	var steps, labels bytes.Buffer
	sum, err := Generate(cfg, &steps, &labels)
	if err != nil {
		t.Fatal(err)
	}
	return steps.Bytes(), labels.Bytes(), sum
}

// corpus decodes every line strictly (only schema fields) into runs, in step
// order, and checks what must hold for every line.
func corpus(t *testing.T, cfg Config) (map[string][]schema.Step, map[string]Label, Summary) {
	t.Helper()
	steps, labelBytes, sum := gen(t, cfg)
	runs := map[string][]schema.Step{}
	sc := bufio.NewScanner(bytes.NewReader(steps))
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var s schema.Step
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("line %d: %v\n%s", lines, err, sc.Bytes())
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("line %d: %v", lines, err)
		}
		if s.ToolCall != nil && s.ToolCall.ArgsHash != "" {
			want, err := schema.ArgsHash(s.ToolCall.Args)
			if err != nil || want != s.ToolCall.ArgsHash {
				t.Fatalf("line %d: args_hash %s, want %s (%v)", lines, s.ToolCall.ArgsHash, want, err)
			}
		}
		runs[s.RunID] = append(runs[s.RunID], s)
	}
	if lines != sum.Lines || int64(len(steps)) != sum.Bytes {
		t.Fatalf("summary %+v, counted %d lines %d bytes", sum, lines, len(steps))
	}
	labels, err := ReadLabels(bytes.NewReader(labelBytes))
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != len(runs) || len(runs) != sum.Runs {
		t.Fatalf("%d labels, %d runs, summary %d", len(labels), len(runs), sum.Runs)
	}
	for id, run := range runs {
		if _, ok := labels[id]; !ok {
			t.Fatalf("run %s has no label", id)
		}
		for i := range run {
			if *run[i].Step != int64(i) {
				t.Fatalf("run %s: line %d has step %d", id, i, *run[i].Step)
			}
			if i > 0 && run[i].TS.UnixMilli <= run[i-1].TS.UnixMilli {
				t.Fatalf("run %s: ts not increasing at step %d", id, i)
			}
			if run[i].Goal != run[0].Goal {
				t.Fatalf("run %s: goal changes at step %d", id, i)
			}
			if st := schema.StateCode(run[i].State); st == schema.StateNone || st == schema.StateOther {
				t.Fatalf("run %s: state %q", id, run[i].State)
			}
		}
	}
	return runs, labels, sum
}

// volatileKeys are the args a client stamps on every call.
var volatileArgs = []string{"request_id", "trace_id", "timestamp"}

// callKey is tool + canonical args without volatile keys: what "the same
// call" means.
func callKey(s *schema.Step) string {
	if s.ToolCall == nil {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal(s.ToolCall.Args, &m); err != nil {
		panic(err)
	}
	for _, k := range volatileArgs {
		delete(m, k)
	}
	b, _ := json.Marshal(m) // sorted keys
	return s.ToolCall.Name + " " + string(b)
}

func outcome(s *schema.Step) uint64 {
	return s.ToolResult.ResultFingerprint(func(b []byte) uint64 {
		h := fnv.New64a()
		h.Write(b)
		return h.Sum64()
	})
}

func isCall(s *schema.Step) bool { return s.ToolCall != nil }

func TestDeterministic(t *testing.T) {
	cfg := Config{Runs: 400, RunawayRate: 0.3, Seed: 7}
	a, al, _ := gen(t, cfg)
	// A different number of workers must not change a byte.
	prev := runtime.GOMAXPROCS(1)
	b, bl, _ := gen(t, cfg)
	runtime.GOMAXPROCS(prev)
	if !bytes.Equal(a, b) || !bytes.Equal(al, bl) {
		t.Fatal("same config, different output")
	}
	cfg.Seed = 8
	c, _, _ := gen(t, cfg)
	if bytes.Equal(a, c) {
		t.Fatal("different seed, same output")
	}
	// The start time shifts timestamps only.
	cfg.Seed = 7
	cfg.Start = time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	d, _, _ := gen(t, cfg)
	if bytes.Equal(a, d) || len(a) != len(d) {
		t.Fatalf("start time: equal=%v, len %d vs %d", bytes.Equal(a, d), len(a), len(d))
	}
}

func TestLabelsAndRates(t *testing.T) {
	runs, labels, sum := corpus(t, Config{Runs: 3000, RunawayRate: 0.25, Seed: 3})
	if sum.Runs != 3000 || sum.RunawayRuns != 750 {
		t.Fatalf("summary %+v, want 3000 runs, 750 runaway", sum)
	}
	byCause := map[string]int{}
	confounded, hashed, budgeted, killed := 0, 0, 0, 0
	for id, l := range labels {
		run := runs[id]
		switch l.Label {
		case LabelRunaway:
			byCause[l.RootCause]++
			if l.OnsetStep < 2 || l.OnsetStep >= int64(len(run)) || l.Confounder != "" {
				t.Errorf("%s: %+v with %d steps", id, l, len(run))
			}
			if run[len(run)-1].State != "STOP" {
				killed++
			}
		case LabelHealthy:
			if l.RootCause != "" || l.OnsetStep != -1 {
				t.Errorf("%s: %+v", id, l)
			}
			if l.Confounder != "" {
				confounded++
			}
		default:
			t.Errorf("%s: label %q", id, l.Label)
		}
		for _, s := range run {
			if s.ToolCall != nil {
				if s.ToolCall.ArgsHash != "" {
					hashed++
				}
				break
			}
		}
		if run[0].Budget != nil {
			budgeted++
		}
	}
	for _, c := range AllCauses {
		if n := byCause[c]; n != 125 {
			t.Errorf("cause %s: %d runs, want 125", c, n)
		}
	}
	within(t, "healthy runs with a confounder", float64(confounded)/2250, 0.35, 0.45)
	within(t, "runs logging args_hash", float64(hashed)/3000, 0.45, 0.55)
	within(t, "runs logging a budget", float64(budgeted)/3000, 0.3, 0.42)
	within(t, "runaway runs killed (no STOP)", float64(killed)/750, 0.42, 0.58)

	// Labels are sorted by run_id and round-trip through ReadLabels.
	_, labelBytes, _ := gen(t, Config{Runs: 50, RunawayRate: 0.5, Seed: 3})
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(labelBytes)), "\n") {
		var l Label
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.RunID)
	}
	if !sort.StringsAreSorted(ids) || len(ids) != 50 {
		t.Fatalf("labels not sorted by run_id: %v", ids)
	}
}

func within(t *testing.T, what string, got, lo, hi float64) {
	t.Helper()
	if got < lo || got > hi {
		t.Errorf("%s: %.3f, want %.2f..%.2f", what, got, lo, hi)
	}
}

func TestCausesSubset(t *testing.T) {
	_, labels, sum := corpus(t, Config{Runs: 200, RunawayRate: 0.5, Seed: 1,
		Causes: []string{CauseErrorStorm, CauseReplanLoop}})
	n := map[string]int{}
	for _, l := range labels {
		n[l.RootCause]++
	}
	if n[CauseErrorStorm] != 50 || n[CauseReplanLoop] != 50 || len(n) != 3 || sum.RunawayRuns != 100 {
		t.Fatalf("causes %v, summary %+v", n, sum)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Runs: -1}, {Runs: 1, RunawayRate: 1.5}, {Runs: 1, RunawayRate: math.NaN()},
		{Runs: 1, Interleave: -2}, {Runs: 1, Causes: []string{"infinite-loop"}},
		{Runs: 1, Causes: []string{CauseErrorStorm, CauseErrorStorm}}, {TargetBytes: -5},
	} {
		if _, err := Generate(cfg, &bytes.Buffer{}, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	sum, err := Generate(Config{}, &bytes.Buffer{}, nil)
	if err != nil || sum != (Summary{}) {
		t.Fatalf("zero runs: %+v %v", sum, err)
	}
}

func TestInterleave(t *testing.T) {
	steps, _, _ := gen(t, Config{Runs: 200, Seed: 2})
	lines := strings.Split(strings.TrimSpace(string(steps)), "\n")
	idOf := func(line string) string { return line[len(`{"run_id":"`):strings.Index(line, `","step"`)] }
	// Any 32 consecutive lines come from several runs.
	for i := 0; i+32 < len(lines)/2; i += 32 {
		ids := map[string]bool{}
		for _, l := range lines[i : i+32] {
			ids[idOf(l)] = true
		}
		if len(ids) < 6 {
			t.Fatalf("lines %d..%d come from %d runs", i, i+32, len(ids))
		}
	}
	// Interleave 1 writes runs one after the other.
	steps, _, _ = gen(t, Config{Runs: 30, Seed: 2, Interleave: 1})
	lines = strings.Split(strings.TrimSpace(string(steps)), "\n")
	switches := 0
	for i := 1; i < len(lines); i++ {
		if idOf(lines[i]) != idOf(lines[i-1]) {
			switches++
		}
	}
	if switches != 29 {
		t.Fatalf("Interleave 1: %d run switches, want 29", switches)
	}
}

func TestTargetBytes(t *testing.T) {
	const target = 4 << 20
	_, labels, sum := gen(t, Config{TargetBytes: target, RunawayRate: 0.2, Seed: 5, Runs: 3})
	// Runs already open are finished: at most 16 runs of at most ~100 KB past it.
	if sum.Bytes < target || sum.Bytes > target+1<<20 {
		t.Fatalf("wrote %d bytes for a target of %d", sum.Bytes, target)
	}
	if sum.Runs < 200 || bytes.Count(labels, []byte("\n")) != sum.Runs {
		t.Fatalf("summary %+v, %d labels", sum, bytes.Count(labels, []byte("\n")))
	}
	within(t, "runaway share", float64(sum.RunawayRuns)/float64(sum.Runs), 0.12, 0.28)
}

// TestOnsets checks that each cause's onset step has the property its
// definition names (docs/synth.md).
func TestOnsets(t *testing.T) {
	runs, labels, _ := corpus(t, Config{Runs: 1800, RunawayRate: 1, Seed: 11})
	for id, l := range labels {
		run := runs[id]
		o := int(l.OnsetStep)
		if err := checkOnset(l.RootCause, run, o); err != nil {
			t.Errorf("%s %s onset %d: %v\n%s", id, l.RootCause, o, err, dumpRun(run))
		}
	}
}

func checkOnset(cause string, run []schema.Step, o int) error {
	on := &run[o]
	switch cause {
	case CauseToolRetryLoop:
		k := callKey(on)
		if k == "" {
			return fmt.Errorf("no call at onset")
		}
		before, after := 0, 0
		for i := range run {
			if callKey(&run[i]) == k {
				if i < o {
					before++
				} else if i > o {
					after++
					if outcome(&run[i]) != outcome(on) {
						return fmt.Errorf("step %d: repeat answered differently", i)
					}
				}
			}
		}
		if before > 0 || after < 3 {
			return fmt.Errorf("key seen %d times before, %d after", before, after)
		}
		// The next call is the same one, or (A B A B) the one after it.
		var next []string
		for i := o + 1; i < len(run) && len(next) < 2; i++ {
			if isCall(&run[i]) {
				next = append(next, callKey(&run[i]))
			}
		}
		if next[0] != k && next[1] != k {
			return fmt.Errorf("onset call not repeated next")
		}
	case CauseReplanLoop:
		if on.State != "PLAN" {
			return fmt.Errorf("onset state %s", on.State)
		}
		seen := map[string]bool{}
		for i := 0; i < o; i++ {
			seen[callKey(&run[i])] = true
		}
		plans := 0
		for i := o; i < len(run); i++ {
			s := &run[i]
			if len(s.Artifacts) > 0 {
				return fmt.Errorf("artifact at step %d", i)
			}
			if isCall(s) && !seen[callKey(s)] {
				return fmt.Errorf("new call at step %d", i)
			}
			if s.State == "PLAN" {
				plans++
				if s.Decision.Reason != on.Decision.Reason {
					return fmt.Errorf("plan at step %d differs", i)
				}
				if s.Memory == nil || s.Memory.WriteTags[0] != "plan" {
					return fmt.Errorf("plan at step %d writes no plan memory", i)
				}
			}
		}
		if plans < 6 {
			return fmt.Errorf("%d plans in the loop", plans)
		}
	case CauseMemoryContamination:
		if on.State != "ACT" || on.Memory == nil || len(on.Memory.Retrieved) == 0 {
			return fmt.Errorf("onset retrieves nothing")
		}
		mem := on.Memory.Retrieved[0]
		w := -1
		for i := 0; i < o; i++ {
			if m := run[i].Memory; m != nil {
				for _, id := range m.Written {
					if id == mem {
						w = i
					}
				}
				if w < 0 && contains(m.Retrieved, mem) {
					return fmt.Errorf("step %d retrieves m before it is written", i)
				}
				if w >= 0 && i > w && contains(m.Retrieved, mem) {
					return fmt.Errorf("step %d, before onset, retrieves the memory", i)
				}
			}
		}
		if w < 0 || o-w < 1 || o-w > 3 {
			return fmt.Errorf("memory %s written at %d", mem, w)
		}
		tags := run[w].Memory.WriteTags
		if !contains(tags, "inference") && !contains(tags, "tool_error") {
			return fmt.Errorf("memory written with tags %v", tags)
		}
		for i := o; i < len(run); i++ {
			if run[i].Memory == nil || !contains(run[i].Memory.Retrieved, mem) {
				return fmt.Errorf("step %d does not retrieve %s", i, mem)
			}
		}
		k, n := callKey(on), 0
		for i := o; i < len(run); i++ {
			if callKey(&run[i]) == k {
				n++
			}
		}
		if n < 2 {
			return fmt.Errorf("onset call made %d times", n)
		}
	case CauseBudgetIgnored:
		b := on.Budget
		if b == nil || b.MaxSteps != int64(o) {
			return fmt.Errorf("budget %+v", b)
		}
		if float64(len(run)) < 1.5*float64(o)-1 {
			return fmt.Errorf("%d steps for max_steps %d", len(run), o)
		}
		if err := withinBudget(run[:o], b); err != nil {
			return fmt.Errorf("before onset: %v", err)
		}
		counts := map[string]int{}
		for i := range run {
			if k := callKey(&run[i]); k != "" {
				counts[k]++
				if counts[k] > 2 {
					return fmt.Errorf("call repeated: %s", k)
				}
			}
		}
	case CauseEmptyResultLoop:
		if on.State != "ACT" || !on.ToolResult.IsEmpty() {
			return fmt.Errorf("onset result not empty")
		}
		args := map[string]bool{}
		for i := range run {
			s := &run[i]
			if s.Intent != on.Intent {
				continue
			}
			if i < o {
				return fmt.Errorf("intent used at step %d before onset", i)
			}
			if !s.ToolResult.IsEmpty() {
				return fmt.Errorf("step %d not empty", i)
			}
			if args[string(s.ToolCall.Args)] {
				return fmt.Errorf("step %d repeats a query", i)
			}
			args[string(s.ToolCall.Args)] = true
		}
		if len(args) < 6 {
			return fmt.Errorf("%d rephrasings", len(args))
		}
	case CauseErrorStorm:
		if !on.ToolResult.IsError() {
			return fmt.Errorf("onset call did not fail")
		}
		for i := o - 1; i >= 0; i-- {
			if isCall(&run[i]) {
				if run[i].ToolResult.IsError() {
					return fmt.Errorf("call before onset (step %d) failed too", i)
				}
				break
			}
		}
		var calls []int
		for i := o; i < len(run); i++ {
			if isCall(&run[i]) {
				if !run[i].ToolResult.IsError() {
					return fmt.Errorf("step %d succeeded", i)
				}
				if !*run[i].ToolResult.Retryable {
					return fmt.Errorf("step %d: non-retryable error in a storm", i)
				}
				calls = append(calls, i)
			}
		}
		if len(calls) < 8 {
			return fmt.Errorf("streak of %d", len(calls))
		}
		// No backoff: the time between calls stays about constant.
		lo, hi := int64(math.MaxInt64), int64(0)
		for k := 1; k < len(calls); k++ {
			gap := run[calls[k]].TS.UnixMilli - run[calls[k-1]].TS.UnixMilli
			lo, hi = min(lo, gap), max(hi, gap)
		}
		if float64(hi) > 1.25*float64(lo) {
			return fmt.Errorf("gaps between calls grow from %d to %d ms", lo, hi)
		}
	default:
		return fmt.Errorf("unknown cause")
	}
	return nil
}

func withinBudget(run []schema.Step, b *schema.Budget) error {
	var calls, tokens int64
	var cost float64
	for i := range run {
		s := &run[i]
		if isCall(s) {
			calls++
		}
		tokens += s.Usage.PromptTokens + s.Usage.CompletionTokens
		cost += s.Usage.CostUSD
	}
	secs := float64(run[len(run)-1].TS.UnixMilli-run[0].TS.UnixMilli) / 1000
	switch {
	case b.MaxSteps > 0 && int64(len(run)) > b.MaxSteps:
		return fmt.Errorf("%d steps > %d", len(run), b.MaxSteps)
	case b.MaxToolCalls > 0 && calls > b.MaxToolCalls:
		return fmt.Errorf("%d calls > %d", calls, b.MaxToolCalls)
	case b.MaxTokens > 0 && tokens > b.MaxTokens:
		return fmt.Errorf("%d tokens > %d", tokens, b.MaxTokens)
	case b.MaxCostUSD > 0 && cost > b.MaxCostUSD+1e-9:
		return fmt.Errorf("cost %.4f > %.4f", cost, b.MaxCostUSD)
	case b.MaxSeconds > 0 && secs > b.MaxSeconds:
		return fmt.Errorf("%.0f s > %.0f", secs, b.MaxSeconds)
	}
	return nil
}

// TestHealthy checks that healthy runs make progress, end with STOP, stay
// within a logged budget, and that their confounders look the way
// docs/synth.md says, without turning into loops.
func TestHealthy(t *testing.T) {
	runs, labels, _ := corpus(t, Config{Runs: 3000, RunawayRate: 0, Seed: 21})
	seenConf := map[string]int{}
	for id, run := range runs {
		l := labels[id]
		if err := checkHealthy(run, l); err != nil {
			t.Errorf("%s (%s): %v\n%s", id, l.Confounder, err, dumpRun(run))
		}
		for _, c := range strings.Split(l.Confounder, ",") {
			seenConf[c]++
		}
	}
	for _, c := range []string{confPagination, confPolling, confReplan, confTransient, confVolatile,
		confLongRun, confNearBudget, confRephrase, confHypothesis} {
		if seenConf[c] < 30 {
			t.Errorf("confounder %s in %d runs", c, seenConf[c])
		}
	}
}

func checkHealthy(run []schema.Step, l Label) error {
	n := len(run)
	if n < 6 || n > 45 {
		return fmt.Errorf("%d steps", n)
	}
	if run[n-1].State != "STOP" {
		return fmt.Errorf("ends in %s", run[n-1].State)
	}
	if b := run[0].Budget; b != nil {
		if err := withinBudget(run, b); err != nil {
			return err
		}
	}
	plans, streak, maxStreak, errStreak := 0, 0, 0, 0
	prevKey := ""
	emptiesByIntent := map[string]int{}
	var errGaps []int64
	lastErrTS := int64(-1)
	for i := range run {
		s := &run[i]
		if s.State == "PLAN" {
			plans++
		}
		if !isCall(s) {
			continue
		}
		k := callKey(s)
		if k == prevKey {
			streak++
		} else {
			streak = 1
			lastErrTS = -1
		}
		prevKey = k
		maxStreak = max(maxStreak, streak)
		// Retries of a failed call: the gaps between attempts grow.
		if lastErrTS >= 0 {
			errGaps = append(errGaps, s.TS.UnixMilli-lastErrTS)
		}
		lastErrTS = -1
		if s.ToolResult.IsError() {
			errStreak++
			if errStreak > 3 {
				return fmt.Errorf("error streak at step %d", i)
			}
			lastErrTS = s.TS.UnixMilli
		} else {
			errStreak = 0
		}
		if s.ToolResult.IsEmpty() {
			emptiesByIntent[s.Intent]++
			if emptiesByIntent[s.Intent] > 2 && s.ToolCall.Name != "list_items" {
				return fmt.Errorf("3 empty results for intent %q", s.Intent)
			}
		}
	}
	if plans > 3 {
		return fmt.Errorf("%d plans", plans)
	}
	if maxStreak > 5 {
		return fmt.Errorf("same call %d times in a row", maxStreak)
	}
	confs := l.Confounder
	if strings.Contains(confs, confPolling) {
		// Identical pending answers with growing waits, then done.
		var ts []int64
		var outs []uint64
		for i := range run {
			if isCall(&run[i]) && run[i].ToolCall.Name == "job_status" {
				ts = append(ts, run[i].TS.UnixMilli)
				outs = append(outs, outcome(&run[i]))
			}
		}
		if len(ts) < 3 || len(ts) > 5 {
			return fmt.Errorf("%d polls", len(ts))
		}
		for k := 1; k < len(ts); k++ {
			if k < len(ts)-1 && outs[k] != outs[0] {
				return fmt.Errorf("pending answers differ")
			}
			if k >= 2 && ts[k]-ts[k-1] <= ts[k-1]-ts[k-2] {
				return fmt.Errorf("poll gaps do not grow: %v", ts)
			}
		}
		if outs[len(outs)-1] == outs[0] {
			return fmt.Errorf("polling never finished")
		}
	}
	if strings.Contains(confs, confPagination) {
		pages := map[string]bool{}
		for i := range run {
			if isCall(&run[i]) && run[i].ToolCall.Name == "list_items" {
				pages[callKey(&run[i])] = true
			}
		}
		if len(pages) < 3 || len(pages) > 8 {
			return fmt.Errorf("%d pages", len(pages))
		}
	}
	if strings.Contains(confs, confTransient) && !strings.Contains(confs, confReplan) {
		for k := 1; k < len(errGaps); k++ {
			if errGaps[k] <= errGaps[k-1] {
				return fmt.Errorf("retry gaps do not grow: %v", errGaps)
			}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func dumpRun(run []schema.Step) string {
	var b strings.Builder
	for i := range run {
		s := &run[i]
		fmt.Fprintf(&b, "  %2d %-7s", *s.Step, s.State)
		if s.ToolCall != nil {
			fmt.Fprintf(&b, " %s %s", s.ToolCall.Name, s.ToolCall.Args)
		}
		if s.ToolResult != nil {
			fmt.Fprintf(&b, " ok=%v err=%s empty=%v", !s.ToolResult.IsError(), s.ToolResult.ErrorType, s.ToolResult.IsEmpty())
		}
		if s.Memory != nil {
			fmt.Fprintf(&b, " mem r=%v w=%v %v", s.Memory.Retrieved, s.Memory.Written, s.Memory.WriteTags)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after -= len(p); w.after < 0 {
		return 0, fmt.Errorf("disk full")
	}
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	_, err := Generate(Config{Runs: 2000, Seed: 1}, &failingWriter{after: 3 << 20}, nil)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err %v", err)
	}
	_, err = Generate(Config{Runs: 2000, Seed: 1}, &bytes.Buffer{}, &failingWriter{after: 1000})
	if err == nil {
		t.Fatal("labels write error not reported")
	}
}
