package adapters

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// MiniSWEAgent reads mini-swe-agent's .traj.json files: one JSON document
// per run holding the whole conversation ("messages") and, under "info",
// the exit status and model statistics. The agent writes one shell command
// per turn in a ```bash block (or, with tool-calling models, a bash tool
// call); the harness answers with <returncode> and <output>.
var MiniSWEAgent = &Format{
	Name:      "mini-swe-agent",
	Title:     "mini-swe-agent trajectories (.traj.json)",
	Recognize: recognizeMini,
	Convert:   convertMini,
}

type miniTraj struct {
	Messages []miniMessage `json:"messages"`
	Info     struct {
		ModelStats struct {
			InstanceCost float64 `json:"instance_cost"`
		} `json:"model_stats"`
	} `json:"info"`
	InstanceID string `json:"instance_id"`
}

func recognizeMini(d *Doc) error {
	if !d.IsObject() {
		return errors.New("not a JSON object")
	}
	if !d.Has("messages") {
		return errors.New(`no "messages" list`)
	}
	if tf, ok := d.obj["trajectory_format"]; ok && strings.Contains(string(tf), "mini-swe-agent") {
		return nil
	}
	if info, ok := d.obj["info"]; ok && (strings.Contains(string(info), `"mini_version"`) || strings.Contains(string(info), "minisweagent")) {
		return nil
	}
	return errors.New(`no "trajectory_format": "mini-swe-agent-..." nor "info.mini_version"`)
}

var (
	reMiniAction     = regexp.MustCompile("(?s)```bash\\s*\\n(.*?)\\n```")
	reMiniReturnCode = regexp.MustCompile(`<returncode>\s*(-?\d+)\s*</returncode>`)
	reMiniOutput     = regexp.MustCompile(`(?s)<output>\n?(.*?)</output>`)
	reMiniHead       = regexp.MustCompile(`(?s)<output_head>\n?(.*?)</output_head>`)
	reMiniTail       = regexp.MustCompile(`(?s)<output_tail>\n?(.*?)</output_tail>`)
)

// miniSubmit is the line mini-swe-agent's prompts ask the agent to echo to
// hand in its work.
var miniSubmit = []string{"COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT"}

// miniFormatRule reads mini-swe-agent's rejection of a turn it could not
// read as one action (the ATIF adapter reads it too, in what Harbor
// copies of mini-swe-agent's replies).
var miniFormatRule = OutputRule{
	Name: "format-error", ErrorType: "FORMAT_ERROR", ViewsToo: true, Harness: true,
	Doc: "the harness rejected the turn: the reply begins `Please always provide EXACTLY ONE action`, `No tool calls found` or `Could not extract function name`",
	match: func(o *output) (string, bool) {
		return "", miniFormatError(o.text)
	},
}

// miniKilledRule reads mini-swe-agent's own account of a command it
// stopped: its timeout message, or the exception its environment raised
// running the command, written before the output.
var miniKilledRule = OutputRule{
	Name: "mini-killed", ErrorType: schema.ErrTimeout, ViewsToo: true, Harness: true,
	Doc: "the harness stopped the command, and says so before its output: `The last command <command>CMD</command> timed out and has been killed.` (the research fork's `The last action timed out and has been killed.`), or the exception its environment raised running the command, `<exception>An error occurred while executing the command: ...</exception>` (`TIMEOUT` when it ends `timed out after N seconds`, else `ERROR`)",
	match: func(o *output) (string, bool) {
		t := strings.TrimSpace(o.text)
		if reMiniTimedOut.MatchString(t) {
			return "", true
		}
		rest, ok := strings.CutPrefix(t, "<exception>")
		if !ok {
			return "", false
		}
		if end := strings.Index(rest, "</exception>"); end >= 0 && !reMiniExceptionTimeout.MatchString(rest[:end]) {
			return "ERROR", true
		}
		return "", true
	},
}

var (
	// reMiniTimedOut is the first line of mini-swe-agent's
	// timeout_template (and of the research fork's).
	reMiniTimedOut = regexp.MustCompile(`^The last (?:command <command>(?s:.*?)</command>|action) timed out and has been killed\.`)
	// reMiniExceptionTimeout ends the message of the exception a command
	// run past the environment's time limit raises.
	reMiniExceptionTimeout = regexp.MustCompile(`timed out after [\d.]+ seconds\.?\s*$`)
)

var miniStyle = chatStyle{
	textAction:    miniTextAction,
	refusedAction: miniRefusedAction,
	harnessError:  miniFormatError,
	observation:   miniObservation,
	rules:         []OutputRule{miniFormatRule, miniKilledRule},
	stop: func(tool string, args json.RawMessage) bool {
		return miniEchoesSubmit(string(args))
	},
}

