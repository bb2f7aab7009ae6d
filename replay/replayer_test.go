package replay_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/replay"
)

// usage adds tokens and cost to a step body.
func usage(body string, tokens int, cost string) string {
	return body + `,"usage":{"prompt_tokens":` + itoa(tokens) + `,"completion_tokens":0,"cost_usd":` + cost + `}`
}

func TestSavingsRunFromTheStopStepToTheEnd(t *testing.T) {
	// Six identical calls, step k spending 100(k+1) tokens and $0.0k+1;
	// the loop's onset (from the label) is step 1.
	r := newRun("loop")
	call := `"state":"ACT","tool_call":{"name":"search","args":{"q":"a"}},"tool_result":` + okA
	costs := []string{"0.01", "0.02", "0.03", "0.04", "0.05", "0.06"}
	for k := 0; k < 6; k++ {
		r.add(usage(call, 100*(k+1), costs[k]))
	}
	labels := map[string]replay.Label{"loop": {Runaway: true, OnsetStep: 1}}
	rep := replayText(t, []string{"crewai", "gemini", "maxturns:n=25"}, labels, r.text())

	total := rep.Runs.Runaway
	if total.Runs != 1 || total.Amount != (replay.Amount{Steps: 6, Tokens: 2100, CostUSD: 0.21}) {
		t.Fatalf("runaway totals %+v", total)
	}
	if *total.AfterOnset != (replay.Amount{Steps: 5, Tokens: 2000, CostUSD: 0.20}) {
		t.Fatalf("after onset %+v", *total.AfterOnset)
	}
	crewai := rep.Guards[0].Runaway
	// CrewAI blocks step 1: steps 1-5 saved.
	if crewai.Stopped != 1 || crewai.Missed != 0 || crewai.Saved != (replay.Amount{Steps: 5, Tokens: 2000, CostUSD: 0.2}) {
		t.Fatalf("crewai %+v", crewai)
	}
	if s := crewai.Stops[0]; s.StopStep != 1 || s.OnsetStep != 1 || s.Delay != 0 || s.After != crewai.Saved {
		t.Fatalf("crewai stop %+v", s)
	}
	// Gemini refuses the 5th call, step 4: steps 4 and 5 saved, 3 steps
	// after the onset.
	gemini := rep.Guards[1].Runaway
	if gemini.Saved != (replay.Amount{Steps: 2, Tokens: 1100, CostUSD: 0.11}) || gemini.Delay.Median != 3 {
		t.Fatalf("gemini %+v", gemini)
	}
	// A cap the run never reaches misses it.
	if m := rep.Guards[2].Runaway; m.Stopped != 0 || m.Missed != 1 || len(m.MissedRuns) != 1 || m.MissedRuns[0] != "loop" || m.Saved != (replay.Amount{}) {
		t.Fatalf("maxturns %+v", m)
	}
}

func TestFalsePositivesCarryTheStepAndTheReason(t *testing.T) {
	// Polling: the same status call with the same "running" answer, then
	// done. Healthy, and CrewAI stops it at the second poll.
	poll := newRun("poll").call("start_job", argsA, okA).
		call("job_status", `{"job_id":"j1"}`, `{"ok":true,"data":{"state":"running"}}`).
		add(`"state":"RECOVER"`).
		call("job_status", `{"job_id":"j1"}`, `{"ok":true,"data":{"state":"running"}}`).
		call("job_status", `{"job_id":"j1"}`, `{"ok":true,"data":{"state":"done"}}`).
		add(`"state":"STOP"`)
	rep := replayText(t, []string{"crewai", "gemini"}, healthy("poll"), poll.text())
	g := rep.Guards[0]
	if g.Healthy.Runs != 1 || g.Healthy.Stopped != 1 || g.Healthy.Cut.Steps != 3 {
		t.Fatalf("healthy outcome %+v", g.Healthy)
	}
	s := g.Healthy.Stops[0]
	if s.RunID != "poll" || s.StopStep != 3 || !strings.Contains(s.Reason, "job_status") || !strings.Contains(s.Reason, "(from step 1)") {
		t.Fatalf("false positive %+v", s)
	}
	if rep.Guards[1].Healthy.Stopped != 0 {
		t.Fatal("gemini does not stop 3 polls")
	}
	var table bytes.Buffer
	if err := replay.WriteTable(&table, rep, replay.TableOptions{Examples: 3}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Truth: the labels (0 runaway, 1 healthy)", "crewai", "1/1 (100.0%)", "poll", "reusing the same input"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if strings.Contains(table.String(), "SUSPICIOUS") {
		t.Error("with labels there is no suspicious class")
	}
}

