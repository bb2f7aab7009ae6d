package adapters

import (
	"fmt"
	"testing"
)

// A Prediction saved with toDict(): a step is its trajectory index; the
// thought is its reason, the observation its result; DSPy's message for
// a tool that raised is a failure, the traceback naming the exception;
// finish ends the run.
func TestDSPyPredictionSample(t *testing.T) {
	c, run := convertOne(t, DSPy, readSample(t, "dspy/order-lookup-error-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{0: "get_order_status error KeyError", 4: "get_order_status error KeyError"})
	s := c.step(t, run, 1)
	if fmt.Sprint(args(t, s)) != "map[order_id:10442]" || reason(s) != "The lookup failed. Maybe the order id needs to be given without the prefix." {
		t.Errorf("step 1: %v %q", args(t, s), reason(s))
	}
	if s := c.step(t, run, 5); s.State != "STOP" || tool(s) != "finish" {
		t.Errorf("finish: %q %s", s.State, tool(s))
	}
}

// Predictions written a line each are a run each; an observation that is
// not a string is read as JSON; the older "Failed to execute" message is
// a failure too; a trajectory whose first steps were dropped (its context
// overflowed) keeps its own numbers.
func TestDSPyLinesAndNumbers(t *testing.T) {
	lines := sampleLines(t, "dspy/qa-predictions.ndjson")
	c := convert(t, DSPy, "p.jsonl", 2, false, lines[1])
	run := c.runs[0]
	c.calls(t, run, map[int64]string{0: "evaluate_math error ERROR", 1: "evaluate_math ok"})
	if got := data(t, c.step(t, run, 1)); got != "48.28032" {
		t.Errorf("observation %q", got)
	}
	c, run = convertOne(t, DSPy, []byte(`{"thought_3": "t", "tool_name_3": "search", "tool_args_3": {"q": "a"}, "observation_3": "", "thought_4": "done", "tool_name_4": "finish", "tool_args_4": {}, "observation_4": "Completed."}`))
	if got := fmt.Sprint(c.numbers(run)); got != "[3 4]" {
		t.Errorf("steps %s", got)
	}
}
