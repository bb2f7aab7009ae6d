package adapters

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// SmolAgents reads the memory steps of a Hugging Face smolagents run, as
// agent.memory.get_full_steps() (or get_succinct_steps()) returns them and
// the library's benchmark scripts keep them under "intermediate_steps": a
// list of step dicts, a TaskStep ({"task"}), ActionSteps ({"step_number",
// "tool_calls", "model_output", "observations", "error", "timing",
// "token_usage", "is_final_answer"}), PlanningSteps ({"plan"}) and a
// FinalAnswerStep ({"output"}). A file holds the list, or an object with it
// under "intermediate_steps" or "steps" (a JSON Lines file one per line).
var SmolAgents = &Format{
	Name:      "smolagents",
	Title:     "Hugging Face smolagents memory steps (get_full_steps(), a benchmark's intermediate_steps)",
	Recognize: recognizeSmol,
	Convert:   convertSmol,
}

// smolStepKeys hold a run's steps in an object, in the order tried.
var smolStepKeys = []string{"intermediate_steps", "steps"}

// smolStep is one memory step: the fields read.
type smolStep struct {
	Task         *json.RawMessage `json:"task"`
	StepNumber   *int             `json:"step_number"`
	Plan         *string          `json:"plan"`
	Output       *json.RawMessage `json:"output"`
	ToolCalls    []chatToolCall   `json:"tool_calls"`
	ModelOutput  json.RawMessage  `json:"model_output"`
	Observations *string          `json:"observations"`
	Error        *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	Timing *struct {
		StartTime float64 `json:"start_time"`
	} `json:"timing"`
	TokenUsage *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"token_usage"`
	IsFinalAnswer bool `json:"is_final_answer"`
}

// isSmolActionStep reports whether obj is an ActionStep's dict: a
// "step_number" with the fields only an action has.
func isSmolActionStep(obj map[string]json.RawMessage) bool {
	_, n := obj["step_number"]
	_, obs := obj["observations"]
	_, out := obj["model_output"]
	_, final := obj["is_final_answer"]
	return n && (obs || out || final)
}

// smolSteps finds a document's steps: the list itself, or the list under
// one of smolStepKeys; ok says the list holds an ActionStep.
func smolSteps(d *Doc) (steps []json.RawMessage, ok bool) {
	switch {
	case d.IsArray():
		steps = d.arr
	case d.IsObject():
		for _, k := range smolStepKeys {
			if raw, found := d.obj[k]; found {
				if json.Unmarshal(raw, &steps) == nil {
					break
				}
			}
		}
	}
	for _, el := range steps {
		var obj map[string]json.RawMessage
		if json.Unmarshal(el, &obj) == nil && isSmolActionStep(obj) {
			return steps, true
		}
	}
	return steps, false
}

func recognizeSmol(d *Doc) error {
	if _, ok := smolSteps(d); !ok {
		return errors.New(`no list of smolagents memory steps (an ActionStep: "step_number" with "model_output", "observations" or "is_final_answer") as the document or under "intermediate_steps" or "steps"`)
	}
	return nil
}

// smolRules are smolagents' own output rules: none; its errors are the
// steps' "error" field.
var smolRules []OutputRule

func convertSmol(d *Doc, emit func(*schema.Step) error) error {
	steps, _ := smolSteps(d)
	id := ""
	if d.IsObject() {
		id = ownID(d.obj)
	}
	r := d.newRun(runName(d, 0, false, id))
	pos := 0
	for i, el := range steps {
		at := pos
		pos++
		var st smolStep
		if err := json.Unmarshal(el, &st); err != nil {
			return fmt.Errorf("step %d: %v", i, jsonError(err))
		}
		switch {
		case st.Plan != nil:
			s := r.add(at, schema.StatePlan.String())
			setReason(s, *st.Plan)
			continue
		case st.StepNumber == nil:
			continue // the task, the final answer: no move of the agent's
		}
		var ts *schema.Timestamp
		if st.Timing != nil {
			ts = epochTS(st.Timing.StartTime)
		}
		reason := text(st.ModelOutput)
		var usage *schema.Usage
		if u := st.TokenUsage; u != nil && (u.InputTokens > 0 || u.OutputTokens > 0) {
			usage = &schema.Usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens}
		}
		var errType, errText string
		if st.Error != nil {
			errType, errText = firstNonEmpty(st.Error.Type, "ERROR"), st.Error.Message
		}
		obs := ""
		if st.Observations != nil {
			obs = *st.Observations
		}
		if len(st.ToolCalls) == 0 {
			s := r.add(at, schema.StateAct.String())
			s.TS, s.Usage = ts, usage
			setReason(s, reason)
			if errType != "" {
				// No call could be read from the model's output (a parsing
				// error, a generation error): a failed turn.
				setCall(s, "format_error", map[string]string{"invalid": "no tool call"})
				r.setResult(s, errText, errType, false)
			}
			continue
		}
		for k := range st.ToolCalls {
			tc := &st.ToolCalls[k]
			s := r.add(at+k, schema.StateAct.String())
			s.TS = ts
			if k == 0 {
				setReason(s, reason)
				s.Usage = usage
			}
			name, args := firstNonEmpty(tc.Function.Name, "tool"), tc.Function.args()
			setRawCall(s, name, args)
			if name == "final_answer" || st.IsFinalAnswer && k == len(st.ToolCalls)-1 {
				s.State = schema.StateStop.String()
			}
			search, view := chatToolKind(name, args)
			if search {
				s.Intent = searchIntent
			}
			if k > 0 {
				continue // the step's observations are its first call's
			}
			out := joinLine(obs, errText)
			et, empty := r.classify(out, search, view, smolRules)
			if errType != "" && et == "" {
				et, empty = errType, false
			}
			r.setResult(s, out, et, empty)
		}
		pos += len(st.ToolCalls) - 1
	}
	if len(r.steps) == 0 {
		return errors.New("no action step")
	}
	return r.emit(emit)
}
