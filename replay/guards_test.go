package replay_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// stopAt replays one guard over one healthy-labelled run and returns the
// step it stopped at (-1: not stopped) and its reason.
func stopAt(t *testing.T, spec string, r *runBuilder) (int64, string) {
	t.Helper()
	rep := replayText(t, []string{spec}, healthy(r.id), r.text())
	s, class := outcome(t, rep, rep.Guards[0].Name, r.id)
	if class == "" {
		return -1, ""
	}
	return s.StopStep, s.Reason
}

func wantStop(t *testing.T, spec string, r *runBuilder, step int64, reason string) {
	t.Helper()
	got, why := stopAt(t, spec, r)
	if got != step {
		t.Fatalf("%s: stopped at step %d (%q), want %d", spec, got, why, step)
	}
	if step >= 0 && !strings.Contains(why, reason) {
		t.Fatalf("%s: reason %q, want it to contain %q", spec, why, reason)
	}
}

func TestDedupBlocksTheFirstRepeatHoweverFarBack(t *testing.T) {
	r := newRun("d").call(search, argsA, okA).call(search, argsB, okB).eval().call(search, argsC, okA).call(search, argsA, okA)
	wantStop(t, "dedup", r, 4, "duplicate call search ")
	wantStop(t, "dedup", r, 4, "(first made at step 0)")
	// The same args to another tool are another call.
	wantStop(t, "dedup", newRun("d2").call("a", argsA, okA).call("b", argsA, okA), -1, "")
	// Key order does not matter: the replay keys calls canonically.
	wantStop(t, "dedup", newRun("d3").call(search, `{"q":"x","k":1}`, okA).call(search, `{"k":1,"q":"x"}`, okA), 1, "duplicate")
}

func TestLoopGuardCountsOverTheWholeRun(t *testing.T) {
	// Guide C's defect: pagination, each page a new call, trips the
	// total of 10, although no call repeats.
	p := newRun("pages")
	for page := 1; page <= 12; page++ {
		p.call("list_items", `{"resource":"orders","page":`+itoa(page)+`}`, okA)
	}
	wantStop(t, "loopguard", p, 10, "too many tool calls: 11th call (max 10 per run)")
	// runWithGuards' LoopGuard(2, 8) trips sooner.
	wantStop(t, "loopguard:max_total_calls=8", p, 8, "9th call")
	// A page fetched a 3rd time, however far apart, trips the repeat check.
	r := newRun("refetch").call("list_items", argsA, okA)
	for k := 0; k < 3; k++ {
		r.call(search, `{"q":"`+itoa(k)+`"}`, okB)
	}
	r.call("list_items", argsA, okA).call(search, argsC, okB).call("list_items", argsA, okA)
	wantStop(t, "loopguard", r, 6, "repeated identical tool call: 3rd list_items")
	// A windowed guard lets pagination through (guide E: "why a window").
	wantStop(t, "toolcallguard", p, -1, "")
}

func TestToolLoopBreakerMissesAlternatingLoops(t *testing.T) {
	abab := newRun("abab")
	for k := 0; k < 10; k++ {
		abab.call(search, argsA, okA).call(search, argsB, okB)
	}
	wantStop(t, "toolloopbreaker", abab, -1, "")
	aaa := newRun("aaa").call(search, argsA, okA).eval().call(search, argsA, okA).eval().call(search, argsA, okA)
	wantStop(t, "toolloopbreaker", aaa, 4, "3 times in a row (steps 0-4)")
	// The window holds 10 calls: a limit above it can never fire.
	long := newRun("long")
	for k := 0; k < 30; k++ {
		long.call(search, argsA, okA)
	}
	wantStop(t, "toolloopbreaker:limit=11", long, -1, "")
	wantStop(t, "toolloopbreaker:limit=10", long, 9, "10 times")
	// The guide's ToolCallGuard and OpenHands do see A B A B.
	wantStop(t, "toolcallguard", abab, 4, "REPEATED_SAME_ARGS")
	wantStop(t, "openhands", abab, 6, "alternating")
}

