package detect_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
)

const (
	search     = `"state":"ACT","tool_call":{"name":"web_search","args":{"q":"agent loop","top_k":5}}`
	sameAnswer = `"tool_result":{"ok":true,"data":[{"url":"https://example.com/a"}]}`
	evalStep   = `"state":"EVAL"`
)

func TestIndicatorsOfASmallRun(t *testing.T) {
	r := newRun("r1").
		add(`"ts":"2026-11-29T00:00:00Z","state":"PLAN","budget":{"max_steps":6},"decision":{"reason":"Search, then fetch"}`).
		add(`"ts":"2026-11-29T00:00:02Z",` + search + `,` + sameAnswer).
		add(`"ts":"2026-11-29T00:00:03Z",` + evalStep).
		add(`"ts":"2026-11-29T00:00:05Z",` + search + `,` + sameAnswer).
		add(`"ts":"2026-11-29T00:00:06Z","state":"ACT","tool_call":{"name":"fetch","args":{"url":"u"}},"tool_result":{"ok":false,"status":429}`).
		add(`"ts":"2026-11-29T00:00:07Z","state":"ACT","tool_call":{"name":"fetch","args":{"url":"u"}},"tool_result":{"ok":false,"error_type":"TIMEOUT"}`).
		add(`"ts":"2026-11-29T00:00:09Z","state":"PLAN","usage":{"prompt_tokens":100,"completion_tokens":20,"cost_usd":0.5},"decision":{"reason":"search,  then FETCH"}`).
		add(`"ts":"2026-11-29T00:00:10Z","state":"ACT","tool_call":{"name":"web_search","args":{"top_k":5,"q":"Agent Loop","request_id":"x1"}},"tool_result":{"ok":true,"result_count":0}`).
		add(`"ts":"2026-11-29T00:00:12Z","state":"STOP"`)
	got := one(t, detect.DefaultPolicy(), r.text()).Indicators
	want := detect.Indicators{
		Steps: 9, ToolCalls: 5, DistinctCalls: 3,
		SameCallMax: 2, SameCallMaxWindow: 2, SameCallMaxStreak: 2,
		SameNormArgsMax:  3, // the last search differs only in case and a request id
		StateOscillation: 2, // ACT EVAL ACT and ACT PLAN ACT
		// The first search was progress, but the second PLAN re-makes the
		// first plan (same reason once normalised) after only call results.
		PlanActRoundTrips: 1, UnproductivePlanRoundTrip: 1, Plans: 2, PlansRepeated: 1,
		MaxRepeatedDecision: 1, // the two PLAN decisions are not consecutive

		ProgressEvents: 2, NoProgressSteps: 6, // step 1 (first search) and STOP; steps 2-7 in between
		ToolErrors: 2, ToolErrorsByType: map[string]int64{"RATE_LIMIT": 1, "TIMEOUT": 1}, MaxErrorStreak: 2,
		EmptyResults: 1,
		// The 7th counted step (step 6) crosses max_steps 6; the final STOP
		// is not counted against the limit but is a step taken after it.
		BudgetMaxSteps: 6, BudgetCrossings: 1, StepsAfterBudget: 3,
		Tokens: 120, CostUSD: 0.5, DurationMS: 12000, EndedWithStop: true,
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("indicators\ngot  %s\nwant %s", gj, wj)
	}
}

func TestRepeatedCallNeedsTheSameResult(t *testing.T) {
	same := newRun("same")
	changing := newRun("changing")
	for i := 0; i < 6; i++ {
		same.add(search + `,` + sameAnswer)
		changing.add(search + fmt.Sprintf(`,"tool_result":{"ok":true,"data":[%d]}`, i))
	}
	r := one(t, detect.DefaultPolicy(), same.text())
	if r.Verdict != detect.Runaway || r.RootCause != detect.CauseToolRetryLoop || r.OnsetStep != 0 {
		t.Fatalf("6 identical calls with the same answer: got %v %v onset %d", r.Verdict, r.RootCause, r.OnsetStep)
	}
	if r := one(t, detect.DefaultPolicy(), changing.text()); slices.Contains(detectors(r), "RA101") {
		t.Fatalf("a call whose answer changes every time is not a retry loop: %v", r.Findings)
	}
}

// A B A B ... is caught for each key even though no two calls in a row are
// equal (guide D's breaker misses it).
func TestRepeatedCallSeesInterleavedRepeats(t *testing.T) {
	r := newRun("abab")
	for i := 0; i < 6; i++ {
		r.add(search + `,` + sameAnswer)
		r.add(`"state":"ACT","tool_call":{"name":"fetch","args":{"url":"u"}},"tool_result":{"ok":true,"data":"same page"}`)
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	// RA101 sees each key's chain; RA102 sees the cycle and, being more
	// specific, gives the evidence.
	if res.Verdict != detect.Runaway || res.Findings[0].Detector != "RA102" || !slices.Contains(detectors(res), "RA101") {
		t.Fatalf("ABAB loop: %+v", res)
	}
	if res.Indicators.SameCallMaxStreak != 1 || res.Indicators.SameCallMaxWindow != 6 {
		t.Fatalf("streak %d window %d", res.Indicators.SameCallMaxStreak, res.Indicators.SameCallMaxWindow)
	}
}

func TestPollingWithBackoffIsHealthyOnlyWithTimestamps(t *testing.T) {
	poll := `"state":"ACT","tool_call":{"name":"job_status","args":{"job_id":"j1"}}`
	withTS, noTS := newRun("ts"), newRun("nots")
	sec := 0
	for _, gap := range []int{0, 2, 4, 8} {
		sec += gap
		withTS.add(fmt.Sprintf(`"ts":%d,`, 1795900000+sec) + poll + `,"tool_result":{"ok":true,"data":{"state":"pending"}}`)
		noTS.add(poll + `,"tool_result":{"ok":true,"data":{"state":"pending"}}`)
	}
	withTS.add(fmt.Sprintf(`"ts":%d,`, 1795900000+sec+16) + poll + `,"tool_result":{"ok":true,"data":{"state":"done"}}`)
	noTS.add(poll + `,"tool_result":{"ok":true,"data":{"state":"done"}}`)
	if r := one(t, detect.DefaultPolicy(), withTS.text()); r.Verdict != detect.Healthy {
		t.Fatalf("polling with growing gaps that succeeds must be healthy: %+v", r.Findings)
	}
	if r := one(t, detect.DefaultPolicy(), noTS.text()); !slices.Contains(detectors(r), "RA101") {
		t.Fatalf("without ts polling cannot be told from a retry loop and must be reported: %+v", r.Findings)
	}
}

func TestOutOfOrderStepsAreOrdered(t *testing.T) {
	r := newRun("r")
	for i := 0; i < 6; i++ {
		r.add(search + `,` + sameAnswer)
	}
	r.add(`"state":"STOP"`)
	shuffled := slices.Clone(r.lines)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	a := one(t, detect.DefaultPolicy(), r.text())
	b := one(t, detect.DefaultPolicy(), strings.Join(shuffled, "\n")+"\n")
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("order of arrival changed the result:\n%+v\n%+v", a, b)
	}
	if !b.Indicators.EndedWithStop {
		t.Fatal("the STOP step is last after ordering")
	}
}

func TestDuplicateStepsAreReportedNotDoubled(t *testing.T) {
	r := newRun("dup").add(search + `,` + sameAnswer).add(search + `,` + sameAnswer).add(`"state":"STOP"`)
	text := r.text()
	// The same file shipped twice, plus a conflicting version of step 2.
	conflict := `{"run_id":"dup","step":2,"state":"EVAL"}` + "\n"
	res := scan(t, detect.DefaultPolicy(), text, text, conflict)
	if len(res) != 1 {
		t.Fatalf("runs: %d", len(res))
	}
	got := res[0]
	if got.Steps != 4 || got.DuplicateSteps != 3 || got.ConflictingSteps != 1 {
		t.Fatalf("steps %d duplicates %d conflicts %d", got.Steps, got.DuplicateSteps, got.ConflictingSteps)
	}
	if slices.Contains(detectors(got), "RA101") {
		t.Fatal("re-shipped lines must not turn two calls into a repeated-call loop")
	}
	joined := strings.Join(got.DataProblems, "\n")
	if !strings.Contains(joined, "in0.jsonl:1") || !strings.Contains(joined, "in1.jsonl:1") || !strings.Contains(joined, "in2.jsonl:1") {
		t.Fatalf("data problems must locate both copies by file:line: %q", joined)
	}
}

// A data problem about a step logged twice names the line analysed as
// the reference, and says which copy was dropped: a copy is compared with
// the line kept, never with another dropped copy, and a copy identical to
// a kept line is dropped even when a conflicting version came between.
func TestDuplicateMessagesNameTheKeptAndTheDroppedLine(t *testing.T) {
	x := `{"run_id":"d","step":0,"ts":"2026-01-01T00:00:00Z","state":"PLAN","goal":"x"}`
	y := `{"run_id":"d","step":0,"ts":"2026-01-01T00:00:00Z","state":"PLAN","goal":"y"}`
	stop := `{"run_id":"d","step":1,"ts":"2026-01-01T00:00:01Z","state":"STOP"}`
	// in0: x, in1: x again, in2: y (a conflict), in3: x a third time.
	res := scan(t, detect.DefaultPolicy(), x+"\n"+stop+"\n", x+"\n", y+"\n", x+"\n")
	if len(res) != 1 {
		t.Fatalf("runs: %d", len(res))
	}
	got := res[0]
	if got.DuplicateSteps != 2 || got.ConflictingSteps != 1 {
		t.Fatalf("duplicates %d conflicts %d; want 2 (in1, in3) and 1 (in2): %q", got.DuplicateSteps, got.ConflictingSteps, got.DataProblems)
	}
	// Lines of the same step and ts are ordered by content (a hash of
	// their bytes), not by where they were read: the conflict names first
	// whichever version comes first in that order.
	want := []string{
		"step 0 logged twice with identical content (kept in0.jsonl:1, dropped in1.jsonl:1)",
		"step 0 logged twice with different content (%s); both were analyzed",
		"step 0 logged twice with identical content (kept in0.jsonl:1, dropped in3.jsonl:1)",
	}
	if len(got.DataProblems) != len(want) {
		t.Fatalf("data problems %q; want %q", got.DataProblems, want)
	}
	for _, w := range want {
		found := false
		for _, p := range got.DataProblems {
			if strings.Contains(w, "%s") {
				found = found || strings.HasSuffix(p, fmt.Sprintf(w, "in0.jsonl:1 and in2.jsonl:1")) || strings.HasSuffix(p, fmt.Sprintf(w, "in2.jsonl:1 and in0.jsonl:1"))
			} else {
				found = found || strings.HasSuffix(p, w)
			}
		}
		if !found {
			t.Errorf("no data problem ends %q: %q", w, got.DataProblems)
		}
	}

	// A step logged in many versions (a logger that numbers every step 0):
	// a copy of the 18th version is still dropped, and counted once.
	var many strings.Builder
	for i := range 20 {
		fmt.Fprintf(&many, `{"run_id":"m","step":0,"ts":"2026-01-01T00:00:00Z","state":"PLAN","goal":"v%d"}`+"\n", i)
	}
	copy18 := fmt.Sprintf(`{"run_id":"m","step":0,"ts":"2026-01-01T00:00:00Z","state":"PLAN","goal":"v%d"}`+"\n", 17)
	res = scan(t, detect.DefaultPolicy(), many.String(), copy18)
	if r := res[0]; r.DuplicateSteps != 1 || r.ConflictingSteps != 19 || r.Steps != 20 {
		t.Fatalf("20 versions and a copy: duplicates %d conflicts %d steps %d; want 1, 19, 20", r.DuplicateSteps, r.ConflictingSteps, r.Steps)
	}
}

