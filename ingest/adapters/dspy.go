package adapters

import (
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// DSPy reads the trajectory of a dspy.ReAct program (DSPy 2.5.19 and
// later): a dict in the program's Prediction whose steps are numbered
// keys, "thought_0", "tool_name_0", "tool_args_0", "observation_0",
// "thought_1", ..., until the model picks the built-in "finish" tool.
// DSPy has no file of its own for it: users save the Prediction
// (prediction.toDict(): {"trajectory": {...}, "reasoning", <outputs>}) or
// the trajectory alone, a document a file or a line. A document is one
// run.
var DSPy = &Format{
	Name:      "dspy",
	Title:     "DSPy ReAct trajectories (a Prediction's \"trajectory\": thought_N, tool_name_N, tool_args_N, observation_N)",
	Recognize: recognizeDSPy,
	Convert:   convertDSPy,
}

// reDSPyKey is a key of a ReAct trajectory.
var reDSPyKey = regexp.MustCompile(`^(thought|tool_name|tool_args|observation)_(\d+)$`)

// dspyTrajectory finds the trajectory in a document: under "trajectory",
// or the document itself.
func dspyTrajectory(obj map[string]json.RawMessage) (map[string]json.RawMessage, bool) {
	if raw := obj["trajectory"]; len(raw) > 0 && raw[0] == '{' {
		var t map[string]json.RawMessage
		if json.Unmarshal(raw, &t) == nil && dspyKeys(t) {
			return t, true
		}
		return nil, false
	}
	return obj, dspyKeys(obj)
}

// dspyKeys reports whether t holds a ReAct step: a tool_name_N.
func dspyKeys(t map[string]json.RawMessage) bool {
	for k := range t {
		if m := reDSPyKey.FindStringSubmatch(k); m != nil && m[1] == "tool_name" {
			return true
		}
	}
	return false
}

func recognizeDSPy(d *Doc) error {
	if !d.IsObject() {
		return errors.New(`not a DSPy ReAct trajectory (an object of "thought_N", "tool_name_N", "tool_args_N", "observation_N", alone or under "trajectory")`)
	}
	if _, ok := dspyTrajectory(d.obj); !ok {
		return errors.New(`no DSPy ReAct trajectory ("tool_name_0", ... alone or under "trajectory")`)
	}
	return nil
}

// dspyFailed recognises the observation DSPy writes when a tool raised:
// "Execution error in <tool>: " and the traceback (2.6.20 and later), or
// "Failed to execute: <error>" (before).
func dspyFailed(obs string) bool {
	return strings.HasPrefix(obs, "Execution error in ") || strings.HasPrefix(obs, "Failed to execute: ")
}

// dspyStyle: the built-in finish ends the run; DSPy's own message for a
// tool that raised says the call failed, and the output rules say how
// (the traceback's exception).
var dspyStyle = chatStyle{stop: func(tool string, _ json.RawMessage) bool { return tool == "finish" }, positioned: true}

// convertDSPy reads a trajectory: a step is its index N (the trajectory's
// own numbering: a run whose context overflowed lost its first steps and
// starts later); thought_N is the step's reason, tool_name_N and
// tool_args_N its call, observation_N the tool's answer (a string as it
// is, anything else as compact JSON). A step without a tool name (a
// thought the run stopped after) is the run's last words.
func convertDSPy(d *Doc, emit func(*schema.Step) error) error {
	t, ok := dspyTrajectory(d.obj)
	if !ok {
		return errors.New("no DSPy ReAct trajectory")
	}
	type step struct {
		thought, tool, obs string
		args               json.RawMessage
		hasObs             bool
	}
	steps := map[int]*step{}
	for k, v := range t {
		m := reDSPyKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || n > 1<<20 {
			continue
		}
		s := steps[n]
		if s == nil {
			s = &step{}
			steps[n] = s
		}
		switch m[1] {
		case "thought":
			s.thought = text(v)
		case "tool_name":
			s.tool = scalar(v)
		case "tool_args":
			s.args = v
		case "observation":
			s.obs, s.hasObs = text(v), true
		}
	}
	nums := make([]int, 0, len(steps))
	for n := range steps {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	var msgs []chatMessage
	for _, n := range nums {
		s := steps[n]
		if s.tool == "" {
			msgs = append(msgs, chatMessage{Role: "assistant", Content: jsonString(s.thought), pos: n})
			continue
		}
		args := s.args
		if !filled(args) || args[0] != '{' {
			args = json.RawMessage("{}")
		}
		id := "dspy-" + strconv.Itoa(n)
		msgs = append(msgs, chatMessage{Role: "assistant", Content: jsonString(s.thought), pos: n,
			ToolCalls: []chatToolCall{{ID: id, Function: chatFunction{Name: s.tool, Arguments: args}, pos: n}}})
		if s.hasObs {
			r := chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(s.obs), pos: n}
			if dspyFailed(s.obs) {
				r.errType = "ERROR"
			}
			msgs = append(msgs, r)
		}
	}
	r := d.newRun(runName(d, 0, false, ""))
	convertChat(r, msgs, dspyStyle)
	return r.emit(emit)
}