func TestLabelsDecideTheClassAndCountWhatIsMissing(t *testing.T) {
	a := newRun("a").call(search, argsA, okA).call(search, argsA, okA)
	b := newRun("b").call(search, argsA, okA).call(search, argsA, okA)
	c := newRun("c").call(search, argsA, okA)
	labels := map[string]replay.Label{"a": {Runaway: true, OnsetStep: 0}, "b": {}, "gone": {}}
	rep := replayText(t, []string{"crewai"}, labels, a.text()+b.text()+c.text())
	if rep.Truth != "labels" || rep.Runs.Total != 2 || rep.Runs.Unlabelled != 1 || rep.Runs.Missing != 1 {
		t.Fatalf("runs %+v", rep.Runs)
	}
	if _, class := outcome(t, rep, "crewai", "a"); class != "runaway" {
		t.Fatalf("a is %q", class)
	}
	if _, class := outcome(t, rep, "crewai", "b"); class != "healthy" {
		t.Fatalf("b is %q", class)
	}
	// Without labels, the verdicts decide, and every run is replayed.
	rep = replayText(t, []string{"crewai"}, nil, a.text()+b.text()+c.text())
	if rep.Truth != "verdicts" || rep.Runs.Total != 3 || rep.Runs.Unlabelled != 0 {
		t.Fatalf("runs %+v", rep.Runs)
	}
}

// corpus is a handful of runs of every kind the guards react to.
func corpus() []string {
	var runs []string
	for k := 0; k < 30; k++ {
		r := newRun("run-" + itoa(k)).add(`"state":"PLAN"`)
		for j := 0; j < k%7+1; j++ {
			r.call(search, `{"q":"`+itoa(j)+`"}`, okA)
		}
		for j := 0; j < k%5; j++ {
			r.call("fetch", argsA, fail).eval()
		}
		for j := 0; j < k%4*3; j++ {
			r.call("list", argsB, okB).call("list", argsC, okB)
		}
		r.add(`"state":"STOP"`)
		runs = append(runs, r.text())
	}
	return runs
}

func TestOutputDoesNotDependOnVisitOrInputOrder(t *testing.T) {
	runs := corpus()
	rp := replay.New(replay.Defaults(), nil)
	collect(t, strings.Join(runs, "")).Visit(detect.DefaultPolicy(), 1, rp.Visit)
	base := rp.Report()
	if base.Runs.Runaway.Runs == 0 || base.Runs.Healthy.Runs == 0 || base.Guards[0].Runaway.Stopped == 0 {
		t.Fatalf("the corpus must hold runaway and healthy runs that guards stop: %+v", base.Runs)
	}
	want := jsonOf(t, base)
	var table bytes.Buffer
	if err := replay.WriteTable(&table, base, replay.TableOptions{Examples: 5}); err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		shuffled := append([]string(nil), runs...)
		rand.New(rand.NewPCG(seed, 0)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// Runs split across two inputs, visited by 4 workers.
		half := len(shuffled) / 2
		rp := replay.New(replay.Defaults(), nil)
		collect(t, strings.Join(shuffled[:half], ""), strings.Join(shuffled[half:], "")).Visit(detect.DefaultPolicy(), 4, rp.Visit)
		rep := rp.Report()
		if got := jsonOf(t, rep); got != want {
			t.Fatalf("seed %d: the report depends on the order of the runs", seed)
		}
		var again bytes.Buffer
		if err := replay.WriteTable(&again, rep, replay.TableOptions{Examples: 5}); err != nil || again.String() != table.String() {
			t.Fatalf("seed %d: the table differs (%v)", seed, err)
		}
	}
	if !strings.Contains(want, `"schema_version": "1"`) || !strings.Contains(want, `"truth": "verdicts"`) {
		t.Fatalf("json head: %.300s", want)
	}
}