func TestToolCallGuardBlocksTheThirdWithinTheWindow(t *testing.T) {
	r := newRun("w").call(search, argsA, okA).call(search, argsB, okA).call(search, argsA, okA).call(search, argsC, okA).call(search, argsA, okA)
	wantStop(t, "toolcallguard", r, 4, "made 2 times in the last 4 calls")
	// Out of a window of 3, the first A is forgotten by the third.
	wantStop(t, "toolcallguard:size=3", r, -1, "")
	wantStop(t, "toolcallguard:max_repeat=1", r, 2, "made 1 times")
}

func TestCrewAIStopsTheSecondIdenticalCall(t *testing.T) {
	wantStop(t, "crewai", newRun("c").call(search, argsA, okA).call(search, argsA, okA), 1, "reusing the same input: search")
	// Steps between calls do not matter; only the previous call does.
	wantStop(t, "crewai", newRun("c2").call(search, argsA, okA).eval().eval().call(search, argsA, okB), 3, "2nd identical call")
	wantStop(t, "crewai", newRun("c3").call(search, argsA, okA).call(search, argsB, okA).call(search, argsA, okA), -1, "")
}

func TestGeminiRefusesTheFifthConsecutiveCall(t *testing.T) {
	r := newRun("g")
	for k := 0; k < 4; k++ {
		r.call(search, argsA, okA).eval()
	}
	wantStop(t, "gemini", r, -1, "")
	r.call(search, argsA, okA)
	wantStop(t, "gemini", r, 8, "5th identical call in a row (from step 0)")
	wantStop(t, "gemini:n=3", r, 4, "3rd")
}

func TestBreakerEndsTheRunAfterTheFailureThatOpensIt(t *testing.T) {
	r := newRun("b").call(search, argsA, okA).call(search, argsA, fail).call(search, argsB, fail).call(search, argsC, fail).eval().call(search, argsA, okA)
	// Opened by the failure at step 3: the run ends before step 4.
	wantStop(t, "breaker", r, 4, "breaker open: 3 consecutive failures of search (steps 1-3, last TIMEOUT)")
	wantStop(t, "breaker:threshold=2,per_tool=0", r, 3, "2 consecutive failures of tool calls")
	// A breaker that opens on the last step saves nothing: not a stop.
	wantStop(t, "breaker", newRun("b2").call(search, argsA, fail).call(search, argsA, fail).call(search, argsA, fail), -1, "")
	// Per tool (guide B), a success of another tool resets nothing;
	// for the run (guide C), it does.
	mixed := newRun("b3").call("x", argsA, fail).call("y", argsA, okA).call("x", argsA, fail).call("y", argsA, okA).call("x", argsA, fail).eval()
	wantStop(t, "breaker", mixed, 5, "failures of x")
	wantStop(t, "breaker:per_tool=0", mixed, -1, "")
}

func TestEmptyStopCountsEmptiesPerIntent(t *testing.T) {
	r := newRun("e").
		add(`"state":"ACT","intent":"find x","tool_call":{"name":"search","args":{"q":"x"}},"tool_result":` + empty).
		add(`"state":"ACT","intent":"find y","tool_call":{"name":"search","args":{"q":"y"}},"tool_result":` + empty).
		add(`"state":"ACT","intent":"find x","tool_call":{"name":"search","args":{"q":"x please"}},"tool_result":` + empty).
		eval()
	wantStop(t, "empty-stop", r, 3, `2 empty results for intent "find x" (last at step 2)`)
	// Without an intent, the tool groups the calls; failures do not count.
	n := newRun("e2").call("a", argsA, empty).call("b", argsA, empty).call("a", argsB, fail).call("a", argsC, `{"found":false,"items":[]}`).eval()
	wantStop(t, "empty-stop", n, 4, `for tool "a"`)
	wantStop(t, "empty-stop:n=3", n, -1, "")
}

