package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// ATIF reads the Agent Trajectory Interchange Format, the trajectory.json
// Harbor writes for every agent it runs (Terminus, Claude Code, Codex,
// OpenHands, mini-swe-agent, ...) and that other tools export: one JSON
// object, {"schema_version": "ATIF-v1.x", "session_id", "agent": {"name",
// "version", "model_name"}, "steps", "final_metrics",
// "subagent_trajectories"}. Each step has a "step_id" (from 1), a
// "source" (system, user or agent), the "message", the agent's
// "reasoning_content", its "tool_calls" ({"tool_call_id",
// "function_name", "arguments"}), the "observation" ({"results":
// [{"source_call_id", "content"}]}) and "metrics" (tokens and cost).
var ATIF = &Format{
	Name:       "atif",
	Title:      "Agent Trajectory Interchange Format (Harbor's trajectory.json: steps with tool calls and observations)",
	Recognize:  recognizeATIF,
	Convert:    convertATIF,
	Transcript: isATIFStream,
}

// atifStreamHeader reports whether obj is the first line of a trajectory
// written as JSON Lines as it goes (OpenAgents' .atif.jsonl): the
// trajectory's own fields with "__header__": true, its steps on the lines
// after it.
func atifStreamHeader(obj map[string]json.RawMessage) bool {
	return string(obj["__header__"]) == "true" && strings.HasPrefix(strings.ToUpper(scalar(obj["schema_version"])), "ATIF")
}

// isATIFStream reports whether d is, or opens, such a file.
func isATIFStream(d *Doc) bool { return d.eventOrFirst(atifStreamHeader) }

// atifTrajectory is a trajectory: the fields read. Embedded subagents
// (ATIF v1.7) are trajectories of the same shape.
type atifTrajectory struct {
	SessionID    string `json:"session_id"`
	TrajectoryID string `json:"trajectory_id"`
	Agent        struct {
		Name      string `json:"name"`
		ModelName string `json:"model_name"`
	} `json:"agent"`
	Steps     []json.RawMessage `json:"steps"`
	Subagents []json.RawMessage `json:"subagent_trajectories"`
}

// atifStep is one step: the fields read.
type atifStep struct {
	Timestamp   string          `json:"timestamp"`
	Source      string          `json:"source"`
	ModelName   string          `json:"model_name"`
	Message     json.RawMessage `json:"message"`
	Reasoning   json.RawMessage `json:"reasoning_content"`
	ToolCalls   []atifCall      `json:"tool_calls"`
	Observation *struct {
		Results []atifResult `json:"results"`
	} `json:"observation"`
	Metrics *struct {
		PromptTokens     looseCount `json:"prompt_tokens"`
		CompletionTokens looseCount `json:"completion_tokens"`
		CachedTokens     looseCount `json:"cached_tokens"`
		CostUSD          looseCost  `json:"cost_usd"`
	} `json:"metrics"`
}

type atifCall struct {
	ID        string          `json:"tool_call_id"`
	Name      string          `json:"function_name"`
	Arguments json.RawMessage `json:"arguments"`
}

type atifResult struct {
	SourceCallID string          `json:"source_call_id"`
	Content      json.RawMessage `json:"content"`
}

// looseCost is a cost in US dollars that a producer may write as a number
// or leave null; anything that is no plausible cost reads as none.
type looseCost float64

func (c *looseCost) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > schema.MaxPlausibleCostUSD {
		f = 0
	}
	*c = looseCost(f)
	return nil
}

func recognizeATIF(d *Doc) error {
	if isATIFStream(d) {
		return nil
	}
	if !d.IsObject() {
		return errors.New(`not a JSON object with "schema_version": "ATIF-v..." and "steps"`)
	}
	version := scalar(d.obj["schema_version"])
	if !strings.HasPrefix(strings.ToUpper(version), "ATIF") {
		return errors.New(`no "schema_version" naming ATIF ("ATIF-v1.4")`)
	}
	if first, ok := firstElement(d.obj["steps"]); !ok || first != nil && !strings.Contains(string(first), `"source"`) {
		return errors.New(`"steps" is not a list of steps ("step_id", "source", "message", ...)`)
	}
	return nil
}

// atifRules are the rules for what a harness writing ATIF answers,
// before the shared ones: Terminus's and mini-swe-agent's answers to a
// response they could not read as an action.
var atifRules = []OutputRule{miniFormatRule, miniKilledRule, {
	Name: "harness-parse-error", ErrorType: schema.ErrFormatError, ViewsToo: true, Harness: true,
	Doc: "the harness could not read the agent's response as an action and ran nothing: the observation begins `Previous response had parsing errors:` (Terminus's answer to a response that is not the JSON of commands it asks for)",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "Previous response had parsing errors:")
	},
}}

// atifClaudeCode reports whether the trajectory is Claude Code's, whose
// tools answer in Claude Code's words (anthropicRules).
func atifClaudeCode(agent string) bool {
	return strings.Contains(strings.ToLower(agent), "claude")
}

