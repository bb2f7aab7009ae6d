package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// SmolAgents reads the memory steps of a Hugging Face smolagents run, as
// agent.memory.get_full_steps() (or get_succinct_steps()) returns them (or
// as the library's benchmark scripts keep them, written back as the
// model's messages under "intermediate_steps": smolMessage): a list of
// step dicts, a TaskStep ({"task"}), ActionSteps ({"step_number",
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
	return steps, isSmolMessages(steps)
}

// smolMessage is a message of agent.write_memory_to_messages(), which the
// library's benchmark scripts (examples/smolagents_benchmark,
// open_deep_research's run_gaia) keep under "intermediate_steps": each
// ActionStep written as the model reads it back, the model's output
// ("assistant"), the calls ("tool-call": "Calling tools:\n" and the calls'
// Python repr), what came back ("tool-response": "Observation:\n..." or,
// after a failure, "Call id: ...\nError:\n...").
type smolMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	TokenUsage *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"token_usage"`
}

// isSmolMessages reports whether a list holds smolagents' messages: a
// message of one of its own roles.
func isSmolMessages(els []json.RawMessage) bool {
	for _, el := range els {
		var m struct {
			Role string `json:"role"`
		}
		if json.Unmarshal(el, &m) == nil && (m.Role == "tool-call" || m.Role == "tool-response") {
			return true
		}
	}
	return false
}

// smolRetry is what smolagents adds to an error it hands back to the model.
const smolRetry = "Now let's retry: take care not to repeat previous errors!"

// smolStepsOfMessages gathers the messages back into the ActionSteps they
// were written from, each at the position of its first message in the
// list: the model's output, its calls, and the responses up to the next
// output. A turn of the model followed by no call and no response is a
// plan (PlanningStep writes its plan so, then the user's "Now proceed").
func smolStepsOfMessages(els []json.RawMessage) (steps []smolStep, at []int, err error) {
	var cur *smolStep
	open := func(i int) *smolStep {
		steps = append(steps, smolStep{StepNumber: new(int)})
		at = append(at, i)
		return &steps[len(steps)-1]
	}
	for i, el := range els {
		var m smolMessage
		if err := json.Unmarshal(el, &m); err != nil {
			return nil, nil, fmt.Errorf("message %d: %v", i, jsonError(err))
		}
		t := strings.TrimSpace(text(m.Content))
		switch m.Role {
		case "assistant":
			cur = open(i)
			cur.ModelOutput = jsonString(t)
			if u := m.TokenUsage; u != nil {
				cur.TokenUsage = u
			}
		case "tool-call":
			if cur == nil || len(cur.ToolCalls) > 0 || cur.Observations != nil || cur.Error != nil {
				cur = open(i)
			}
			if js, ok := pyLiteralJSON(strings.TrimSpace(strings.TrimPrefix(t, "Calling tools:"))); ok {
				json.Unmarshal(js, &cur.ToolCalls)
			}
			if len(cur.ToolCalls) == 0 {
				cur.ToolCalls = []chatToolCall{{Function: chatFunction{Name: "tool"}}}
			}
		case "tool-response":
			if cur == nil {
				cur = open(i)
			}
			body := t
			if strings.HasPrefix(body, "Call id: ") {
				if _, rest, ok := strings.Cut(body, "\n"); ok {
					body = rest
				}
			}
			if msg, ok := strings.CutPrefix(body, "Error:"); ok {
				msg, _, _ = strings.Cut(msg, smolRetry)
				cur.Error = &struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				}{Message: strings.TrimSpace(msg)}
				continue
			}
			obs := strings.TrimSpace(strings.TrimPrefix(body, "Observation:"))
			if cur.Observations != nil {
				obs = joinLine(*cur.Observations, obs)
			}
			cur.Observations = &obs
		default:
			cur = nil // the system prompt, the task, the user's words: no step's
		}
	}
	for k := range steps {
		st := &steps[k]
		if len(st.ToolCalls) == 0 && st.Observations == nil && st.Error == nil {
			plan := text(st.ModelOutput)
			st.Plan, st.StepNumber = &plan, nil
		}
	}
	return steps, at, nil
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
	els, _ := smolSteps(d)
	id := ""
	if d.IsObject() {
		id = ownID(d.obj)
	}
	r := d.newRun(runName(d, 0, false, id))
	var steps []smolStep
	var positions []int
	if isSmolMessages(els) {
		var err error
		if steps, positions, err = smolStepsOfMessages(els); err != nil {
			return err
		}
	} else {
		steps = make([]smolStep, len(els))
		for i, el := range els {
			if err := json.Unmarshal(el, &steps[i]); err != nil {
				return fmt.Errorf("step %d: %v", i, jsonError(err))
			}
		}
	}
	pos, shift := 0, 0
	for i := range steps {
		at := pos
		pos++
		st := steps[i]
		if positions != nil {
			// A step is numbered by its first message's position; its
			// calls after the first by the positions after it, its own
			// messages (a call and its responses). Parallel calls beyond
			// its messages move the numbers after them on, as
			// anthropic-messages numbers a message's calls.
			at = positions[i] + shift
			end := len(els)
			if i+1 < len(positions) {
				end = positions[i+1]
			}
			shift += max(0, len(st.ToolCalls)-(end-positions[i]))
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
			var code string
			if name == "python_interpreter" && json.Unmarshal(tc.Function.Arguments, &code) == nil {
				if tool, query, ok := smolCodeSearch(code); ok {
					// A CodeAgent's code that only searches is that search.
					name = tool
					setCall(s, name, map[string]string{"query": query})
				}
			}
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
	if positions != nil && d.IsObject() && !smolHasUsage(steps) {
		// The messages carry no tokens; a benchmark's record keeps the
		// run's totals (a Python repr in "token_counts").
		if u, ok := smolTokenCounts(d.obj["token_counts"]); ok {
			r.spreadUsage(u.InputTokens, u.OutputTokens, 0)
		}
	}
	return r.emit(emit)
}

func smolHasUsage(steps []smolStep) bool {
	for _, st := range steps {
		if st.TokenUsage != nil {
			return true
		}
	}
	return false
}

// smolTokenCounts reads a run's token totals, a dict or its Python repr.
func smolTokenCounts(raw json.RawMessage) (u struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}, ok bool) {
	if s := scalar(raw); len(raw) > 0 && raw[0] == '"' {
		js, parsed := pyLiteralJSON(s)
		if !parsed {
			return u, false
		}
		raw = js
	}
	return u, json.Unmarshal(raw, &u) == nil && (u.InputTokens > 0 || u.OutputTokens > 0)
}