// rephrase-stop ends the run at the n-th query in a row to one search tool
// that asks one question in new words; a page of the same query is not
// counted, another call or another question starts again.
func TestRephraseStopCountsOneQuestionAskedAgain(t *testing.T) {
	q := func(r *runBuilder, query string, n int) *runBuilder {
		return r.call("web_search", fmt.Sprintf(`{"query":%q}`, query), fmt.Sprintf(`{"ok":true,"data":"results page %d"}`, n))
	}
	r := newRun("r")
	for i, query := range []string{"Tree of Life roots symbolism heritage", "symbolism of roots Tree of Life heritage", "Tree of Life roots symbolism identity", "roots symbolism Tree of Life cultural heritage", "Tree of Life roots cultural identity"} {
		q(r, query, i)
	}
	wantStop(t, "rephrase-stop", r, 3, `asked one question 4th time in a row in new words`)
	wantStop(t, "rephrase-stop:n=5", r, 4, "5th time")
	// Research that moves from one question to the next is not stopped.
	facets := newRun("f")
	for i, query := range []string{"Grafana Cloud SLA uptime", "Grafana Cloud egress costs", "Grafana Cloud pricing comparison", "Grafana Cloud rate limits", "Grafana Cloud EU data residency"} {
		q(facets, query, i)
	}
	wantStop(t, "rephrase-stop", facets, -1, "")
	// A page read between the queries starts the count again.
	read := newRun("p")
	for i, query := range []string{"Tree of Life roots symbolism heritage", "symbolism of roots Tree of Life heritage", "Tree of Life roots symbolism identity", "roots symbolism Tree of Life cultural heritage"} {
		q(read, query, i).call("visit_webpage", fmt.Sprintf(`{"url":"https://example.org/%d"}`, i), fmt.Sprintf(`{"ok":true,"data":"page %d"}`, i))
	}
	wantStop(t, "rephrase-stop", read, -1, "")
}

func TestCapsStopPastTheirLimit(t *testing.T) {
	r := newRun("m").add(`"state":"PLAN"`)
	for k := 0; k < 4; k++ {
		r.call(search, `{"q":"`+itoa(k)+`"}`, okA).eval()
	}
	wantStop(t, "maxsteps:n=3", r, 3, "4th step (max 3)")
	wantStop(t, "maxsteps", r, -1, "")
	wantStop(t, "maxturns:n=5", r, 5, "6th step (max 5)")
	wantStop(t, "maxcalls:n=2", r, 5, "3rd tool call (max 2)")
	wantStop(t, "maxcalls", r, -1, "")
}

func TestOpenHandsRules(t *testing.T) {
	// 1. Four identical action+observation pairs: stuck after the 4th; the
	// run stops at the next step.
	four := newRun("o1")
	for k := 0; k < 5; k++ {
		four.call(search, argsA, okA).eval()
	}
	wantStop(t, "openhands", four, 7, "4 identical action+observation pairs (steps 0-6)")
	// The same call with a new answer each time is not stuck.
	fresh := newRun("o2")
	for k := 0; k < 6; k++ {
		fresh.call(search, argsA, `{"ok":true,"data":{"n":`+itoa(k)+`}}`)
	}
	wantStop(t, "openhands", fresh, -1, "")
	// 2. Three identical actions, each an error.
	errs := newRun("o3").call(search, argsA, fail).call(search, argsA, fail).call(search, argsA, fail).eval()
	wantStop(t, "openhands", errs, 3, "3 identical actions, each an error")
	// 4. A B A B A B with repeating observations.
	alt := newRun("o4")
	for k := 0; k < 3; k++ {
		alt.call(search, argsA, okA).call(search, argsB, okB)
	}
	alt.eval()
	wantStop(t, "openhands", alt, 6, "alternating action+observation pattern over 6 actions (steps 0-5)")
	// Only the last 20 events count: four identical pairs spread over more
	// than 20 events are not seen together.
	spread := newRun("o5")
	for k := 0; k < 6; k++ {
		spread.call(search, argsA, okA)
		for j := 0; j < 5; j++ {
			spread.eval()
		}
	}
	wantStop(t, "openhands", spread, -1, "")
	// With one message fewer between them, the 4 pairs fit in 20 events.
	close := newRun("o6")
	for k := 0; k < 6; k++ {
		close.call(search, argsA, okA)
		for j := 0; j < 4; j++ {
			close.eval()
		}
	}
	wantStop(t, "openhands", close, 16, "(steps 0-15)")
}

func itoa(n int) string { return strconv.Itoa(n) }