// The analysis of a run does not depend on what else was in the input, on
// how it was split into batches, or on how runs were grouped: results from
// any grouping merge by sorting on run id.
func TestResultsDoNotDependOnGrouping(t *testing.T) {
	var runs []*runBuilder
	for i := 0; i < 12; i++ {
		r := newRun(fmt.Sprintf("run-%02d", i)).add(`"state":"PLAN"`)
		for j := 0; j < 3+i; j++ {
			if i%3 == 0 {
				r.add(search + `,` + sameAnswer)
			} else {
				r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"t%d","args":{"n":%d}},"tool_result":{"ok":%v,"data":[1]}`, j%2, j, i%3 == 1))
			}
		}
		runs = append(runs, r)
	}
	// Interleaved in one file.
	var mixed []string
	for j := 0; ; j++ {
		any := false
		for _, r := range runs {
			if j < len(r.lines) {
				mixed = append(mixed, r.lines[j])
				any = true
			}
		}
		if !any {
			break
		}
	}
	all := scan(t, detect.DefaultPolicy(), strings.Join(mixed, "\n")+"\n")
	// Each run alone, through runstore.AnalyzeBatch.
	var merged []detect.RunResult
	for _, r := range runs {
		merged = append(merged, analyzeAlone(t, r.text())...)
	}
	slices.SortFunc(merged, func(a, b detect.RunResult) int { return strings.Compare(a.RunID, b.RunID) })
	if !reflect.DeepEqual(all, merged) {
		t.Fatal("results differ between one interleaved scan and per-run analysis")
	}
	flagged := 0
	for _, r := range all {
		if r.Verdict != detect.Healthy {
			flagged++
		}
	}
	if flagged == 0 || flagged == len(all) {
		t.Fatalf("the test needs both flagged and healthy runs, got %d of %d flagged", flagged, len(all))
	}
}

func analyzeAlone(t *testing.T, text string) []detect.RunResult {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out []detect.RunResult
	_, err := ingest.Read(t.Context(), []ingest.Source{source("one.jsonl", text)}, ingest.Options{Alloc: mem, BatchRows: 1 << 12, Workers: 1},
		func(rec arrow.RecordBatch) error {
			rs, err := runstore.AnalyzeBatch(rec, detect.DefaultPolicy(), []string{"one.jsonl"})
			out = append(out, rs...)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestErrorStormOnOneCallIsAnErrorStorm(t *testing.T) {
	r := newRun("storm")
	r.add(`"state":"PLAN"`)
	r.repeat(8, `"state":"ACT","tool_call":{"name":"web_search","args":{"q":"x"}},"tool_result":{"ok":false,"error_type":"TIMEOUT"}`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1 {
		t.Fatalf("got %v onset %d signals %v", res.RootCause, res.OnsetStep, res.Signals)
	}
	if !slices.Contains(res.Signals, "repeated-identical-call") {
		t.Fatalf("the repeated call stays a contributing signal: %v", res.Signals)
	}
}

// A log that keeps only exit codes says a command failed, not how: five
// different commands that each exit non-zero are an agent trying things,
// while one command failing five times is a storm.
func TestFailuresWithoutOutputAreTheSameOnlyWhenTheCallIs(t *testing.T) {
	tries := newRun("tries")
	for _, cmd := range []string{"pytest tests/a.py", "python -m pytest -x", "python runtests.py a", "python -m unittest a", "tox -e py"} {
		tries.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"` + cmd + `"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE"}`)
	}
	if res := one(t, detect.DefaultPolicy(), tries.text()); res.Verdict == detect.Runaway {
		t.Fatalf("five different commands failing without output: %v %v %v", res.Verdict, res.RootCause, res.Signals)
	}
	again := newRun("again")
	again.repeat(5, `"state":"ACT","tool_call":{"name":"bash","args":{"command":"make test"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE"}`)
	if res := one(t, detect.DefaultPolicy(), again.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("one command failing five times without output: %v %v %v", res.Verdict, res.RootCause, res.Signals)
	}
}

// A shell that timed out must be restarted: the commands sent to it after
// that time out whatever they are. Without their output, the same tool
// timing out again is the same failure, as its logged message would say.
func TestTimeoutsWithoutOutputAreOneFailure(t *testing.T) {
	dead := newRun("dead")
	dead.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python bench.py"}},"tool_result":{"ok":true}`)
	for _, cmd := range []string{"python bench.py --quick", "ls .bench_scratch", "cat bench.py", "python -c 'print(1)'"} {
		dead.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"` + cmd + `"}},"tool_result":{"ok":false,"error_type":"TIMEOUT"}`)
	}
	res := one(t, detect.DefaultPolicy(), dead.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1 {
		t.Fatalf("four commands timing out in a dead shell: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, res.Signals)
	}
}

// Edits made with another tool while the shell is stuck reach nothing:
// the command run after each of them never ran, the shell still timed
// out. Once the shell answers between (a command goes through), the run
// after an edit is the edit's experiment again.
func TestEditsWhileTheShellIsStuckAreNoExperiment(t *testing.T) {
	build := func(name string, alive bool) string {
		r := newRun(name)
		for k := 0; k < 4; k++ {
			if k > 0 {
				r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_based_edit_tool","args":{"command":"str_replace","path":"bench.py","old_str":"N = ` + fmt.Sprint(k) + `","new_str":"N = ` + fmt.Sprint(k+1) + `"}},"tool_result":{"ok":true,"data":"bench.py edited: N = ` + fmt.Sprint(k+1) + `"}`)
				if alive {
					r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"sed -n '1,` + fmt.Sprint(20+k) + `p' bench.py"}},"tool_result":{"ok":true,"data":"import time\\nN = ` + fmt.Sprint(k+1) + `"}`)
				}
			}
			r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python bench.py"}},"tool_result":{"ok":false,"error_type":"TIMEOUT","data":"timed out: bash has not returned in 120.0 seconds and must be restarted"}`)
		}
		return r.text()
	}
	res := one(t, detect.DefaultPolicy(), build("stuck", false))
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Fatalf("four timeouts of a stuck shell, an edit before each: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, res.Signals)
	}
	if res := one(t, detect.DefaultPolicy(), build("alive", true)); res.Verdict == detect.Runaway {
		t.Fatalf("the shell answered after each edit: %v %v %v", res.Verdict, res.RootCause, res.Signals)
	}
}

func TestWasteIsCountedFromTheOnset(t *testing.T) {
	r := newRun("waste").add(`"state":"PLAN","usage":{"prompt_tokens":10,"completion_tokens":0,"cost_usd":1}`)
	for i := 0; i < 5; i++ {
		r.add(search + `,` + sameAnswer + `,"usage":{"prompt_tokens":100,"completion_tokens":10,"cost_usd":0.25}`)
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.OnsetStep != 1 || res.WastedSteps != 5 || res.WastedTokens != 550 || res.WastedCostUSD != 1.25 {
		t.Fatalf("onset %d wasted %d steps %d tokens $%v", res.OnsetStep, res.WastedSteps, res.WastedTokens, res.WastedCostUSD)
	}
}

func TestPolicyThresholdsChangeVerdicts(t *testing.T) {
	r := newRun("p").repeat(4, search+`,`+sameAnswer)
	if got := one(t, detect.DefaultPolicy(), r.text()).Verdict; got != detect.Runaway {
		t.Fatalf("4 identical calls: %v, want runaway (OpenHands' 4 identical pairs)", got)
	}
	p := detect.DefaultPolicy()
	p.RepeatRunaway = 5
	if got := one(t, p, r.text()).Verdict; got != detect.Suspicious {
		t.Fatalf("with repeat_runaway 5: %v", got)
	}
	p.RepeatSuspicious, p.RepeatRunaway = 5, 6
	if got := one(t, p, r.text()).Verdict; got != detect.Healthy {
		t.Fatalf("with repeat_suspicious 5: %v", got)
	}
}

// Near-duplicates: a fresh request id per call does not hide a retry loop,
// but pagination stays legitimate even when a team declares its cursor
// volatile, because every page answers differently.
func TestNearDuplicateCallsAndPagination(t *testing.T) {
	retry := newRun("retry")
	pages := newRun("pages")
	for i := 0; i < 6; i++ {
		retry.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"status","args":{"order":"O-%d","request_id":"r%d"}},"tool_result":{"ok":true,"data":{"state":"pending"}}`, 9, i))
		pages.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"list","args":{"cursor":"c%d","request_id":"r%d"}},"tool_result":{"ok":true,"data":[%d]}`, i, i, i))
	}
	r := one(t, detect.DefaultPolicy(), retry.text())
	if !slices.Contains(detectors(r), "RA103") || slices.Contains(detectors(r), "RA101") || r.RootCause != detect.CauseToolRetryLoop {
		t.Fatalf("6 calls differing only in request_id: got %v %v", r.RootCause, r.Findings)
	}
	if !strings.Contains(r.Findings[0].Evidence.Keys[0], `status {"order":"O-9"`) {
		t.Fatalf("evidence should show the args: %q", r.Findings[0].Evidence.Keys)
	}
	p := detect.DefaultPolicy()
	p.VolatileKeys = append([]string{"cursor"}, detect.DefaultPolicy().Volatile()...)
	if r := one(t, p, pages.text()); len(r.Findings) != 0 {
		t.Fatalf("pagination with a volatile cursor: %v", r.Findings)
	}
	// Without request_id among the volatile keys, the calls are all different.
	p.VolatileKeys = []string{"nonce"}
	if r := one(t, p, retry.text()); slices.Contains(detectors(r), "RA103") {
		t.Fatalf("request_id not volatile: %v", r.Findings)
	}
}

// A shell command described in other words each time is one command: a log
// that keeps no tool output still shows the agent running it seven times.
// The same words over different commands are different calls.
func TestADescriptionInOtherWordsIsTheSameCall(t *testing.T) {
	call := func(r *runBuilder, cmd, why string) {
		r.add(`"state":"ACT","tool_call":{"name":"Bash","args":{"command":` + jsonString(cmd) + `,"description":` + jsonString(why) + `}},"tool_result":{"ok":true}`)
	}
	const ls = `ls *.md | grep -v -E "Template|README" | sort`
	reworded := newRun("reworded")
	for _, why := range []string{"List all agent definition files", "List agent definition files in agents directory",
		"List all agent definition files.", "List agent definition files", "List the agent files in the directory",
		"List agent definition files again", "Show the agent files"} {
		call(reworded, ls, why)
	}
	r := one(t, detect.DefaultPolicy(), reworded.text())
	if r.Verdict != detect.Runaway || !slices.Contains(detectors(r), "RA103") || r.OnsetStep != 0 {
		t.Fatalf("one command under seven descriptions: %v onset %d %v", r.Verdict, r.OnsetStep, r.Findings)
	}
	p := detect.DefaultPolicy()
	p.VolatileKeys = []string{"request_id"}
	if r := one(t, p, reworded.text()); slices.Contains(detectors(r), "RA103") {
		t.Fatalf("description not volatile: %v", r.Findings)
	}
	moving := newRun("moving")
	for _, dir := range []string{"agents", "docs", "hooks", "tools", "config", "tests", "build"} {
		call(moving, "ls "+dir+"/*.md", "List the markdown files")
	}
	if r := one(t, detect.DefaultPolicy(), moving.text()); slices.Contains(detectors(r), "RA103") || slices.Contains(detectors(r), "RA101") {
		t.Fatalf("one description over seven directories: %v", r.Findings)
	}
}