// atifStops are the tools whose call hands the work in: the run's STOP.
var atifStops = map[string]bool{
	"mark_task_complete": true, "task_complete": true, "task_done": true, "finish": true,
	"submit": true, "attempt_completion": true, "final_answer": true, "done": true,
}

func convertATIF(d *Doc, emit func(*schema.Step) error) error {
	// The top level is parsed already (d.obj): only its members are
	// decoded, not the document again, in a fixed order so that the same
	// bad document always gets the same error.
	// A trajectory written as JSON Lines: the header line holds its own
	// fields, the other lines are its steps as they are.
	obj, streamed := d.obj, !d.IsObject() && isATIFStream(d)
	if streamed {
		if err := json.Unmarshal(d.arr[0], &obj); err != nil {
			return jsonError(err)
		}
	}
	var tr atifTrajectory
	for _, m := range []struct {
		key string
		dst any
	}{{"session_id", &tr.SessionID}, {"trajectory_id", &tr.TrajectoryID}, {"agent", &tr.Agent},
		{"steps", &tr.Steps}, {"subagent_trajectories", &tr.Subagents}} {
		if raw, ok := obj[m.key]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, m.dst); err != nil {
				return fmt.Errorf("%q: %v", m.key, jsonError(err))
			}
		}
	}
	if streamed {
		tr.Steps = d.arr[1:]
	}
	id := firstNonEmpty(tr.SessionID, tr.TrajectoryID)
	main, err := buildATIFRun(d, runName(d, 0, false, id), &tr)
	if err != nil {
		return err
	}
	runs := []*run{main}
	// Embedded subagents (ATIF v1.7) are runs of their own, named after
	// the parent and their trajectory id; a subagent in a file of its own
	// (a reference's trajectory_path) is read as that file. Every run is
	// built before any is emitted: a bad subagent rejects the document
	// whole, not after its parent went out.
	for i, raw := range tr.Subagents {
		var sub atifTrajectory
		if err := json.Unmarshal(raw, &sub); err != nil {
			return fmt.Errorf("subagent trajectory %d: %v", i, jsonError(err))
		}
		subID := firstNonEmpty(sub.TrajectoryID, sub.SessionID, "subagent-"+strconv.Itoa(i))
		if id != "" {
			subID = id + "#" + subID
		}
		if sub.Agent.ModelName == "" {
			sub.Agent.ModelName = tr.Agent.ModelName
		}
		r, err := buildATIFRun(d, runName(d, 0, false, subID), &sub)
		if err != nil {
			return fmt.Errorf("subagent trajectory %d: %v", i, err)
		}
		runs = append(runs, r)
	}
	for _, r := range runs {
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// buildATIFRun converts one trajectory's steps into the run named name.
func buildATIFRun(d *Doc, name string, tr *atifTrajectory) (*run, error) {
	steps := make([]atifStep, len(tr.Steps))
	lastAgent := -1
	for i, el := range tr.Steps {
		if err := json.Unmarshal(el, &steps[i]); err != nil {
			return nil, fmt.Errorf("step %d: %v", i, jsonError(err))
		}
		if steps[i].Source == "agent" {
			lastAgent = i
		}
	}
	rules := atifRules
	if atifClaudeCode(tr.Agent.Name) {
		rules = append(append([]OutputRule(nil), anthropicRules...), atifRules...)
	}
	r := d.newRun(name)
	pos := 0
	for i := range steps {
		st := &steps[i]
		at := pos
		pos++
		if st.Source != "agent" {
			continue // a system prompt, the user's turn: not the agent's move
		}
		ts := ohTS(st.Timestamp)
		reason := firstNonEmpty(text(st.Message), text(st.Reasoning))
		var usage *schema.Usage
		if m := st.Metrics; m != nil && (m.PromptTokens > 0 || m.CompletionTokens > 0 || m.CostUSD > 0) {
			usage = &schema.Usage{PromptTokens: int64(m.PromptTokens), CompletionTokens: int64(m.CompletionTokens),
				CacheReadTokens: int64(m.CachedTokens), CostUSD: float64(m.CostUSD), Model: firstNonEmpty(st.ModelName, tr.Agent.ModelName)}
			if usage.CacheReadTokens > usage.PromptTokens {
				usage.CacheReadTokens = usage.PromptTokens
			}
		}
		var results []atifResult
		if st.Observation != nil {
			results = st.Observation.Results
		}
		if len(st.ToolCalls) == 0 {
			s := r.add(at, "")
			s.TS, s.Usage = ts, usage
			setReason(s, reason)
			switch {
			case len(results) > 0:
				// The harness acted on the response without a structured
				// call (a response it could not parse, a text action): the
				// response is the action, the observation its answer.
				s.State = schema.StateAct.String()
				out := atifContent(results)
				errType, empty := r.classify(out, false, false, rules)
				if errType == schema.ErrFormatError {
					setCall(s, "format_error", map[string]string{"invalid": "no action the harness could read"})
				} else {
					setCall(s, "action", map[string]string{"text": clip(text(st.Message), maxReason)})
				}
				r.setResult(s, out, errType, empty)
			case i+1 < len(steps) && steps[i+1].Source == "user":
				// Talking to the user is an action answered by the user.
				r.setMessage(s, text(st.Message), text(steps[i+1].Message), "")
				s.Intent = schema.IntentUser
			case i == lastAgent:
				s.State = schema.StateStop.String()
			}
			continue
		}
		answers := atifAnswers(st.ToolCalls, results)
		for k := range st.ToolCalls {
			c := &st.ToolCalls[k]
			s := r.add(at+k, schema.StateAct.String())
			s.TS = ts
			if k == 0 {
				setReason(s, reason)
				s.Usage = usage
			}
			tool, args := firstNonEmpty(c.Name, "tool"), c.Arguments
			if !filled(args) {
				args = json.RawMessage("{}")
			}
			if thinkTool(tool) {
				setThought(s, args)
				continue
			}
			setRawCall(s, tool, args)
			if atifStops[tool] {
				s.State = schema.StateStop.String()
			}
			if answers[k] < 0 {
				continue
			}
			search, view := atifToolKind(tool, args)
			if search {
				s.Intent = searchIntent
			}
			r.noteView(s, view)
			out, code, coded := atifOutput(text(results[answers[k]].Content))
			errType, empty := r.classify(out, search, view, rules)
			if coded && code != 0 && errType == "" && !empty && !r.strip {
				// The command's exit code, as Harbor writes it into the
				// text: what the rules read says how it failed, when they
				// read anything; a search exiting 1 found nothing.
				if cmd, shell := shellCallCommand(tool, args); shell && foundNothing(cmd, code) {
					empty = true
				} else {
					errType = "EXIT_CODE"
				}
			}
			r.setResult(s, out, errType, empty)
		}
		pos += len(st.ToolCalls) - 1
	}
	if len(r.steps) == 0 {
		return nil, errors.New("no agent step")
	}
	return r, nil
}

// atifAnswers finds, for each call of a step, the index of its result in
// results (-1 when none): the result whose source_call_id is the call's
// id; else, for results that name no call, in order, the last such result
// answering the last call without one (Terminus types several commands
// and reports the terminal's screen once, after the last).
func atifAnswers(calls []atifCall, results []atifResult) []int {
	out := make([]int, len(calls))
	used := make([]bool, len(results))
	for k, c := range calls {
		out[k] = -1
		if c.ID == "" {
			continue
		}
		for j, res := range results {
			if !used[j] && res.SourceCallID == c.ID {
				out[k], used[j] = j, true
				break
			}
		}
	}
	var free []int
	for j, res := range results {
		if !used[j] && res.SourceCallID == "" {
			free = append(free, j)
		}
	}
	var open []int
	for k := range calls {
		if out[k] < 0 {
			open = append(open, k)
		}
	}
	if len(free) == 0 || len(open) == 0 {
		return out
	}
	if len(free) >= len(open) {
		for n, k := range open {
			out[k] = free[n]
		}
		return out
	}
	// Fewer results than calls: they answer the last calls, the last
	// result the last call.
	shift := len(open) - len(free)
	for n, j := range free {
		out[open[shift+n]] = j
	}
	return out
}

// reATIFExitCode is the line Harbor's Claude Code converter writes after a
// Bash result's [stdout] and [stderr] parts when the command exited
// non-zero.
var reATIFExitCode = regexp.MustCompile(`(?m)^\[exit_code\] (-?\d{1,9})\s*$`)

// atifOutput is what a result's text says the command printed, and its
// exit code when the text gives one: mini-swe-agent's reply as Harbor
// copies it (<returncode>, then the output in <output>) is read as the
// mini-swe-agent adapter reads it; Harbor's Claude Code results end with
// an [exit_code] line.
func atifOutput(content string) (out string, code int, ok bool) {
	if strings.Contains(content, "<returncode>") {
		if o, exit := miniObservation(content); exit != nil {
			return o, *exit, true
		}
	}
	code, ok = atifExitCode(content)
	return content, code, ok
}

// atifExitCode is the exit code a result's text ends with, if any.
func atifExitCode(out string) (int, bool) {
	if !strings.Contains(out, "[exit_code]") {
		return 0, false // most results: no regular expression run over them
	}
	m := reATIFExitCode.FindAllStringSubmatch(out, -1)
	if len(m) == 0 {
		return 0, false
	}
	code, err := strconv.Atoi(m[len(m)-1][1])
	return code, err == nil
}

// atifContent joins the contents of an observation's results.
func atifContent(results []atifResult) string {
	var b strings.Builder
	for _, res := range results {
		if t := text(res.Content); t != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

// atifToolKind says whether a call searches or shows a file: a command
// typed into the terminal (Harbor's bash_command, its "keystrokes" or its
// "command") by what the command runs, else as Claude Code's tools and the
// other chat tools are read.
func atifToolKind(tool string, args json.RawMessage) (search, view bool) {
	if cmd, ok := shellCallCommand(tool, args); ok {
		return commandSearches(cmd), viewsFiles(cmd)
	}
	return anthropicToolKind(tool, args)
}