func TestDefaultsReplayEveryGuardOnce(t *testing.T) {
	var names []string
	for _, g := range replay.Defaults() {
		names = append(names, g.Name())
	}
	want := "breaker crewai dedup empty-stop gemini loopguard maxcalls maxsteps maxturns:n=10 maxturns:n=15 maxturns:n=25 openhands rephrase-stop toolcallguard toolloopbreaker"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("defaults:\n%s\nwant\n%s", got, want)
	}
	// The registry is sorted by name and every entry documented.
	for k, s := range replay.Registry {
		if k > 0 && replay.Registry[k-1].Name >= s.Name {
			t.Errorf("registry not sorted at %s", s.Name)
		}
		if s.Source == "" || s.Rule == "" {
			t.Errorf("%s: no source or rule", s.Name)
		}
	}
}

func TestBreakdownsByCauseAndConfounder(t *testing.T) {
	loop := newRun("loop").call(search, argsA, okA).call(search, argsA, okA)
	storm := newRun("storm").call(search, argsA, fail).call(search, argsB, fail).call(search, argsC, fail).eval()
	poll := newRun("poll").call("status", argsA, okA).call("status", argsA, okA)
	plain := newRun("plain").call(search, argsA, okA)
	labels := map[string]replay.Label{
		"loop":  {Runaway: true, RootCause: "tool-retry-loop"},
		"storm": {Runaway: true, RootCause: "error-storm"},
		"poll":  {Confounders: []string{"polling", "transient-error"}},
		"plain": {Confounders: []string{"none"}},
	}
	rep := replayText(t, []string{"crewai", "breaker"}, labels, loop.text()+storm.text()+poll.text()+plain.text())
	if got := rep.Runs.Runaway.ByCause; len(got) != 2 || got["tool-retry-loop"] != 1 || got["error-storm"] != 1 {
		t.Fatalf("runaway by cause %v", got)
	}
	if got := rep.Runs.Healthy.ByConfounder; len(got) != 3 || got["polling"] != 1 || got["transient-error"] != 1 || got["none"] != 1 {
		t.Fatalf("healthy by confounder %v", got)
	}
	crewai, breaker := rep.Guards[0], rep.Guards[1]
	if got := crewai.Runaway.StoppedByCause; len(got) != 2 || got["tool-retry-loop"] != 1 || got["error-storm"] != 0 {
		t.Fatalf("crewai by cause %v", got)
	}
	if got := crewai.Healthy.StoppedByConfounder; len(got) != 3 || got["polling"] != 1 || got["transient-error"] != 1 || got["none"] != 0 {
		t.Fatalf("crewai by confounder %v", got)
	}
	if got := breaker.Runaway.StoppedByCause; got["error-storm"] != 1 || got["tool-retry-loop"] != 0 {
		t.Fatalf("breaker by cause %v", got)
	}
	var table bytes.Buffer
	if err := replay.WriteTable(&table, rep, replay.TableOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Runaway runs stopped, by root cause", "Healthy runs stopped, by confounder", "transient-error"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

// The table is written from a replay that keeps only the examples it
// prints (KeepExamples), so that a large input does not hold a list of
// every run per guard: the table must be the one a full replay gives.
func TestTableFromExamplesOnlyIsTheFullOnes(t *testing.T) {
	runs := strings.Join(corpus(), "")
	for _, examples := range []int{0, 1, 3, 100} {
		full := replay.New(replay.Defaults(), nil)
		collect(t, runs).Visit(detect.DefaultPolicy(), 2, full.Visit)
		kept := replay.New(replay.Defaults(), nil)
		kept.KeepExamples(examples)
		collect(t, runs).Visit(detect.DefaultPolicy(), 2, kept.Visit)
		var want, got bytes.Buffer
		if err := replay.WriteTable(&want, full.Report(), replay.TableOptions{Examples: examples}); err != nil {
			t.Fatal(err)
		}
		if err := replay.WriteTable(&got, kept.Report(), replay.TableOptions{Examples: examples}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("examples %d: the table differs:\n%s\nwant\n%s", examples, got.String(), want.String())
		}
		rep := kept.Report()
		for _, g := range rep.Guards {
			if len(g.Runaway.Stops) > 0 || len(g.Healthy.Stops) > examples || len(g.Suspicious.Stops) > examples {
				t.Fatalf("examples %d: guard %s kept %d runaway, %d healthy, %d suspicious stops", examples, g.Name,
					len(g.Runaway.Stops), len(g.Healthy.Stops), len(g.Suspicious.Stops))
			}
		}
	}
}