// Fixing one compile error after another is progress; rebuilding into the
// same compile error with no change between is a storm.
func TestCompileErrorsAfterEditsAreProgress(t *testing.T) {
	build := func(r *runBuilder, msg string) {
		r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"cargo build"}},"tool_result":{"ok":false,"error_type":"COMPILE_ERROR","data":` + jsonString(msg) + `}`)
	}
	fixing := newRun("fixing")
	for k, msg := range []string{
		"error[E0425]: cannot find value `cfg` in this scope\n --> src/lib.rs:12:9",
		"error[E0308]: mismatched types: expected `u32`, found `i64`\n --> src/lib.rs:14:20",
		"error[E0599]: no method named `parse_all` found for struct `Reader`\n --> src/lib.rs:30:11",
		"error[E0382]: borrow of moved value: `buf`\n --> src/lib.rs:41:5",
		"error[E0277]: the trait bound `Token: Clone` is not satisfied\n --> src/lib.rs:52:14",
		"error[E0061]: this function takes 2 arguments but 1 argument was supplied\n --> src/lib.rs:60:3",
	} {
		fixing.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"edit","args":{"path":"src/lib.rs","new":"fix %d"}},"tool_result":{"ok":true,"data":"edited src/lib.rs (%d)"}`, k, k))
		build(fixing, msg)
	}
	if res := one(t, detect.DefaultPolicy(), fixing.text()); res.Verdict == detect.Runaway {
		t.Fatalf("a different compile error after each edit: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
	stuck := newRun("stuck")
	stuck.add(`"state":"ACT","tool_call":{"name":"edit","args":{"path":"src/lib.rs","new":"fix"}},"tool_result":{"ok":true,"data":"edited src/lib.rs"}`)
	for range 5 {
		build(stuck, "error[E0425]: cannot find value `cfg` in this scope\n --> src/lib.rs:12:9")
	}
	if res := one(t, detect.DefaultPolicy(), stuck.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("the same compile error at every rebuild: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The labelling rubric calls a stretch of about 4 actions stuck: the same
// failure coming back 4 times, or 4 searches rephrased that all come back
// empty, is a runaway; 3 are suspicious.
func TestFourOfAKindIsARunaway(t *testing.T) {
	// The same failure whatever the agent changes in the call: no repeated
	// call finding, the storm alone.
	failing := func(flag string) string {
		return `"state":"ACT","tool_call":{"name":"deploy","args":{"env":"prod","flag":"` + flag + `"}},"tool_result":{"ok":false,"error_type":"PERMISSION_DENIED","data":"403: token lacks deploy scope"}`
	}
	empty := func(q string) string {
		return `"state":"ACT","intent":"find-config","tool_call":{"name":"search","args":{"q":"` + q + `"}},"tool_result":{"ok":true,"empty":true}`
	}
	for _, c := range []struct {
		name  string
		steps []string
		want  detect.Verdict
		cause detect.RootCause
	}{
		{"4 failures", []string{failing("--force"), failing("--no-cache"), failing("--verbose"), failing("--retry")}, detect.Runaway, detect.CauseErrorStorm},
		{"3 failures", []string{failing("--force"), failing("--no-cache"), failing("--verbose")}, detect.Suspicious, detect.CauseErrorStorm},
		{"4 empty searches", []string{empty("config loader"), empty("settings file"), empty("yaml config path"), empty("where is config read")}, detect.Runaway, detect.CauseEmptyResultLoop},
		{"3 empty searches", []string{empty("config loader"), empty("settings file"), empty("yaml config path")}, detect.Suspicious, detect.CauseEmptyResultLoop},
	} {
		r := newRun("four")
		for _, s := range c.steps {
			r.add(s)
		}
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want || res.RootCause != c.cause {
			t.Errorf("%s: %v %v, want %v %v", c.name, res.Verdict, res.RootCause, c.want, c.cause)
		}
	}
}

// Reading and searching without changing or running anything is a loop
// once it goes on long enough (RA207): 30 reads in a row are runaway, 20
// suspicious. A call that may run something (a shell command that is no
// search) or an edit ends the stretch, and searching the web is no read of
// the code; the onset is the first read that is made again within the
// stretch.
func TestReadsWithoutActing(t *testing.T) {
	view := func(n int) string {
		return `"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"command":"view","path":"/repo/config.py","view_range":[` + strconv.Itoa(50*n+1) + `,` + strconv.Itoa(50*n+50) + `]}},"tool_result":{"ok":true,"data":"` + strconv.Itoa(50*n+1) + ` line ` + strings.Repeat("w"+strconv.Itoa(n)+" ", 14) + `"}`
	}
	grep := `"state":"ACT","intent":"search","tool_call":{"name":"bash","args":{"command":"grep -rn kv_cache vllm/"}},"tool_result":{"ok":true,"data":""}`
	edit := `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/repo/a.py"}},"tool_result":{"ok":true,"data":"The file /repo/a.py has been edited."}`
	shell := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python bench.py"}},"tool_result":{"ok":true,"data":"1.84 ms"}`
	web := func(n int) string {
		return `"state":"ACT","intent":"search","tool_call":{"name":"web_search","args":{"q":"kv cache sizing ` + strconv.Itoa(n) + `"}},"tool_result":{"ok":true,"data":"result ` + strconv.Itoa(n) + `"}`
	}
	for _, c := range []struct {
		name   string
		reads  int
		middle string // a call in the middle of the reads, "" for none
		want   detect.Verdict
	}{
		{"30 reads", 30, "", detect.Runaway},
		{"20 reads", 20, "", detect.Suspicious},
		{"19 reads", 19, "", detect.Healthy},
		{"30 reads around an edit", 30, edit, detect.Healthy},
		{"30 reads around a run", 30, shell, detect.Healthy},
		{"30 web searches", 30, "web", detect.Healthy},
	} {
		r := newRun(c.name)
		r.add(`"state":"PLAN","decision":{"reason":"Find where the KV cache is sized."}`)
		for n := range c.reads {
			if c.middle == "web" {
				r.add(web(n)) // searching the web is a research agent's work, not reading the code
				continue
			}
			if n == c.reads/2 && c.middle != "" {
				r.add(c.middle)
			}
			if n%10 == 5 {
				r.add(grep) // the same empty search, made again every ten reads
			} else {
				r.add(view(n))
			}
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 6)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// A view the editor refused for its range (past the file's end), sent
// again at once with the range cut to the length the refusal gave, is one
// read to a person reading the run, not two: the tool showed nothing the
// first time. Twenty reads of which two are such slips are eighteen looks;
// a refused view followed by a view of another file is a look that failed
// and another look, and both count.
func TestRefusedViewSentAgainIsOneRead(t *testing.T) {
	view := func(path string, from, to int, ok bool) string {
		res := `"tool_result":{"ok":true,"data":"` + path + ` ` + strconv.Itoa(from) + ` ` + strings.Repeat("w"+strconv.Itoa(from)+" ", 14) + `"}`
		if !ok {
			res = `"tool_result":{"ok":false,"error_type":"USAGE_ERROR","data":"Invalid view_range: [` + strconv.Itoa(from) + `, ` + strconv.Itoa(to) + `]. Its second element should be smaller than the number of lines in the file: 40"}`
		}
		return `"state":"ACT","tool_call":{"name":"str_replace_based_edit_tool","args":{"command":"view","path":"/repo/` + path + `","view_range":[` + strconv.Itoa(from) + `,` + strconv.Itoa(to) + `]}},` + res
	}
	for _, c := range []struct {
		name string
		next func(k int) string // the call after each refused view
		want detect.Verdict
	}{
		{"re-sent", func(k int) string { return view("f"+strconv.Itoa(k)+".py", 1, 40, true) }, detect.Healthy},
		{"another file", func(k int) string { return view("g"+strconv.Itoa(k)+".py", 1, 40, true) }, detect.Suspicious},
	} {
		r := newRun(c.name)
		for k := range 18 {
			if k == 4 || k == 11 {
				r.add(view("f"+strconv.Itoa(k)+".py", 1, 200, false))
				r.add(c.next(k))
				continue
			}
			r.add(view("m"+strconv.Itoa(k)+".py", 1, 50, true))
		}
		r.add(`"state":"STOP"`)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want {
			t.Errorf("%s: %v %v %v, want %v", c.name, res.Verdict, res.RootCause, detectors(res), c.want)
		}
	}
}

// The onset of a stretch of reads is the first instance of what comes
// back again and again, not an early read that was looked back at once:
// reading a module window by window, glancing back at the fourth window,
// then searching for the same missing name every few reads begins at that
// search's first try.
func TestReadsCircleBeginsAtTheirFirstLap(t *testing.T) {
	view := func(n int) string {
		return `"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"command":"view","path":"/repo/diff.py","view_range":[` + strconv.Itoa(50*n+1) + `,` + strconv.Itoa(50*n+50) + `]}},"tool_result":{"ok":true,"data":"` + strconv.Itoa(50*n+1) + ` line ` + strings.Repeat("w"+strconv.Itoa(n)+" ", 14) + `"}`
	}
	grep := `"state":"ACT","intent":"search","tool_call":{"name":"bash","args":{"command":"grep -rn where_not_allclose astropy/io"}},"tool_result":{"ok":true,"data":""}`
	r := newRun("circle")
	r.add(`"state":"PLAN","decision":{"reason":"Find where the table diff compares values."}`)
	for n := range 10 {
		r.add(view(n)) // steps 1-10
	}
	r.add(view(3)) // step 11: a look back
	for n := 10; n < 30; n++ {
		if n%7 == 3 {
			r.add(grep) // steps 12, 20, 28: the same empty search again
		}
		r.add(view(n))
	}
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != 12 {
		t.Errorf("%v %v onset %d %+v, want runaway from step 12, the search's first try", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// Re-running a check after a change that worked is an experiment (the
// labelling rubric): two failures, an edit that applies, two more failures
// of the same check are two tries, not one storm of four. The same four
// failures around a file read are one storm.
func TestAnEditEndsAStorm(t *testing.T) {
	check := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python repro.py"}},"tool_result":{"ok":false,"error_type":"OperationalError","data":"sqlite3.OperationalError: no such table: app_item"}`
	between := map[string]string{
		"edit": `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"cat <<'EOF' > repro.py"}},"tool_result":{"ok":true,"data":"wrote repro.py"}`,
		"read": `"state":"ACT","tool_call":{"name":"bash","args":{"command":"cat repro.py"}},"tool_result":{"ok":true,"data":"import django\ndjango.setup()"}`,
	}
	for name, want := range map[string]detect.Verdict{"edit": detect.Healthy, "read": detect.Runaway} {
		r := newRun(name)
		r.add(check).add(check).add(between[name]).add(check).add(check)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != want {
			t.Errorf("two failures, %s, two failures: %v %v %+v, want %v", name, res.Verdict, res.RootCause, res.Findings, want)
		}
	}
}

// A package installed that was not installed before ends an error storm,
// though an install says nothing new in its output (pip -q prints
// nothing): the check re-run after it is another experiment, as after an
// edit, even when it fails again for the next missing module. Installing
// the same package again changes nothing: the storm goes on.
func TestANewInstallEndsAStorm(t *testing.T) {
	check := func(module string) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python repro.py"}},"tool_result":{"ok":false,"error_type":"ModuleNotFoundError","data":"ModuleNotFoundError: No module named '` + module + `'"}`
	}
	// pip says the same thing whatever it installs: no progress in its
	// output after the first time.
	install := func(pkg string) string {
		return `"state":"ACT","intent":"install: pip install ` + pkg + `","tool_call":{"name":"bash","args":{"command":"pip install -q ` + pkg + `"}},"tool_result":{"ok":true,"data":"WARNING: Running pip as the 'root' user can result in broken permissions"}`
	}
	for _, c := range []struct {
		name  string
		steps []string
		want  detect.Verdict
	}{
		{"a new package each time", []string{check("yaml"), check("yaml"), install("pyyaml"), check("pydantic"), check("pydantic"), install("pydantic"), check("requests"), check("requests")}, detect.Healthy},
		{"the same package again", []string{check("yaml"), check("yaml"), install("pyyaml"), check("yaml"), check("yaml"), install("pyyaml"), check("yaml"), check("yaml")}, detect.Runaway},
		// The same check failing alike around two new installs is two
		// experiments, as around an edit that applied (TestAnEditEndsAStorm):
		// nor is it one call repeated (RA101).
		{"a new package, the same error", []string{check("yaml"), check("yaml"), install("pyyaml"), check("yaml"), check("yaml"), install("ruamel.yaml"), check("yaml"), check("yaml"), install("yaml"), check("yaml"), check("yaml")}, detect.Healthy},
	} {
		r := newRun(c.name)
		for _, s := range c.steps {
			r.add(s)
		}
		r.add(`"state":"STOP"`)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want {
			t.Errorf("%s: %v %v %+v, want %v", c.name, res.Verdict, res.RootCause, res.Findings, c.want)
		}
	}
}

// Installing one module after another is work going on, though each
// install prints only the same warning line (Maven's -q prints nothing
// but the JVM's warning): a package that nothing before installed is a
// progress event. Installing the same module again and again is not.
func TestNewInstallsAreProgress(t *testing.T) {
	install := func(module string) string {
		return `"state":"ACT","intent":"install: mvnw install ` + module + `","tool_call":{"name":"bash","args":{"command":"./mvnw install -pl ` + module + ` -q"}},"tool_result":{"ok":true,"data":"OpenJDK 64-Bit Server VM warning: Unable to get SVE vector length on this system."}`
	}
	for _, c := range []struct {
		name    string
		modules []string
		want    detect.Verdict
	}{
		{"one module after another", []string{"common", "remoting-api", "remoting-netty", "rpc-api", "rpc-dubbo", "registry-api", "registry-zk", "cluster", "config-api", "config-spring",
			"monitor-api", "filter-cache", "filter-validation", "container-api", "serialization-api", "serialization-hessian", "configcenter-api", "metadata-api", "compatible", "plugin", "demo", "test"}, detect.Healthy},
		{"the same module again", []string{"common", "common", "common", "common", "common", "common", "common", "common"}, detect.Runaway},
	} {
		r := newRun(c.name)
		for _, m := range c.modules {
			r.add(install(m))
		}
		r.add(`"state":"STOP"`)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want {
			t.Errorf("%s: %v %v %+v, want %v", c.name, res.Verdict, res.RootCause, res.Findings, c.want)
		}
	}
}

// An install that fails the same way again and again is one storm though
// the agent looks around between the tries (each look bringing something
// new); the install that finally works ends it.
func TestAGoalFailingAgainAndAgainIsAStorm(t *testing.T) {
	install := func(flag string, ok bool) string {
		res := `{"ok":false,"error_type":"TIMEOUT","data":"Timeout..."}`
		if ok {
			res = `{"ok":true,"data":"added 1532 packages in 4m"}`
		}
		return `"state":"ACT","intent":"install: npm install","tool_call":{"name":"bash","args":{"command":"npm install ` + flag + `"}},"tool_result":` + res
	}
	look := func(n int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"ls node_modules/pkg` + strconv.Itoa(n) + `"}},"tool_result":{"ok":true,"data":"index.js package.json lib` + strconv.Itoa(n) + `"}`
	}
	for _, c := range []struct {
		name   string
		worked int // the try that works, -1 for none
		want   detect.Verdict
	}{
		{"never works", -1, detect.Runaway},
		{"works on the third try", 2, detect.Healthy},
	} {
		r := newRun(c.name)
		for n := range 6 {
			r.add(install("--flag"+strconv.Itoa(n), n == c.worked))
			if n == c.worked {
				break
			}
			r.add(look(2 * n))
			r.add(look(2*n + 1))
		}
		r.add(`"state":"STOP"`)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want {
			t.Errorf("%s: %v %v %+v, want %v", c.name, res.Verdict, res.RootCause, res.Findings, c.want)
		}
	}
}

// An edit of the goal that works between two rejections of the same edit
// (a scratch script written, a replacement that changed nothing) did not
// move the goal on when the very edit refused before is sent again and
// refused again: the refusals are one storm. A different edit refused
// after it is the goal moved on, a new attempt.
func TestAWorkingEditBetweenTheSameRejectedEdit(t *testing.T) {
	edit := func(old string, ok bool) string {
		res := `{"ok":false,"error_type":"EDIT_REJECTED","data":"Error: Code to replace not found in file\nLooking for:\n` + old + `"}`
		if ok {
			res = `{"ok":true,"data":"replacements_done 0"}`
		}
		return `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"code_replace('autodoc.py', '` + old + `', 'private-members')"}},"tool_result":` + res
	}
	view := func(n int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"sed -n ` + strconv.Itoa(n) + `,+20p autodoc.py"}},"tool_result":{"ok":true,"data":"line ` + strconv.Itoa(n) + ` of the option spec"}`
	}
	for _, c := range []struct {
		name  string
		after []string // the old texts of the edits after the one that worked
		want  detect.Verdict
	}{
		{"the same edit refused again", []string{"members: members_option", "members: members_option"}, detect.Runaway},
		{"other edits refused", []string{"def filter_members(self):", "class Options(dict):"}, detect.Healthy},
	} {
		r := newRun(c.name)
		r.add(edit("members: members_option", false))
		r.add(view(100))
		r.add(edit("members: members_option", false))
		r.add(view(200))
		r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"cat > /tmp/patch.py <<'EOF'\nimport re\nEOF\npython /tmp/patch.py"}},"tool_result":{"ok":true,"data":"replacements_done 0"}`)
		for k, old := range c.after {
			r.add(view(300 + 100*k))
			r.add(edit(old, false))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// Failures of one specific type from one tool seeking one thing (the same
// intent) are one failure coming back, even when each call differs and
// each error names another path: an install retried after a different
// cleanup each time, failing with npm's ENOTEMPTY each time, is a storm.
// The same failures from calls without a shared intent are an agent
// trying different things.
func TestSameGoalFailuresAreOneStorm(t *testing.T) {
	commands := []string{"npm install", "rm -rf node_modules/@babel/register && npm ci", "npm cache clean --force; npm install --legacy-peer-deps",
		"cd packages/core && npm install --no-audit", "rm -rf node_modules docs/node_modules && npm install"}
	packages := []string{"airbnb-prop-types", "aria-query", "@npmcli/arborist", "autoprefixer", "@types/node"}
	fail := func(k int, intent string) string {
		return `"state":"ACT",` + intent + `"tool_call":{"name":"bash","args":{"command":"` + commands[k] + `"}},"tool_result":{"ok":false,"error_type":"NPM_ENOTEMPTY","data":"npm ERR! code ENOTEMPTY\nnpm ERR! syscall rename\nnpm ERR! ENOTEMPTY: directory not empty, rename '/w/node_modules/` + packages[k] + `' -> '/w/node_modules/.` + packages[k] + `-tmp'"}`
	}
	for _, c := range []struct {
		intent string
		want   detect.Verdict
	}{
		{`"intent":"install",`, detect.Runaway},
		{``, detect.Healthy},
	} {
		r := newRun("installs")
		for k := range 5 {
			r.add(fail(k, c.intent))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0)) {
			t.Errorf("intent %q: %v %v onset %d, want %v", c.intent, res.Verdict, res.RootCause, res.OnsetStep, c.want)
		}
	}
}

// An install and the check in one command (`pip install X && python
// repro.py`) fails when the check does: installing something new that
// changes the failure is another attempt, the next missing module; the
// same failure coming back after each install is a storm.
func TestInstallAndCheckInOneCall(t *testing.T) {
	call := func(pkg, module string) string {
		return `"state":"ACT","intent":"install: pip install ` + pkg + `","tool_call":{"name":"bash","args":{"command":"pip install -q ` + pkg + ` && python repro.py"}},"tool_result":{"ok":false,"error_type":"ModuleNotFoundError","data":"Traceback (most recent call last):\n  File \"repro.py\", line 1, in <module>\nModuleNotFoundError: No module named '` + module + `'"}`
	}
	for _, c := range []struct {
		name    string
		modules []string
		want    detect.Verdict
	}{
		{"the next missing module each time", []string{"yaml", "pydantic", "requests", "aiohttp", "tenacity"}, detect.Healthy},
		{"the same module each time", []string{"yaml", "yaml", "yaml", "yaml", "yaml"}, detect.Runaway},
	} {
		r := newRun(c.name)
		pkgs := []string{"pyyaml", "pydantic", "requests", "aiohttp", "tenacity"}
		for k, m := range c.modules {
			r.add(call(pkgs[k], m))
		}
		r.add(`"state":"STOP"`)
		if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != c.want {
			t.Errorf("%s: %v %v %+v, want %v", c.name, res.Verdict, res.RootCause, res.Findings, c.want)
		}
	}
}

// A turn of conversation changes nothing a failing call depends on: the
// same booking failing the same way four times, an apology to the
// customer (answered, in other words each time) between the tries, is an
// error storm. A lookup that found something between the tries, or a
// booking failing differently each time, is the agent working the problem.
func TestTalkingBetweenFailuresIsNoProgress(t *testing.T) {
	book := `"state":"ACT","tool_call":{"name":"update_reservation_flights","args":{"reservation_id":"XEWRD9","flights":["HAT030","HAT052"]}},"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: flight HAT030 not available on date 2024-05-13"}`
	talk := func(k int) string {
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"text":"I am sorry, attempt %d did not go through, shall I try again?"}},"tool_result":{"ok":true,"data":"Customer reply number %d: please just change the flight"}`, k, k)
	}
	storm := newRun("apologies")
	for k := range 4 {
		storm.add(book).add(talk(k))
	}
	res := one(t, detect.DefaultPolicy(), storm.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Fatalf("the same booking failing between apologies: %v %v onset %d %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
	// Not "in a row": the timeline shows the apologies between the failures.
	if !slices.ContainsFunc(res.Findings, func(f detect.Finding) bool {
		return f.Detector == "RA301" && strings.HasPrefix(f.Message, "4 failed calls (4 ERROR) with 3 other call(s) between them, steps 0-6")
	}) {
		t.Errorf("the storm's message does not count the calls between its failures: %+v", res.Findings)
	}

	// Lookups that found something, each try then changed by what they
	// found: the agent is learning, not retrying.
	looked := newRun("lookups")
	for k := range 4 {
		looked.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"update_reservation_flights","args":{"reservation_id":"XEWRD9","flights":["HAT%03d","HAT052"]}},"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: flight HAT%03d not available on date 2024-05-%02d"}`, 99+k, 99+k, 12+k)).add(talk(k))
		looked.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"search_direct_flight","args":{"date":"2024-05-%02d"}},"tool_result":{"ok":true,"data":"[{\"flight_number\":\"HAT%03d\",\"status\":\"available\"}]"}`, 13+k, 100+k))
		looked.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"get_flight_status","args":{"flight":"HAT%03d"}},"tool_result":{"ok":true,"data":"HAT%03d on time, gate B%d"}`, 100+k, 100+k, k))
	}
	if res := one(t, detect.DefaultPolicy(), looked.text()); res.Verdict == detect.Runaway {
		t.Errorf("lookups that found something between the tries: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}

	differently := newRun("differently")
	for k, e := range []string{"flight HAT030 not available", "payment method not found", "cabin class not allowed", "passenger count mismatch"} {
		differently.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"update_reservation_flights","args":{"reservation_id":"XEWRD9","try":%d}},"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: %s"}`, k, e))
		differently.add(talk(k))
	}
	if res := one(t, detect.DefaultPolicy(), differently.text()); res.Verdict == detect.Runaway {
		t.Errorf("a booking failing differently each time: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
}

// The same sentence said to a customer again and again is a loop however
// the customer answers: each reply in new words does not make the repeat
// new. The same closing question after each finished request, with the
// work in between, is no loop; nor is an agent of a group chat repeating
// a canned sentence between the other agents' new turns.
func TestSameTurnAgainIsNoNewAnswer(t *testing.T) {
	say := func(text string, k int) string {
		return fmt.Sprintf(`"state":"ACT","intent":"user","tool_call":{"name":"message","args":{"text":%q}},"tool_result":{"ok":true,"data":"Customer reply %d: I already said yes, please book the %d flights now"}`, text, k, k+2)
	}
	stuck := newRun("rephrase")
	for k := range 6 {
		stuck.add(say("I'm sorry, could you rephrase that?", k))
	}
	res := one(t, detect.DefaultPolicy(), stuck.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 0 {
		t.Fatalf("the same sentence six times, answered in new words: %v %v onset %d %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}

	served := newRun("served")
	for k := range 6 {
		served.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"cancel_reservation","args":{"reservation_id":"R%d"}},"tool_result":{"ok":true,"data":"{\"reservation_id\":\"R%d\",\"status\":\"cancelled\"}"}`, k, k))
		served.add(say("Is there anything else I can help you with?", k))
	}
	served.add(`"state":"STOP"`)
	if res := one(t, detect.DefaultPolicy(), served.text()); res.Verdict != detect.Healthy {
		t.Errorf("a closing question after each finished request: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}

	canned := `"state":"ACT","tool_call":{"name":"message","args":{"from":"Computer_terminal","text":"There is no code from the last 1 message for me to execute."}},"tool_result":{"ok":true,"data":"%s"}`
	group := newRun("group")
	for k := range 6 {
		turn := fmt.Sprintf("Expert %d: finding number %d is that the %d-th source gives %d.", k, k, k, 100+7*k)
		group.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Expert","text":%q}},"tool_result":{"ok":true,"data":"There is no code from the last 1 message for me to execute."}`, turn))
		group.add(fmt.Sprintf(canned, fmt.Sprintf("Expert %d: next finding", k+1)))
	}
	if res := one(t, detect.DefaultPolicy(), group.text()); res.Verdict == detect.Runaway {
		t.Errorf("an executor's canned sentence between the experts' new turns: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
}

// The same replacement sent again word for word cannot have landed each
// time: after the first, the text it replaces is gone. Without its output,
// it is still one change tried again and again (error-storm); the same
// file written whole again is the same call retried (tool-retry-loop).
func TestSameEditAgainIsAnErrorStorm(t *testing.T) {
	edit := newRun("edit").repeat(4, `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"lib/axes.py","old_str":"if labels is None:","new_str":"if labels is None and kwargs:"}},"tool_result":{"ok":true}`)
	if res := one(t, detect.DefaultPolicy(), edit.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Errorf("one replacement sent four times: %v %v %v", res.Verdict, res.RootCause, res.Signals)
	}
	write := newRun("write").repeat(4, `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"create","path":"repro.py","file_text":"print(1)"}},"tool_result":{"ok":true,"data":"File created successfully at: repro.py"}`)
	if res := one(t, detect.DefaultPolicy(), write.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop {
		t.Errorf("one file written whole four times: %v %v %v", res.Verdict, res.RootCause, res.Signals)
	}
}

// One of the run's agents handing another the same instruction again and
// again is the team re-planning (the rubric's orchestrator "telling a worker
// the same thing over and over"), also when nothing else in the log shows
// a round trip through PLAN: its outputs were not logged.
func TestSameInstructionAgainIsReplanning(t *testing.T) {
	r := newRun("team")
	r.repeat(4, `"state":"PLAN","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","text":"Review the code of main.py: it lacks import tkinter."}},"tool_result":{"ok":true,"data":"Programmer: main.py now imports tkinter."}`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 0 {
		t.Fatalf("the same instruction handed out four times: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, res.Signals)
	}
}

// Failures whose output was not logged, known only from the agent's next
// words: different edits each said to have failed are an agent trying
// things (SAID_FAILED says no more than an exit code); the agent saying
// each time that the failure came back ("the error persists") is its own
// account of one failure retried, a storm.
func TestSaidFailuresComeBackOnlyWhenSaidSo(t *testing.T) {
	edits := []string{"add a ThemeContext provider around App", "type the toggle handler as React.MouseEvent", "move the dark class onto the body element",
		"drop the useEffect that reads localStorage", "rename the state hook to isDark and export it"}
	fail := func(k int, intent, errType, said string) string {
		return fmt.Sprintf(`"state":"ACT",%s"tool_call":{"name":"run_ipython","args":{"code":"edit_file('src/App.tsx', '%s')"}},"tool_result":{"ok":false,"error_type":%q,"reason":%q}`, intent, edits[k], errType, said)
	}
	again := []string{"I apologize for the persistent errors.", "I apologize for the continued errors.", "The error persists.", "I apologize for the continued errors.", "Still the same error."}
	failed := []string{"The edit failed on an import.", "That did not work: a type error.", "The build failed on a lint rule.", "It timed out.", "There is an issue with the JSX."}
	for _, c := range []struct {
		intent  string
		errType string
		said    []string
		want    detect.Verdict
	}{
		{``, "SAID_FAILED_AGAIN", again, detect.Runaway},
		{``, "SAID_FAILED", failed, detect.Healthy},
		// One goal failing with one specific error type is one failure;
		// SAID_FAILED names none.
		{`"intent":"edit",`, "SAID_FAILED", failed, detect.Healthy},
	} {
		r := newRun(c.errType)
		r.add(`"state":"ACT","tool_call":{"name":"open_file","args":{"path":"src/App.tsx"}},"tool_result":{"ok":true,"data":"export default App"}`)
		for k, s := range c.said {
			r.add(fail(k, c.intent, c.errType, s))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1)) {
			t.Errorf("%s %s: %v %v onset %d, want %v", c.intent, c.errType, res.Verdict, res.RootCause, res.OnsetStep, c.want)
		}
	}
}

// The very same call failing three times with the agent thinking between
// is runaway at the suspicious count when the failures show they are one
// error (sameErrorActedBetween). With the output not logged, the agent's
// words that the failure came back ("The error persists", "The repeated
// error") show it; failures it only said had failed do not.
func TestSameCallSaidToFailAgainIsRunaway(t *testing.T) {
	book := `"state":"ACT","tool_call":{"name":"book_reservation","args":{"user_id":"mia_42","flights":"HAT045","payment":"credit_card_7","amount":1625}},"tool_result":{"ok":false,"error_type":%q,"reason":%q}`
	think := `"state":"PLAN","decision":{"reason":"I need to verify the flight segments and the total price."}`
	for _, c := range []struct {
		errTypes []string
		want     detect.Verdict
	}{
		{[]string{"SAID_FAILED", "SAID_FAILED_AGAIN", "SAID_FAILED_AGAIN"}, detect.Runaway},
		{[]string{"SAID_FAILED", "SAID_FAILED", "SAID_FAILED"}, detect.Suspicious},
		{[]string{"SAID_FAILED", "SAID_FAILED_AGAIN", "SAID_FAILED"}, detect.Suspicious},
	} {
		r := newRun(strings.Join(c.errTypes, "-"))
		r.add(`"state":"ACT","tool_call":{"name":"get_reservation_details","args":{"reservation_id":"K1NW8N"}},"tool_result":{"ok":true,"data":"reservation K1NW8N"}`)
		for _, e := range c.errTypes {
			r.add(fmt.Sprintf(book, e, "the agent's next words"))
			r.add(think)
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1 {
			t.Errorf("%v: %v %v onset %d, want %v error-storm at 1", c.errTypes, res.Verdict, res.RootCause, res.OnsetStep, c.want)
		}
	}
}

// A long streak of failures whose first ones differ and whose last ones
// come back (three different exceptions, then the same rejected edit and
// the same syntax error alternating) is an error storm from where the
// failures start to repeat, though the streak taken whole has more
// distinct failures than half its length. Eight failures in a row that
// all differ are an agent fixing one error after another.
func TestRepeatingFailuresInsideALongerStreak(t *testing.T) {
	patch := func(k int) string {
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python patch_http_date_%d.py"}}`, k)
	}
	syntax := func(line int, what string) string {
		return fmt.Sprintf(`"tool_result":{"ok":false,"error_type":"SyntaxError","data":"  File \"<stdin>\", line %d\n    %s\n    ^\nSyntaxError: invalid syntax"}`, line, what)
	}
	rejected := `"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":"anchor not found"}`
	r := newRun("repeats-at-the-end")
	other := func(errType, msg string) string {
		return fmt.Sprintf(`"tool_result":{"ok":false,"error_type":"%s","data":"Traceback (most recent call last):\n  File \"patch.py\", line 3, in <module>\n%s: %s"}`, errType, errType, msg)
	}
	for k, res := range []string{
		other("NameError", "name 'RFC850_DATE' is not defined"),
		other("ImportError", "cannot import name 'parsedate_tz'"),
		other("TypeError", "can only concatenate str (not int) to str"),
		rejected, syntax(12, "cmd = open(p).read("), rejected, syntax(12, "cmd = open(p).read("),
	} {
		r.add(patch(k) + "," + res)
	}
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 3 {
		t.Fatalf("repeating failures after different ones: %v %v onset %d %+v; want runaway error-storm from step 3", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}

	h := newRun("each-failure-new")
	for k, e := range []string{"NameError: name 'tz' is not defined", "ImportError: cannot import name 'utc'", "TypeError: unsupported operand", "AttributeError: 'date' object has no attribute 'hour'",
		"ValueError: year 0 is out of range", "KeyError: 'month'", "AssertionError: 1994 != 2094", "ZeroDivisionError: division by zero"} {
		h.add(patch(k) + fmt.Sprintf(`,"tool_result":{"ok":false,"error_type":"%s","data":"Traceback (most recent call last):\n  File \"repro.py\", line %d, in <module>\n%s"}`, strings.SplitN(e, ":", 2)[0], 10+k, e))
	}
	h.add(`"state":"STOP"`)
	if res := one(t, detect.DefaultPolicy(), h.text()); res.Verdict == detect.Runaway {
		t.Errorf("eight different failures in a row: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
}

// A finish is a call of the finish tool; a turn that ends in text is one
// only after the agent has called it: text turns before it (a plan, a
// result told) are a model thinking aloud, the same turns after it the
// agent saying it is done again.
func TestFinishesAreCallsOrTextAfterOne(t *testing.T) {
	thinking := newRun("thinking")
	for k := range 5 {
		thinking.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python bench.py --case %d"}},"tool_result":{"ok":true,"data":"case %d: 41.%d ms"}`, k, k, k))
		thinking.add(fmt.Sprintf(`"state":"STOP","decision":{"reason":"Case %d measured; next case."}`, k))
	}
	thinking.add(`"state":"STOP","tool_call":{"name":"task_done","args":{"message":"done"}},"tool_result":{"ok":true,"data":"done"}`)
	if res := one(t, detect.DefaultPolicy(), thinking.text()); slices.Contains(res.Signals, detect.RepeatedFinish.Slug) {
		t.Fatalf("text turns before the one finish call are no finishes: %v %+v", res.Verdict, res.Findings)
	}
	again := newRun("again")
	again.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"git commit -qam opt"}},"tool_result":{"ok":true,"data":""}`)
	again.add(`"state":"STOP","tool_call":{"name":"task_done","args":{"message":"Optimised the scheduler."}},"tool_result":{"ok":true,"data":"Optimised the scheduler."}`)
	for k := range 3 {
		again.add(fmt.Sprintf(`"state":"STOP","decision":{"reason":"All %d optimisations are committed. Using task_done."}`, 5+k))
	}
	res := one(t, detect.DefaultPolicy(), again.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != 1 || res.RootCause != detect.CauseReplanLoop || !slices.Contains(res.Signals, detect.RepeatedFinish.Slug) {
		t.Fatalf("a finish call and three closing turns after it: %v onset %d %v", res.Verdict, res.OnsetStep, res.Signals)
	}
}

// Finishes that are mostly the agent's closing words, without the finish
// call, and that only with those words reach the loop's count, are the
// agent restating its conclusion instead of acting on it: a re-planning
// loop, begun with the first saying (the finish call before it was
// answered with work: an edit, a commit). Finish calls refused often
// enough to be the loop alone stay the finish retried.
func TestFinishesSaidInWords(t *testing.T) {
	said := func(id string, calls int) string {
		r := newRun(id)
		r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"git commit -qam opt"}},"tool_result":{"ok":true,"data":""}`)
		for k := range calls {
			r.add(fmt.Sprintf(`"state":"STOP","tool_call":{"name":"task_done","args":{"message":"Optimised the scheduler (%d)."}},"tool_result":{"ok":true,"data":"Task completion was not accepted: the patch is empty."}`, k))
		}
		r.add(`"state":"ACT","tool_call":{"name":"str_replace_based_edit_tool","args":{"command":"str_replace","path":"scheduler.py","old_str":"torch.zeros(n)","new_str":"torch.empty(n)"}},"tool_result":{"ok":true,"data":"edited"}`)
		r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"git commit -qam more"}},"tool_result":{"ok":true,"data":""}`)
		for k := range 4 {
			r.add(fmt.Sprintf(`"state":"STOP","decision":{"reason":"Using task_done. All %d optimisations are committed."}`, 5+k))
		}
		return r.text()
	}
	res := one(t, detect.DefaultPolicy(), said("said", 1))
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 4 {
		t.Errorf("one finish call, then work, then four closing turns: %v %v onset %d %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
	res = one(t, detect.DefaultPolicy(), said("called", 4))
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 1 {
		t.Errorf("four finish calls refused, then four closing turns: %v %v onset %d %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// A finish the harness refuses is a failed call, and the same finish
// refused again and again is a storm of failures in a row; it is the
// finish retried, the repeated finish, from the first finish on, and not
// an error storm beginning where the refusals came closest together.
func TestRefusedFinishesAreTheFinishRetried(t *testing.T) {
	r := newRun("refused")
	for k := range 3 {
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python bench.py --n %d"}},"tool_result":{"ok":true,"data":"time %d ms"}`, k, 90-k))
	}
	refused := func(k int) {
		r.add(fmt.Sprintf(`"state":"STOP","tool_call":{"name":"task_done","args":{"message":"Optimised the scheduler (%d)."}},"tool_result":{"ok":false,"error_type":"REJECTED","data":"ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}`, k))
	}
	refused(0)
	r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"git diff --stat"}},"tool_result":{"ok":true,"data":" scheduler.py | 4 ++--"}`)
	refused(1)
	r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"wc -l model_patch.diff"}},"tool_result":{"ok":true,"data":"90 model_patch.diff"}`)
	for k := range 6 {
		refused(2 + k)
	}
	r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"ls -la model_patch.diff"}},"tool_result":{"ok":true,"data":"-rw-r--r-- 1 u u 3828 model_patch.diff"}`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 3 || res.Findings[0].Detector != detect.RepeatedFinish.ID {
		t.Errorf("a finish refused eight times: %v %v onset %d %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// An agent that finished and keeps calling tools past it is working past
// its own finish: once it has finished twice, a stretch as long as the
// no-progress limit after the first finish is a runaway. One finish and
// calls after it are what a harness that reviews a finish asks for
// (SWE-agent: remove the reproduction script, submit again).
func TestCallsAfterTheFinish(t *testing.T) {
	run := func(id string, finishes, calls int) string {
		r := newRun(id)
		for f := range finishes {
			r.add(`"state":"STOP","tool_call":{"name":"task_done","args":{"message":"done"}},"tool_result":{"ok":true,"data":"done"}`)
			for k := range calls / finishes {
				r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"wc -c model_patch.diff # %d %d"}},"tool_result":{"ok":true,"data":"%d model_patch.diff"}`, f, k, 5000+k))
			}
		}
		return r.text()
	}
	for _, c := range []struct {
		name            string
		finishes, calls int
		flagged         bool
	}{
		{"review after one finish", 1, 20, false},
		{"a few calls between two finishes", 2, 6, false},
		{"twenty calls across two finishes", 2, 20, true},
	} {
		res := one(t, detect.DefaultPolicy(), run(c.name, c.finishes, c.calls))
		got := res.Verdict == detect.Runaway && res.OnsetStep == 0 && slices.Contains(res.Signals, detect.RepeatedFinish.Slug)
		if got != c.flagged || (!c.flagged && slices.Contains(res.Signals, detect.RepeatedFinish.Slug)) {
			t.Errorf("%s: %v onset %d %v", c.name, res.Verdict, res.OnsetStep, res.Signals)
		}
	}
}

