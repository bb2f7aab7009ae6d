package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// TraeAgent reads the trajectory files ByteDance's Trae Agent writes
// (trajectories/trajectory_<time>.json, or the path --trajectory-file
// names): one JSON object per run, {"task", "start_time", "end_time",
// "provider", "model", "max_steps", "llm_interactions", "agent_steps",
// "success", "final_result", "execution_time"}. Each agent step holds the
// model's response ("llm_response": "content", "model", "usage",
// "tool_calls"), the calls it made ("tool_calls": "call_id", "name",
// "arguments") and their results ("tool_results": "call_id", "success",
// "result", "error"), the step's "state" (thinking, calling_tool,
// reflecting, completed, error), its "timestamp", and an "error" when the
// step failed. llm_interactions repeat every prompt sent and are not read.
var TraeAgent = &Format{
	Name:      "trae-agent",
	Title:     "Trae Agent trajectories (trajectory_<time>.json: agent_steps with tool calls and results)",
	Recognize: recognizeTrae,
	Convert:   convertTrae,
}

// traeStep is one agent step: the fields read.
type traeStep struct {
	Timestamp   string `json:"timestamp"`
	State       string `json:"state"`
	LLMResponse *struct {
		Content string `json:"content"`
		Model   string `json:"model"`
		Usage   *struct {
			InputTokens  looseCount `json:"input_tokens"`
			OutputTokens looseCount `json:"output_tokens"`
		} `json:"usage"`
		ToolCalls []traeCall `json:"tool_calls"`
	} `json:"llm_response"`
	ToolCalls   []traeCall `json:"tool_calls"`
	ToolResults []struct {
		CallID  string `json:"call_id"`
		Success *bool  `json:"success"`
		Result  string `json:"result"`
		Error   string `json:"error"`
	} `json:"tool_results"`
	// LLMMessages are the messages the step's calls produced for the next
	// model call: their results, and the harness's own words after them
	// (a user message with content). Kept raw: only a finish's are read.
	LLMMessages json.RawMessage `json:"llm_messages"`
	Error       string          `json:"error"`
}

type traeCall struct {
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func recognizeTrae(d *Doc) error {
	if !d.IsObject() {
		return errors.New(`not a JSON object with "agent_steps" and "llm_interactions"`)
	}
	steps, ok := d.obj["agent_steps"]
	_, interactions := d.obj["llm_interactions"]
	if !ok || !interactions {
		return errors.New(`no "agent_steps" with "llm_interactions"`)
	}
	if first, ok := firstElement(steps); !ok || first != nil && !strings.Contains(string(first), `"step_number"`) {
		return errors.New(`"agent_steps" is not a list of steps ("step_number", "state", ...)`)
	}
	return nil
}

// traeRules are Trae Agent's own output rules, before the shared ones.
var traeRules = []OutputRule{createExistsRule, missingPathRule, {
	Name: "trae-edit-rejected", ErrorType: schema.ErrEditRejected,
	Doc: "the edit tool refused the edit: `No replacement was performed` (the old string not found, or found more than once)",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "No replacement was performed")
	},
}, {
	Name: "trae-usage-error", ErrorType: schema.ErrUsage, ViewsToo: true,
	Doc: "the edit tool was called wrongly: the output begins `Invalid` and a quoted parameter (`` Invalid `view_range` ``: a view range past the end) or `Error executing tool 'NAME': ` (the tool raised on its arguments)",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "Invalid `") || strings.HasPrefix(o.first, "Error executing tool '")
	},
}}