// miniFormatError recognises the harness's rejection of a turn: a reply
// that begins with it. A command's output that merely holds the words (a
// cat of the harness's own config) ran, and is not one.
func miniFormatError(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "Please always provide EXACTLY ONE action") || strings.HasPrefix(s, "No tool calls found") ||
		strings.HasPrefix(s, "Could not extract function name")
}

// miniTextAction reads the action of a turn: its single ```bash block; or,
// when the harness ran something without one (it answered with a
// <returncode>: variants whose action is a Python function), the turn's
// text without its comment lines. A turn the harness rejected has none.
func miniTextAction(content, reply string) (string, bool) {
	if miniFormatError(reply) {
		return "", false
	}
	m := reMiniAction.FindAllStringSubmatch(content, -1)
	if len(m) == 1 {
		return strings.TrimSpace(m[0][1]), true
	}
	if !reMiniReturnCode.MatchString(reply) && !reMiniTimedOut.MatchString(strings.TrimSpace(reply)) {
		return "", false
	}
	var b strings.Builder
	for _, line := range strings.Split(content, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "THOUGHT:") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimSpace(b.String()), true
}

// miniObservation reads the harness's reply: the exit code from
// <returncode>, the output from <output>, or from <output_head> and
// <output_tail> when the harness elided the middle of a long output. A
// reply in neither shape (a format error) is kept whole. The harness's
// account of a command it stopped, written before the output (a timeout's
// first line, an <exception>), is kept before it.
func miniObservation(content string) (string, *int) {
	out, exit := miniOutput(content)
	t := strings.TrimSpace(content)
	if m := reMiniTimedOut.FindString(t); m != "" && out != content {
		return m + "\n" + out, exit
	}
	if strings.HasPrefix(t, "<exception>") && out != content {
		if end := strings.Index(t, "</exception>"); end >= 0 {
			return t[:end+len("</exception>")] + "\n" + out, exit
		}
	}
	return out, exit
}

// miniOutput is the output and the exit code a reply holds.
func miniOutput(content string) (string, *int) {
	var exit *int
	if m := reMiniReturnCode.FindStringSubmatch(content); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			exit = &n
		}
	}
	if m := reMiniOutput.FindStringSubmatch(content); m != nil {
		return m[1], exit
	}
	head, tail := reMiniHead.FindStringSubmatch(content), reMiniTail.FindStringSubmatch(content)
	if head != nil || tail != nil {
		var b strings.Builder
		if head != nil {
			b.WriteString(head[1])
		}
		if tail != nil {
			b.WriteString("\n")
			b.WriteString(tail[1])
		}
		return b.String(), exit
	}
	if out, code, ok := miniDictObservation(content); ok {
		return out, code
	}
	return content, exit
}

// miniDictObservation reads a reply whose template printed the
// environment's whole result, not its fields: mini-swe-agent's
// action_observation_template is the user's, and one written
// `Observation: {{output}}` renders the result as Python prints a dict,
// `{'output': 'bash: line 1: x: command not found\n', 'returncode': 0}`.
// The output is the dict's string, unescaped as Python wrote it, and the
// exit code its returncode (none when None). A reply without such a dict,
// or one that does not parse to its returncode, is not one.
func miniDictObservation(content string) (string, *int, bool) {
	const key = "{'output': "
	i := strings.Index(content, key)
	if i < 0 {
		return "", nil, false
	}
	rest := content[i+len(key):]
	out, n, ok := pyStringLiteral(rest)
	rest = rest[min(n, len(rest)):]
	if !ok || !strings.HasPrefix(rest, ", 'returncode': ") {
		return "", nil, false
	}
	rest = rest[len(", 'returncode': "):]
	end := strings.IndexAny(rest, ",}")
	if end < 0 {
		return "", nil, false
	}
	v := strings.TrimSpace(rest[:end])
	if v == "None" {
		return out, nil, true
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return "", nil, false
	}
	return out, &n, true
}