// One change put in again and again through different means, each time
// refused or leaving the file broken in another way (the text to replace
// not found, the shell tripping on the quoting, the file no longer
// compiling), is one change retried: an error storm from its first try,
// though no failure repeats. Edits that applied and whose check then
// failed are experiments, and reading the code between two tries (more
// than one new answer) is the agent learning: neither is flagged. Read
// without its output, an edit that ran nothing else and failed did not
// land (EDIT_FAILED, the adapters' reading of its exit code) and counts
// the same way; an edit whose command also ran a check (EXIT_CODE) may
// have landed and failed the check.
func TestOneChangeRetriedThroughDifferentFailures(t *testing.T) {
	edit := func(cmd, errType, data string) string {
		return `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"` + cmd + `"}},"tool_result":{"ok":false,"error_type":"` + errType + `","data":"` + data + `"}`
	}
	tries := []string{
		edit(`code_replace('inspect.py', 'try:', 'if isinstance(obj, enum.Enum):')`, "EDIT_REJECTED", `Error: Code to replace not found in file`),
		edit(`sed -i \"/try:/i if isinstance(obj, enum.Enum):\" inspect.py && python -c \"import inspect\"`, "SHELL_SYNTAX_ERROR", `bash: -c: line 1: syntax error near unexpected token (`),
		edit(`perl -0pi -e 's/try:/if isinstance(obj, enum.Enum):\\n    try:/' inspect.py`, "IndentationError", `File inspect.py, line 430\nIndentationError: expected an indented block`),
		edit(`python - <<'PY'\nfrom pathlib import Path\np = Path('inspect.py')\np.write_text(p.read_text().replace('try:', 'if enum:'))\nPY`, "SyntaxError", `File inspect.py, line 431\nSyntaxError: invalid syntax`),
	}
	got := []string{"<MyEnum.A: 10>", "MyEnum.A", "'A'", "enum member A of MyEnum"}
	applied := func(k int) string {
		return `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"python fix` + strconv.Itoa(k) + `.py && python repro.py"}},"tool_result":{"ok":false,"error_type":"AssertionError","data":"patched\nAssertionError: got ` + got[k] + `"}`
	}
	textless := func(k int, errType, check string) string {
		return `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"sed -i 's/try` + strconv.Itoa(k) + `:/if enum:/' inspect.py` + check + `"}},"tool_result":{"ok":false,"error_type":"` + errType + `"}`
	}
	view := func(n int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"sed -n ` + strconv.Itoa(n) + `,+20p inspect.py"}},"tool_result":{"ok":true,"data":"line ` + strconv.Itoa(n) + ` of object_description"}`
	}
	for _, c := range []struct {
		name string
		run  func(r *runBuilder)
		want detect.Verdict
	}{
		{"four edits that failed, output not logged", func(r *runBuilder) {
			for k := range 4 {
				r.add(textless(k, "EDIT_FAILED", ""))
			}
		}, detect.Runaway},
		{"four edits whose checks failed, output not logged", func(r *runBuilder) {
			for k := range 4 {
				r.add(textless(k, "EXIT_CODE", " && python repro.py"))
			}
		}, detect.Healthy},
		{"reading the code between failed edits, output not logged", func(r *runBuilder) {
			for k := range 4 {
				r.add(textless(k, "EDIT_FAILED", ""))
				r.add(view(100 * (2*k + 1)))
				r.add(view(100 * (2*k + 2)))
			}
		}, detect.Healthy},
		{"one change, four different failures", func(r *runBuilder) {
			for k, s := range tries {
				r.add(s)
				if k == 1 {
					r.add(view(420)) // one look between two tries
				}
			}
		}, detect.Runaway},
		{"edits that applied, checks that failed", func(r *runBuilder) {
			for k := range 4 {
				r.add(applied(k))
			}
		}, detect.Healthy},
		{"reading the code between the tries", func(r *runBuilder) {
			for k, s := range tries {
				r.add(s)
				r.add(view(100 * (2*k + 1)))
				r.add(view(100 * (2*k + 2)))
			}
		}, detect.Healthy},
	} {
		r := newRun(c.name)
		r.add(view(1))
		c.run(r)
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// The same failure raised in a file no edit between its returns changed is
// a failure the edits do not reach: an agent rewriting its reproduction
// script again and again, each run stopped by the same settings error
// inside the framework, is stuck, whatever it changes in the script. An
// edit of the file the failure is raised in makes the next return another
// experiment's answer; a failure raised in the agent's own check (an
// assertion in the script it wrote) after a change to the code is an
// experiment; and work spreading over several files of the code between
// two returns is the agent moving on, while a new script written whole
// before each run (check_1.py, check_2.py, ...) is the script rewritten
// under another name.
func TestAFailureTheEditsDoNotReach(t *testing.T) {
	setupError := `{"ok":false,"error_type":"EXCEPTION","data":"Traceback (most recent call last):\n  File \"reproduce.py\", line 8, in <module>\n    django.setup()\n  File \"/testbed/django/conf/__init__.py\", line 161, in __getattr__\n    raise ImproperlyConfigured(\"The SECRET_KEY setting must not be empty.\")\ndjango.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty."}`
	assertion := `{"ok":false,"error_type":"AssertionError","data":"Traceback (most recent call last):\n  File \"/testbed/reproduce.py\", line 12, in <module>\n    assert out == 'A', out\nAssertionError: <Enum.A: 1>"}`
	edit := func(path, text string) string {
		if !strings.HasSuffix(path, "reproduce.py") && !strings.Contains(path, "/check_") {
			// A file of the code is changed in place.
			return `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"` + path + `","old_str":"x","new_str":"` + text + `"}},"tool_result":{"ok":true,"data":"The file ` + path + ` has been edited: ` + text + `"}`
		}
		return `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"create","path":"` + path + `","file_text":"` + text + `"}},"tool_result":{"ok":true,"data":"File created successfully at: ` + path + ` with ` + text + `"}`
	}
	run := func(result string) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"cd /testbed && python reproduce.py"}},"tool_result":` + result
	}
	for _, c := range []struct {
		name  string
		files func(k int) []string // the files edited before the k-th run
		res   string
		want  detect.Verdict
	}{
		{"the script rewritten", func(k int) []string { return []string{"/testbed/reproduce.py"} }, setupError, detect.Runaway},
		{"the failing file changed", func(k int) []string { return []string{"/testbed/django/conf/__init__.py"} }, setupError, detect.Healthy},
		{"the agent's own assertion", func(k int) []string { return []string{"/testbed/django/db/models/enums.py"} }, assertion, detect.Healthy},
		{"work over several files", func(k int) []string {
			return []string{"/testbed/django/db/models/base.py", "/testbed/django/db/models/query.py", "/testbed/tests/test_" + strconv.Itoa(k) + ".py"}
		}, setupError, detect.Healthy},
		{"a new script each time, and a file of the code", func(k int) []string {
			return []string{"/testbed/check_" + strconv.Itoa(k) + ".py", "/testbed/django/db/models/base.py", "/testbed/check_" + strconv.Itoa(k) + "b.py"}
		}, setupError, detect.Runaway},
	} {
		r := newRun(c.name)
		r.add(edit("/testbed/reproduce.py", "import django"))
		for k := range 5 {
			if k > 0 {
				for n, f := range c.files(k) {
					r.add(edit(f, "version "+strconv.Itoa(10*k+n)))
				}
			}
			r.add(run(c.res))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// The same error back three times with the agent reading between is a
// storm at the rubric's lower bound; three in a row with nothing between is
// not yet. A later loop that is runaway by its own threshold names the root
// cause before such a storm.
func TestSameFailureThreeTimesWithActionsBetween(t *testing.T) {
	refused := `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"code_replace app.py %d"}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":"Error: Code to replace not found in file"}`
	read := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"sed -n '%d,40p' app.py"}},"tool_result":{"ok":true,"data":"line %d of app.py"}`
	between := newRun("between")
	for k := range 3 {
		between.add(fmt.Sprintf(refused, k))
		between.add(fmt.Sprintf(read, 10+k, 10+k))
	}
	res := one(t, detect.DefaultPolicy(), between.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Fatalf("three refusals with reads between: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	// Three failures in a row before it (a count that is only suspicious)
	// do not hide it: of the storms, the one at the worst severity is the
	// run's, with its onset.
	burstFirst := newRun("burst-first")
	for k := range 3 {
		burstFirst.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"probe %d"}},"tool_result":{"ok":false,"error_type":"TIMEOUT","data":"timed out after 30 s"}`, k))
	}
	burstFirst.add(fmt.Sprintf(read, 1, 1))
	burstFirst.add(fmt.Sprintf(read, 2, 2))
	for k := range 3 {
		burstFirst.add(fmt.Sprintf(refused, k))
		burstFirst.add(fmt.Sprintf(read, 10+k, 10+k))
	}
	if res := one(t, detect.DefaultPolicy(), burstFirst.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 5 {
		t.Fatalf("a suspicious burst, then three refusals with reads between: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	// Three refusals of three different old texts, each after a look at
	// the file: three attempts, not the same error back.
	attempts := newRun("attempts")
	for k, old := range []string{"subtotal += line.amount", "return self.tax(subtotal)", "def total(self, lines):"} {
		attempts.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/repo/app.py","old_str":%q}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":"No replacement was performed, old_str `+"`%s`"+` did not appear verbatim in /repo/app.py."}`, old, old))
		attempts.add(fmt.Sprintf(read, 10+k, 10+k))
	}
	if res := one(t, detect.DefaultPolicy(), attempts.text()); res.Verdict == detect.Runaway {
		t.Fatalf("three different refused edits: %v %v", res.Verdict, res.RootCause)
	}
	// Three checks failing by their exit code alone, the output not
	// logged: nothing shows it was one error. (Edits refused without
	// output are: TestSilentRejectedEditsComeBack.)
	silent := newRun("silent")
	for k := range 3 {
		silent.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -m pytest tests/test_app_%d.py"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE"}`, k))
		silent.add(fmt.Sprintf(read, 10+k, 10+k))
	}
	if res := one(t, detect.DefaultPolicy(), silent.text()); res.Verdict == detect.Runaway {
		t.Fatalf("three refusals without output: %v %v", res.Verdict, res.RootCause)
	}
	// The very same booking, thought over between the tries, failing the
	// same way: the agent reconsidered and changed nothing.
	rethought := newRun("rethought")
	for range 3 {
		rethought.add(`"state":"ACT","tool_call":{"name":"book_reservation","args":{"flight":"HAT136","paid":1625}},"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: total price is 4875, but paid 1625"}`)
		rethought.add(`"state":"PLAN","decision":{"reason":"The payment seems off; let me try the booking again."}`)
	}
	if res := one(t, detect.DefaultPolicy(), rethought.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("the same booking failing three times, thought over between: %v %v", res.Verdict, res.RootCause)
	}
	// The same program run three times by a team of agents, failing the
	// same way, its agents talking it over between the runs and changing
	// nothing: the team reconsidered, as one agent thinking does. Talk to
	// the user between the same three runs is no deliberation of the run's.
	team := newRun("team")
	user := newRun("user")
	run := `"state":"ACT","tool_call":{"name":"run_software","args":{"program":"main.py"}},"tool_result":{"ok":false,"error_type":"ERROR","data":"An error occurred: module 'os' has no attribute 'setsid'"}`
	for k := range 3 {
		team.add(run)
		team.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Programmer","to":"Software Test Engineer","text":"Summary %d: the os call fails; guard it."}},"tool_result":{"ok":true,"data":"<INFO> Finished"}`, k))
		user.add(run)
		user.add(fmt.Sprintf(`"state":"ACT","intent":"user","tool_call":{"name":"message","args":{"text":"The run failed again (%d); shall I retry?"}},"tool_result":{"ok":true,"data":"yes, retry"}`, k))
	}
	if res := one(t, detect.DefaultPolicy(), team.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Fatalf("the same run failing three times, a team talking between: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	if res := one(t, detect.DefaultPolicy(), user.text()); res.Verdict == detect.Runaway {
		t.Fatalf("the same run failing three times, the user asked between: %v %v", res.Verdict, res.RootCause)
	}
	inARow := newRun("in-a-row")
	for k := range 3 {
		inARow.add(fmt.Sprintf(refused, k))
	}
	if res := one(t, detect.DefaultPolicy(), inARow.text()); res.Verdict != detect.Suspicious {
		t.Fatalf("three refusals in a row: %v %v", res.Verdict, res.RootCause)
	}
	// Then the same check, five times, the same answer: the retry loop is
	// runaway by its own count and explains the run.
	later := newRun("later")
	later.lines = append(later.lines, between.lines...)
	for range 6 {
		later.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"git diff --stat"}},"tool_result":{"ok":true,"data":" app.py | 2 +-"}`)
	}
	for k := range later.lines {
		later.lines[k] = strings.Replace(later.lines[k], `"run_id":"between"`, `"run_id":"later"`, 1)
	}
	res = one(t, detect.DefaultPolicy(), later.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 6 {
		t.Fatalf("a retry loop after the short storm: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// A stretch of reads that opens with searches finding nothing, each a
// different one, pages through a file, reads around, then pages through
// the file again: the onset is the first page read again, not the first
// empty search (two searches that found nothing did not give the same
// answer).
func TestLookOnlyOnsetIsTheFirstReadThatComesBack(t *testing.T) {
	r := newRun("reread")
	for _, q := range []string{"VLA", "varlen"} {
		r.add(`"state":"ACT","intent":"search","tool_call":{"name":"bash","args":{"command":"grep -n '` + q + `' astropy/io/fits/diff.py"}},"tool_result":{"ok":true,"data":""}`)
	}
	view := func(path string, n int) string {
		return `"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"command":"view","path":"/repo/astropy/` + path + `","view_range":[` + strconv.Itoa(1200+50*n) + `,` + strconv.Itoa(1250+50*n) + `]}},"tool_result":{"ok":true,"data":"` + path + strconv.Itoa(1200+50*n) + ` ` + strings.Repeat("col"+strconv.Itoa(n)+" ", 12) + `"}`
	}
	for n := range 12 {
		r.add(view("io/fits/diff.py", n))
	}
	for n := range 6 {
		r.add(view("utils/diff.py", n))
	}
	for n := range 12 {
		r.add(view("io/fits/diff.py", n))
	}
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 2 {
		t.Fatalf("got %v %v onset %d %v, want runaway from the first page read again (step 2)", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// One agent of a team handing another the same instruction again, word for
// word (a reviewer asked to review code that has not changed), is answered
// alike whatever the reply says, as a turn to the user said again is: the
// replies between changed nothing the instruction carries. A new
// instruction each time (the code changed) is work going on.
func TestSameInstructionAgainIsTheSameAnswer(t *testing.T) {
	review := `"state":"PLAN","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","phase":"CodeReviewComment","text":"Review these codes: %s"}},"tool_result":{"ok":true,"data":"%s"}`
	modify := `"state":"PLAN","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","phase":"CodeReviewModification","text":"Modify the codes after comment %d"}},"tool_result":{"ok":true,"data":"main.py: def fetch(): return requests.get(URL)%s"}`
	comments := []string{"The import of requests is missing.", "Please add the missing requests import.", "requests must be imported first.", "The code does not import requests.", "Import requests at the top."}
	same := newRun("same")
	changed := newRun("changed")
	for k, c := range comments {
		same.add(fmt.Sprintf(review, "def fetch(): return requests.get(URL)", c))
		same.add(fmt.Sprintf(modify, k, ""))
		changed.add(fmt.Sprintf(review, fmt.Sprintf("def fetch(): return requests.get(URL, timeout=%d)", 5+k), c))
		changed.add(fmt.Sprintf(modify, k, fmt.Sprintf(" # timeout %d", 5+k)))
	}
	if res := one(t, detect.DefaultPolicy(), same.text()); res.Verdict != detect.Runaway || res.OnsetStep != 0 {
		t.Errorf("the same review asked for five times: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
	if res := one(t, detect.DefaultPolicy(), changed.text()); res.Verdict == detect.Runaway {
		t.Errorf("a review of changed code each time: %v %v %v", res.Verdict, res.RootCause, detectors(res))
	}
	// The programmer answers each comment with other code that is never
	// written, so the review comes back word for word: what came back
	// between changed nothing the instruction carries.
	proposed := newRun("proposed")
	for k, c := range comments {
		proposed.add(fmt.Sprintf(review, "def fetch(): return requests.get(URL)", c))
		proposed.add(fmt.Sprintf(modify, k, fmt.Sprintf(" # proposal %d: import requests", k)))
	}
	if res := one(t, detect.DefaultPolicy(), proposed.text()); res.Verdict != detect.Runaway || res.OnsetStep != 0 {
		t.Errorf("the same review asked for five times, new code proposed between: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// A team's turns repeated around the same failing run of the program are
// that error storm's cycles: the turns fail in none of their own calls,
// the calls between them mostly do.
func TestTurnsAroundAStormAreTheStorm(t *testing.T) {
	r := newRun("cycles")
	for k := range 4 {
		r.add(`"state":"PLAN","tool_call":{"name":"message","args":{"from":"Software Test Engineer","to":"Programmer","phase":"TestModification","text":"Fix the codes so that they run: main.py calls os.setsid."}},"tool_result":{"ok":true,"data":"` + fmt.Sprintf("Fixed (%d): guarded the os call.", k) + `"}`)
		r.add(`"state":"ACT","tool_call":{"name":"run_software","args":{"program":"main.py"}},"tool_result":{"ok":false,"error_type":"ERROR","data":"An error occurred: module 'os' has no attribute 'setsid'"}`)
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Errorf("test cycles failing the same way: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// A shell that answers nothing to whatever it is asked (NO_OUTPUT, the
// adapters' reading of an echo that printed nothing) is asked again by
// every command sent to it: different commands into it are one storm, of
// probes that come back with nothing, an empty-result loop.
// Different commands that each exit non-zero, no output logged, are an
// agent trying things.
func TestNoOutputFromEveryCommandIsAStorm(t *testing.T) {
	cmds := []string{"./wrapper.sh --status", "./wrapper.sh --agents", `echo \"Test output\"`, "pwd && ls", "bash -n wrapper.sh"}
	lost, exits := newRun("lost"), newRun("exits")
	for _, c := range cmds {
		lost.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"Bash","args":{"command":"%s"}},"tool_result":{"ok":false,"error_type":"NO_OUTPUT"}`, c))
		exits.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"Bash","args":{"command":"%s"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE"}`, c))
	}
	if res := one(t, detect.DefaultPolicy(), lost.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != 0 {
		t.Fatalf("five commands into a shell that answers nothing: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	if res := one(t, detect.DefaultPolicy(), exits.text()); res.Verdict == detect.Runaway {
		t.Fatalf("five different commands each exiting non-zero: %v %v", res.Verdict, res.RootCause)
	}
	// Three empty searches earlier (suspicious) do not take the storm's
	// place: it stays the run's loop, with its onset.
	searchedFirst := newRun("searched-first")
	for k, q := range []string{"register_agents", "agents_dir", "AGENT_ROOT"} {
		searchedFirst.add(fmt.Sprintf(`"state":"ACT","intent":"search","tool_call":{"name":"Grep","args":{"pattern":"%s %d"}},"tool_result":{"ok":true,"empty":true}`, q, k))
	}
	searchedFirst.add(`"state":"ACT","tool_call":{"name":"Read","args":{"file_path":"wrapper.sh"}},"tool_result":{"ok":true,"data":"#!/bin/bash\nmain() { register; }"}`)
	for _, c := range cmds {
		searchedFirst.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"Bash","args":{"command":"%s"}},"tool_result":{"ok":false,"error_type":"NO_OUTPUT"}`, c))
	}
	if res := one(t, detect.DefaultPolicy(), searchedFirst.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != 4 {
		t.Fatalf("empty searches, then five commands into a shell that answers nothing: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	// Edits that answer nothing are no lookups: scripts rewriting one line
	// again and again, their output lost each time, are edits failing
	// silently, an error storm.
	edits := newRun("silent-edits")
	for k := range 5 {
		edits.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"python3 fix_%d.py"}},"tool_result":{"ok":false,"error_type":"NO_OUTPUT"}`, k))
	}
	if res := one(t, detect.DefaultPolicy(), edits.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Fatalf("five edits whose output was lost: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
}

// Turns of words the harness refused for want of an action (PLAN steps
// failed with FORMAT_ERROR: a refusal or a plan restated at each of its
// prompts to act) are the agent restating itself, a re-planning loop; the
// same storm of turns that wrote a call the harness could not read (ACT)
// stays an error storm.
func TestAStormOfWordsWithoutActionIsReplanning(t *testing.T) {
	words, malformed := newRun("words"), newRun("malformed")
	for k, w := range []string{"I can't help with that.", "I can't assist with this task.", "I cannot do this.", "I won't post that.", "I can't help with that request."} {
		words.add(fmt.Sprintf(`"state":"PLAN","decision":{"reason":%q},"tool_call":{"name":"format_error","args":{"invalid":"no action the harness could read"}},"tool_result":{"ok":false,"error_type":"FORMAT_ERROR","data":"Please proceed to the next step using your best judgement."}`, w))
		malformed.add(fmt.Sprintf(`"state":"ACT","decision":{"reason":"Action: post(%d"},"tool_call":{"name":"format_error","args":{"invalid":"no action the harness could read"}},"tool_result":{"ok":false,"error_type":"FORMAT_ERROR","data":"Please proceed to the next step using your best judgement."}`, k))
	}
	if res := one(t, detect.DefaultPolicy(), words.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 0 {
		t.Fatalf("five refusals, each answered by the prompt to act: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	if res := one(t, detect.DefaultPolicy(), malformed.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("five calls the harness could not read: %v %v", res.Verdict, res.RootCause)
	}
	// An agent that tells what it did after each call that worked, its
	// harness asking for an action each time, is making progress: three
	// such turns between new calls are no storm.
	narrated := newRun("narrated")
	for k := range 3 {
		narrated.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"send_email","args":{"body":"message %d"}},"tool_result":{"ok":true,"data":"Email sent successfully."}`, k))
		narrated.add(fmt.Sprintf(`"state":"PLAN","decision":{"reason":"I have sent email %d."},"tool_call":{"name":"format_error","args":{"invalid":"no action the harness could read"}},"tool_result":{"ok":false,"error_type":"FORMAT_ERROR","data":"Please proceed to the next step using your best judgement."}`, k))
	}
	if res := one(t, detect.DefaultPolicy(), narrated.text()); res.Verdict == detect.Runaway {
		t.Fatalf("three emails, each told of after it was sent: %v %v", res.Verdict, res.RootCause)
	}
}

// A question handed to a coworker again and again, each time refused (as
// CrewAI refuses an input it was given before), is the agent saying its
// piece again, a re-planning loop: no tool failed. The same question put
// to the user, a tool failing between the same questions, and turns that
// carry a failed run (not refused) are not.
func TestAStormOfRefusedTurnsToAnotherAgentIsReplanning(t *testing.T) {
	ask := func(to, intent string, k int) string {
		in := ""
		if intent != "" {
			in = fmt.Sprintf(`"intent":%q,`, intent)
		}
		return fmt.Sprintf(`"state":"ACT",%s"tool_call":{"name":"message","args":{"to":%q,"text":"Which user and which query should I search the memory for? (%d)"}},"tool_result":{"ok":false,"error_type":"REJECTED","data":"I tried reusing the same input, I must stop using this action input."}`, in, to, k)
	}
	coworker, user, tool, executor := newRun("coworker"), newRun("user"), newRun("tool"), newRun("executor")
	for k := range 5 {
		coworker.add(ask("Memory Researcher", "", k))
		executor.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"executor","to":"manager","text":"exitcode: 1 (execution failed) run %d"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE","data":"ModuleNotFoundError: No module named 'yfinance'"}`, k))
		user.add(ask("user", "user", k))
		tool.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"search_memory","args":{"user":"u%d"}},"tool_result":{"ok":false,"error_type":"REJECTED","data":"no such user"}`, k))
		tool.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"to":"Memory Researcher","text":"Which user should I search for? (%d)"}},"tool_result":{"ok":true,"data":"I do not know."}`, k))
	}
	if res := one(t, detect.DefaultPolicy(), coworker.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 0 {
		t.Fatalf("one question to a coworker refused five times: %v %v onset %d", res.Verdict, res.RootCause, res.OnsetStep)
	}
	if res := one(t, detect.DefaultPolicy(), user.text()); res.Verdict != detect.Runaway || res.RootCause == detect.CauseReplanLoop {
		t.Fatalf("one question to the user refused five times: %v %v", res.Verdict, res.RootCause)
	}
	if res := one(t, detect.DefaultPolicy(), tool.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("a lookup failing, the coworker asked between: %v %v", res.Verdict, res.RootCause)
	}
	// A group chat's code executor reporting its failed run to the
	// manager: work that ran and failed, carried by a turn, no refusal.
	if res := one(t, detect.DefaultPolicy(), executor.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm {
		t.Fatalf("a code run failing five times, each reported in a turn: %v %v", res.Verdict, res.RootCause)
	}
}

// A tool restarted between the same call's failures is upkeep, not a
// change: the same rm timing out three times with the shell restarted after
// each is one storm, from its first failure. The restart's answer is no
// progress either. A restart after which the call works ends the trouble.
func TestRestartsDoNotBreakAStorm(t *testing.T) {
	rm := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"rm -f .bench_scratch/test_opt*.py"}},"tool_result":`
	timeout := rm + `{"ok":false,"error_type":"TIMEOUT","data":"Error running bash command: timed out: bash has not returned in 120.0 seconds and must be restarted"}`
	restart := `"state":"ACT","intent":"restart","tool_call":{"name":"bash","args":{"restart":true}},"tool_result":{"ok":true,"data":"tool has been restarted."}`
	ls := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"ls .bench_scratch"}},"tool_result":{"ok":true,"data":"test_opt.py\ntest_opt_v2.py"}`
	findRm := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"find .bench_scratch -name 'test_opt*.py' -delete"}},"tool_result":{"ok":false,"error_type":"TIMEOUT","data":"Error running bash command: timed out: bash has not returned in 120.0 seconds and must be restarted"}`
	view := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"cat .bench_scratch/README"}},"tool_result":{"ok":true,"data":"scratch files for the benchmark"}`
	stuck := newRun("restarts")
	stuck.add(ls)
	stuck.add(view)
	stuck.add(strings.Replace(view, "README", "NOTES", 2))
	stuck.add(timeout)
	stuck.add(restart)
	stuck.add(ls)
	stuck.add(timeout)
	stuck.add(restart)
	stuck.add(findRm)
	stuck.add(restart)
	stuck.add(ls)
	stuck.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), stuck.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 3 {
		t.Errorf("the same rm timing out with restarts between: %v %v onset %d, want runaway error-storm onset 3", res.Verdict, res.RootCause, res.OnsetStep)
	}
	fixed := newRun("restart-fixes")
	fixed.add(ls)
	fixed.add(timeout)
	fixed.add(restart)
	fixed.add(rm + `{"ok":true,"data":""}`)
	fixed.add(ls)
	fixed.add(`"state":"STOP"`)
	if res := one(t, detect.DefaultPolicy(), fixed.text()); res.Verdict != detect.Healthy {
		t.Errorf("a restart after which the call works: %v %v", res.Verdict, res.RootCause)
	}
}

// An error storm's message says how many failures make the storm and, when
// other failures lie among them (another command failing once between the
// same install timing out again and again), how many failed in all: the
// counts in parentheses add up to the figure they follow.
func TestStormMessageFiguresAddUp(t *testing.T) {
	install := `"state":"ACT","intent":"install: npm install","tool_call":{"name":"bash","args":{"command":"npm install --flag%d"}},"tool_result":{"ok":false,"error_type":"TIMEOUT","data":"Timeout..."}`
	look := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"ls node_modules/pkg%d"}},"tool_result":{"ok":true,"data":"index.js lib%d"}`
	r := newRun("install storm")
	for n := range 5 {
		r.add(fmt.Sprintf(install, n))
		r.add(fmt.Sprintf(look, 2*n, 2*n))
		if n == 2 {
			r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"cat .npmrc"}},"tool_result":{"ok":false,"error_type":"NO_SUCH_FILE","data":"cat: .npmrc: No such file or directory"}`)
		}
		r.add(fmt.Sprintf(look, 2*n+1, 2*n+1))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	var msg string
	for _, f := range res.Findings {
		if f.Detector == "RA301" {
			msg = f.Message
		}
	}
	if !strings.HasPrefix(msg, "5 failed calls alike (of 6 failed: 5 TIMEOUT, 1 NO_SUCH_FILE)") {
		t.Errorf("RA301 message %q, want the storm's 5 failures of the 6 in its steps", msg)
	}
}