func convertTrae(d *Doc, emit func(*schema.Step) error) error {
	var steps []json.RawMessage
	if err := json.Unmarshal(d.obj["agent_steps"], &steps); err != nil {
		return fmt.Errorf(`"agent_steps": %v`, jsonError(err))
	}
	model := scalar(d.obj["model"])
	r := d.newRun(runName(d, 0, false, ""))
	pos := 0
	for i, el := range steps {
		at := pos
		pos++
		var st traeStep
		if err := json.Unmarshal(el, &st); err != nil {
			return fmt.Errorf("agent step %d: %v", i, jsonError(err))
		}
		ts := ohTS(st.Timestamp)
		var reason string
		var usage *schema.Usage
		calls := st.ToolCalls
		if lr := st.LLMResponse; lr != nil {
			reason = lr.Content
			if len(calls) == 0 {
				calls = lr.ToolCalls
			}
			if u := lr.Usage; u != nil && (u.InputTokens > 0 || u.OutputTokens > 0) {
				usage = &schema.Usage{PromptTokens: int64(u.InputTokens), CompletionTokens: int64(u.OutputTokens), Model: firstNonEmpty(lr.Model, model)}
			}
		}
		if len(calls) == 0 {
			s := r.add(at, "")
			s.TS, s.Usage = ts, usage
			setReason(s, reason)
			switch {
			case st.Error != "":
				// The step failed before any call (the model call itself):
				// a failed call of "model", so failures in a row read so.
				setCall(s, "model", map[string]string{})
				s.State = schema.StateAct.String()
				r.setResult(s, st.Error, errTypeOf(&Span{ErrorText: st.Error}), false)
			case st.State == "completed":
				s.State = schema.StateStop.String()
			}
			continue
		}
		for k := range calls {
			c := &calls[k]
			s := r.add(at+k, schema.StateAct.String())
			s.TS = ts
			if k == 0 {
				setReason(s, reason)
				s.Usage = usage
			}
			name, args := firstNonEmpty(c.Name, "tool"), c.Arguments
			if !filled(args) {
				args = json.RawMessage("{}")
			}
			if traeThinkTool(name) {
				setThought(s, args)
				continue
			}
			setRawCall(s, name, args)
			if name == "task_done" {
				s.State = schema.StateStop.String()
				if refusal := traeFinishRefused(&st); refusal != "" {
					// The harness answered the finish with its own words
					// and the run went on: the finish was refused, whatever
					// the tool's result echoed (or without one, when the
					// harness did not run the tool). The harness's message,
					// kept when the output is stripped.
					r.setResult(s, refusal, schema.ErrRejected, false)
					s.ToolResult.Reason = "the harness refused the finish and the run went on"
					continue
				}
			}
			search, view := anthropicToolKind(name, args)
			if search {
				s.Intent = searchIntent
			}
			for _, tr := range st.ToolResults {
				if tr.CallID != c.CallID || c.CallID == "" && len(st.ToolResults) > 1 {
					continue
				}
				out := joinLine(tr.Result, tr.Error)
				rules := traeRules // the editor's answers; a shell's are its programs'
				if name == "bash" {
					rules = nil
				}
				et, empty := r.classify(out, search, view, rules)
				switch {
				case et != "" || tr.Success == nil || *tr.Success:
				case traeFoundNothing(name, args, tr.Result, tr.Error):
					// A search that failed without a word found nothing.
					et, empty = "", true
				default:
					// The harness's own error message is an error event, not
					// the tool's output: kept when the output is stripped, it
					// names the kind of failure (a timeout) as a span's does.
					et, empty = errTypeOf(&Span{ErrorText: tr.Error}), false
					if editorNoSuchPath(tr.Error) {
						et = "NO_SUCH_FILE" // the editor's own words, in the error field
					}
				}
				r.setResult(s, out, et, empty)
				break
			}
		}
		pos += len(calls) - 1
	}
	if len(r.steps) == 0 {
		return errors.New("no agent step")
	}
	return r.emit(emit)
}

// traeThinkTool reports whether a tool only thinks: Trae Agent's
// sequentialthinking, like the think tool, obtains no information and
// changes nothing.
func traeThinkTool(name string) bool {
	return name == "sequentialthinking" || thinkTool(name)
}

// traeFinishRefused returns Trae Agent's answer to a finish it did not
// accept: a call of task_done whose step's messages for the next model
// call end with a user message of the harness's own that opens `ERROR`
// (its task_incomplete_message, "ERROR! Your Patch is empty. Please
// provide a patch that fixes the problem.", when it must produce a patch
// and the repository's diff is empty). The task_done tool's result only
// echoes the agent's message; the run goes on with this message.
func traeFinishRefused(st *traeStep) string {
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(st.LLMMessages, &msgs) != nil {
		return ""
	}
	for k := len(msgs) - 1; k >= 0; k-- {
		m := msgs[k]
		var text string
		if m.Role != "user" || json.Unmarshal(m.Content, &text) != nil || strings.TrimSpace(text) == "" {
			continue // a tool result (no content of its own)
		}
		if strings.HasPrefix(strings.TrimSpace(text), "ERROR") {
			return text
		}
		return ""
	}
	return ""
}

// traeFoundNothing reports whether a shell call Trae Agent marked failed
// (its exit code, which the trajectory does not keep, was not 0) is a
// search that found nothing: its command line ends in grep or its kin,
// which exit 1 when no line matched and say why on standard error (the
// result's "error") when they fail otherwise, and it printed nothing at
// all. The exit code of `grep -n name file` that matched nothing is all
// such a call gives back, with its output logged or not.
func traeFoundNothing(tool string, args json.RawMessage, result, stderr string) bool {
	if strings.TrimSpace(result) != "" || strings.TrimSpace(stderr) != "" {
		return false
	}
	cmd, ok := shellCallCommand(tool, args)
	return ok && foundNothing(cmd, 1)
}