// miniExtra is what mini-swe-agent 1.1 and later keep of each message
// besides its text: when it was written, and of the model's turns the
// response's model and usage and the turn's cost.
type miniExtra struct {
	Extra *struct {
		Timestamp float64 `json:"timestamp"`
		Cost      float64 `json:"cost"`
		Response  *struct {
			Model string `json:"model"`
			Usage *struct {
				Prompt     int64 `json:"prompt_tokens"`
				Completion int64 `json:"completion_tokens"`
				Details    *struct {
					Cached int64 `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		} `json:"response"`
	} `json:"extra"`
}

// miniMessage is a message of the trajectory with its "extra", read in
// the one pass over the file.
type miniMessage struct {
	chatMessage
	miniExtra
}

// miniMessages are the messages as chat messages, their times and the
// model's turns' usage set from their "extra"; usage reports whether any
// turn had its usage.
func miniMessages(in []miniMessage) (msgs []chatMessage, usage bool) {
	msgs = make([]chatMessage, len(in))
	for i := range in {
		msgs[i] = in[i].chatMessage
		x := in[i].Extra
		if x == nil {
			continue
		}
		msgs[i].ts = epochTS(x.Timestamp)
		if msgs[i].Role != "assistant" || x.Response == nil || x.Response.Usage == nil {
			continue
		}
		u := x.Response.Usage
		msgs[i].usage = &schema.Usage{PromptTokens: u.Prompt, CompletionTokens: u.Completion, CostUSD: max(x.Cost, 0), Model: x.Response.Model}
		if u.Details != nil {
			msgs[i].usage.CacheReadTokens = min(u.Details.Cached, u.Prompt)
		}
		usage = true
	}
	return msgs, usage
}

func convertMini(d *Doc, emit func(*schema.Step) error) error {
	var t miniTraj
	if err := json.Unmarshal(d.Raw, &t); err != nil {
		return jsonError(err)
	}
	msgs, perTurn := miniMessages(t.Messages)
	markUnsubmitted(msgs)
	r := d.newRun(runName(d, 0, false, ""))
	convertChat(r, msgs, miniStyle)
	switch {
	case !perTurn:
		r.spreadUsage(0, 0, t.Info.ModelStats.InstanceCost)
	case t.Info.ModelStats.InstanceCost > 0 && !stepsCost(r.steps):
		// Tokens a turn, the cost only in total: the total shared out,
		// the tokens kept.
		r.spreadCost(t.Info.ModelStats.InstanceCost)
	}
	if len(r.steps) == 0 {
		return errors.New("the conversation has no assistant turn")
	}
	return r.emit(emit)
}

// stepsCost reports whether any step carries a cost of its own.
func stepsCost(steps []*schema.Step) bool {
	for _, s := range steps {
		if s.Usage != nil && s.Usage.CostUSD > 0 {
			return true
		}
	}
	return false
}

// markUnsubmitted marks the replies to calls that echo the submit line
// whose output shows the line printed after other output: mini-swe-agent
// hands the work in only when the output's first line is the submit line;
// otherwise it shows the agent the output, as of any command, and goes on.
// An output without the line (a harness that cut it off the work handed
// in, or a command that broke before its echo) is left to the rules.
func markUnsubmitted(msgs []chatMessage) {
	for i := 0; i+1 < len(msgs); i++ {
		if msgs[i].Role != "assistant" || msgs[i+1].Role == "assistant" {
			continue
		}
		c := text(msgs[i].Content)
		for _, tc := range msgs[i].ToolCalls {
			c += string(tc.Function.Arguments)
		}
		if !miniEchoesSubmit(c) {
			continue
		}
		out, _ := miniObservation(text(msgs[i+1].Content))
		lines := strings.Split(strings.TrimLeft(out, " \t\r\n"), "\n")
		for k, l := range lines {
			if l = strings.TrimSpace(l); l == miniSubmit[0] || l == miniSubmit[1] {
				msgs[i+1].answeredOn = k > 0
				break
			}
		}
	}
}

// miniEchoesSubmit reports whether an action holds the submit line.
func miniEchoesSubmit(action string) bool {
	for _, m := range miniSubmit {
		if strings.Contains(action, m) {
			return true
		}
	}
	return false
}

// miniRefusedAction reads the action a turn the harness refused for
// holding several actions meant, when they are one: the same bash block
// written twice (a thought restated, its command copied under it). The
// refusal carries it, and is like only the refusals of a like action: a
// view written twice and then sent alone is a slip fixed at once, not the
// first of the refused patches that come later. Blocks that differ meant
// several actions, and a block without its closing fence is read as the
// refusals around it are: neither carries an action.
func miniRefusedAction(content string) (string, bool) {
	m := reMiniAction.FindAllStringSubmatch(content, -1)
	if len(m) < 2 {
		return "", false
	}
	cmd := strings.TrimSpace(m[0][1])
	for _, b := range m[1:] {
		if strings.TrimSpace(b[1]) != cmd {
			return "", false
		}
	}
	return cmd, cmd != ""
}