// One check failing with one compile error (the same exception at the
// same place) three times, the agent restoring the file between the runs
// from a commit that holds the broken file, is the same failure coming
// back: code that does not parse is no experiment's answer, whatever was
// done between. The same check failing with a compile error somewhere
// else each time is the agent fixing one broken file after another.
func TestSameCompileErrorAfterRestores(t *testing.T) {
	check := func(file string, line int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -m unittest tests/test_widgets.py"}},"tool_result":{"ok":false,"error_type":"SyntaxError","data":"Traceback (most recent call last):\n  File \"/testbed/app/forms/` + file + `\", line ` + strconv.Itoa(line) + `\n    class RadioSelect(ChoiceWidget):class RadioSelect(ChoiceWidget):\nSyntaxError: invalid syntax"}`
	}
	restore := func(cmd, out string) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"` + cmd + `"}},"tool_result":{"ok":true,"data":"` + out + `"}`
	}
	for _, c := range []struct {
		name  string
		files []string
		want  detect.Verdict
	}{
		{"the same compile error three times", []string{"widgets.py", "widgets.py", "widgets.py"}, detect.Runaway},
		{"a compile error in another file each time", []string{"boundfield.py", "fields.py", "widgets.py"}, detect.Healthy},
	} {
		r := newRun(c.name)
		for k, f := range c.files {
			r.add(check(f, 12))
			r.add(restore("git checkout HEAD~"+strconv.Itoa(k)+" -- app/forms/"+f, ""))
			r.add(restore("git log --oneline -n "+strconv.Itoa(k+2), "commit "+strconv.Itoa(k)))
		}
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && res.OnsetStep != 0) {
			t.Errorf("%s: %v onset %d %v", c.name, res.Verdict, res.OnsetStep, res.Signals)
		}
	}
}

// A call that went through, made again more times than an error storm
// beside it failed and on past the storm's last failure, is the loop: the
// agent alternates a failing fetch with an analysis of the same thread,
// then sends that analysis alone again and again (tool-retry-loop). As
// many failures as repeats, or failures to the end, stay the storm.
func TestRepeatBesideAStorm(t *testing.T) {
	run := func(id string, tail ...string) string {
		r := newRun(id)
		fail := `"state":"ACT","tool_call":{"name":"GmailGetThreadTool","args":{"thread_id":"%d"}},"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: No such file or directory: 'credentials.json'"}`
		ana := `"state":"ACT","tool_call":{"name":"EmailContextAnalyzerTool","args":{"email_thread":"thread_id: '1'"}},"tool_result":{"ok":true,"data":"{'summary': 'placeholder'}"}`
		for _, s := range append([]string{"f1", "f1", "a", "a", "f3", "a", "f1"}, tail...) {
			if s == "a" {
				r.add(ana)
			} else {
				r.add(fmt.Sprintf(fail, s[1]-'0'))
			}
		}
		return r.text()
	}
	res := one(t, detect.DefaultPolicy(), run("repeat", "a", "a", "a", "a", "a", "a"))
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 0 {
		t.Errorf("the analysis repeated on past the failures: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
	res = one(t, detect.DefaultPolicy(), run("storm", "a", "f2"))
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Errorf("failures to the end, as many as the repeats: %v %v onset %d %v", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// Edits read as not landed (EDIT_REJECTED) with no output logged, the
// agent looking at the file between them: three of them are the same
// failure come back, the change not made again and again, a storm at the
// suspicious count. The same refusals with their output logged are one
// failure only when their texts say so: here each names another anchor.
func TestSilentRejectedEditsComeBack(t *testing.T) {
	edit := `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"code_replace('django/core/paginator.py', NEW, (108, %d))"}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","reason":"the same text written again at the same place"%s}`
	view := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"nl -ba django/core/paginator.py | sed -n '%d,130p'"}},"tool_result":{"ok":true,"data":"%d class Paginator"}`
	for _, c := range []struct {
		name   string
		logged bool
		want   detect.Verdict
	}{
		{"not logged", false, detect.Runaway},
		{"logged, differing", true, detect.Suspicious},
	} {
		r := newRun(c.name)
		r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"cat django/core/paginator.py"}},"tool_result":{"ok":true,"data":"class Paginator:"}`)
		for k := range 3 {
			data := ""
			if c.logged {
				data = fmt.Sprintf(`,"data":%q`, []string{"No replacement was performed: old_str def page_range did not appear verbatim", "IndentationError: unexpected indent after yield self.page", "Error: file django/core/paginator.py has unbalanced parentheses near __iter__"}[k])
			}
			r.add(fmt.Sprintf(edit, 114+k, data))
			r.add(fmt.Sprintf(view, 100+k, 100+k))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1 {
			t.Errorf("%s: %v %v onset %d %v, want %v error-storm at 1", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Signals, c.want)
		}
	}
}

// TestSilentEditCycles: with no output logged, a check failing after each
// of four edits of one file that applied, nothing else working between,
// is a storm; three cycles, an edit of the agent's own script, a call
// that worked between, or failures whose text was logged (and differs)
// are not.
func TestSilentEditCycles(t *testing.T) {
	edit := `"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"%s","old_str":"def __iter__(self):%d","new_str":"def __iter__(self):%d"}},"tool_result":{"ok":true,"data":"edited"}`
	check := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -c 'list(Paginator(range(%d), 3))'"}},"tool_result":{"ok":false,"error_type":"EXIT_CODE"%s}`
	for _, c := range []struct {
		name    string
		cycles  int
		file    string
		between bool
		logged  bool
		want    bool
	}{
		{"four cycles", 4, "django/core/paginator.py", false, false, true},
		{"three cycles", 3, "django/core/paginator.py", false, false, false},
		{"own script", 4, "check_iter.py", false, false, false},
		{"a call worked between", 4, "django/core/paginator.py", true, false, false},
		{"logged, differing", 4, "django/core/paginator.py", false, true, false},
	} {
		r := newRun(c.name)
		r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"ls"}},"tool_result":{"ok":true,"data":"django"}`)
		if c.file == "check_iter.py" {
			r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"create","path":"check_iter.py","file_text":"print(1)"}},"tool_result":{"ok":true,"data":"created"}`)
		}
		first := len(r.lines)
		for k := range c.cycles {
			data := ""
			if c.logged {
				data = fmt.Sprintf(`,"data":%q`, []string{"TypeError: 'Paginator' object is not iterable", "NameError: name 'page_num' is not defined", "AttributeError: 'Page' object has no attribute 'number'", "ValueError: range() arg 3 must not be zero"}[k])
			}
			r.add(fmt.Sprintf(check, 10+k, data))
			if c.between && k == 1 {
				r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python debug_iter.py"}},"tool_result":{"ok":true}`)
			}
			if k < c.cycles-1 {
				r.add(fmt.Sprintf(edit, c.file, k, k+1))
			}
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		got := res.Verdict == detect.Runaway && res.RootCause == detect.CauseErrorStorm && res.OnsetStep == int64(first)
		if got != c.want {
			t.Errorf("%s: %v %v onset %d %v, want storm at %d: %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, detectors(res), first, c.want)
		}
	}
}
