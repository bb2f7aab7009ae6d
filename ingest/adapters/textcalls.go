package adapters

import (
	"cmp"
	"encoding/json"
	"regexp"
	"strings"
)

// Agents prompted to write their actions as text, not as tool calls
// (AgentBench's tasks, ReAct loops built by hand, LangChain's ReAct agent
// dumped as messages), answer each environment message with an action line
// and get its outcome in the next user message. Read as a chat, such a run
// was an agent talking to its user; read here, each such turn is a call
// whose result is the reply, so the same action answered alike is a loop
// like any other.

var (
	// reActionLabel is an action line: "Act: bash" (AgentBench's OS
	// tasks), "Action: Operation" (its database tasks), "ACTION: go to
	// shelf 1" (ALFWorld), "Action: search[query]" (WebShop, the action
	// on the next line when the label stands alone), "Action: tool"
	// followed by "Action Input: ..." (LangChain's ReAct prompt).
	reActionLabel     = regexp.MustCompile(`(?im)^[ \t*]*(?:act|action)[ \t*]*:[ \t*]*(.*)$`)
	reActionInput     = regexp.MustCompile(`(?im)^[ \t*]*action[ \t]+input[ \t*]*:[ \t]*`)
	reObservationLine = regexp.MustCompile(`(?im)^[ \t*]*observation[ \t*]*:`)
	reLeadName        = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*`)
	reTextFence       = regexp.MustCompile("(?s)```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```")
	// reHTTPAction is a request written as the action (MedAgentBench's
	// "GET url?params", "POST url" with the payload on the lines after).
	reHTTPAction = regexp.MustCompile(`(?m)^[ \t]*(GET|POST|PUT|PATCH|DELETE)[ \t]+(https?://\S+|/\S*)[ \t]*$`)
	// reInvoking is how LangChain's verbose AgentExecutor prints a tool
	// call of a tool-calling agent: "Invoking: `search` with `{'q': 'x'}`".
	reInvoking = regexp.MustCompile("(?m)^[ \t]*Invoking: `([^`]+)` with `(.*)`[ \t]*$")
	// reFinishAction hands the answer in: "FINISH([...])", "Final Answer: ...".
	reFinishAction = regexp.MustCompile(`(?m)^[ \t*]*(?:FINISH\(|(?i:final answer)[ \t*]*:)`)
)

// finishActions are the action names that hand the answer in and end the
// run.
var finishActions = map[string]bool{"finish": true, "answer": true, "commit": true, "submit": true, "final_answer": true, "final": true}

// textCall reads the action an agent wrote in its turn's text, as
// reActionLabel, reHTTPAction and reFinishAction find it: the tool is the
// action's name as written (a shell command's tool is bash, its command
// the code block after the label; ReAct's "Action:" line whole when an
// "Action Input:" follows it), the arguments what follows it. ok is false for
// a turn that holds none.
func textCall(content string) (tool string, args json.RawMessage, ok bool) {
	if tool, args, ok := taggedCall(content); ok {
		return tool, args, true
	}
	if m := reInvoking.FindStringSubmatch(content); m != nil {
		a := chatFunction{Arguments: mustJSON(strings.TrimSpace(m[2]))}
		return m[1], a.args(), true
	}
	if loc := reActionLabel.FindStringSubmatchIndex(content); loc != nil {
		action := strings.TrimSpace(content[loc[2]:loc[3]])
		rest := content[loc[1]:]
		if action == "" {
			// The label alone on its line: the action is the next line.
			next := strings.TrimLeft(rest, " \t\r\n")
			if i := strings.IndexByte(next, '\n'); i >= 0 {
				next = next[:i]
			}
			if !strings.HasPrefix(next, "```") {
				action = strings.TrimSpace(next)
			}
		}
		if m := reActionInput.FindStringIndex(rest); m != nil && action != "" {
			// ReAct's pair: the tool is the whole action line, as the
			// agent named it ("Delegate Work to Co-Worker"), its input
			// the rest of the turn.
			input := rest[m[1]:]
			if i := reObservationLine.FindStringIndex(input); i != nil {
				input = input[:i[0]]
			}
			return strings.Trim(action, "`'\" "), mustJSON(map[string]string{"input": strings.Trim(strings.TrimSpace(input), `"`)}), true
		}
		name := reLeadName.FindString(action)
		lang, code := "", ""
		if m := reTextFence.FindStringSubmatch(rest); m != nil {
			lang, code = strings.ToLower(m[1]), strings.TrimSpace(m[2])
		}
		low := strings.ToLower(name)
		switch {
		case name == "" && code == "":
			return "", nil, false
		case low == "bash" || low == "shell" || low == "sh" || (name == "" && (lang == "bash" || lang == "sh" || lang == "shell")):
			if code == "" {
				code = strings.TrimSpace(action[len(name):])
			}
			return "bash", mustJSON(map[string]string{"command": code}), true
		case name == "":
			name = cmp.Or(lang, "code")
			return name, mustJSON(map[string]string{"code": code}), true
		case code != "":
			return name, mustJSON(map[string]string{"action": action, "code": code}), true
		}
		return name, mustJSON(map[string]string{"action": action}), true
	}
	if m := reHTTPAction.FindStringSubmatchIndex(content); m != nil {
		method, url := content[m[2]:m[3]], content[m[4]:m[5]]
		body := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(content[m[1]:]), "```"))
		return method, mustJSON(map[string]string{"url": url, "body": body}), true
	}
	if loc := reFinishAction.FindStringIndex(content); loc != nil {
		answer := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(content[loc[0]:]), "```"))
		return "finish", mustJSON(map[string]string{"answer": answer}), true
	}
	return "", nil, false
}

var (
	// reHermesCall is a call open models write as text when the server
	// does not parse their tool calls (the Hermes and Qwen chat
	// templates): `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.
	reHermesCall = regexp.MustCompile(`(?s)<tool_call>\s*(\{.*?\})\s*</tool_call>`)
	// reXMLFunction is the XML form (Qwen3-Coder, OpenHands' prompt for
	// models without function calling): `<function=NAME>` with a
	// `<parameter=KEY>VALUE</parameter>` per argument.
	reXMLFunction  = regexp.MustCompile(`(?s)<function=([A-Za-z0-9_.:-]+)>(.*?)(?:</function>|$)`)
	reXMLParameter = regexp.MustCompile(`(?s)<parameter=([A-Za-z0-9_.:-]+)>\n?(.*?)\n?</parameter>`)
)

// taggedCall reads a call written in tags, as reHermesCall and
// reXMLFunction find it: the first of the turn.
func taggedCall(content string) (tool string, args json.RawMessage, ok bool) {
	if !strings.Contains(content, "<tool_call>") && !strings.Contains(content, "<function=") {
		return "", nil, false
	}
	if m := reHermesCall.FindStringSubmatch(content); m != nil {
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal([]byte(m[1]), &call) == nil && call.Name != "" {
			a := chatFunction{Arguments: call.Arguments}
			return call.Name, a.args(), true
		}
	}
	if m := reXMLFunction.FindStringSubmatch(content); m != nil {
		params := map[string]string{}
		for _, p := range reXMLParameter.FindAllStringSubmatch(m[2], -1) {
			params[p[1]] = p[2]
		}
		return m[1], mustJSON(params), true
	}
	return "", nil, false
}

// finishesRun reports whether a text call hands the answer in.
func finishesRun(tool string, args json.RawMessage) bool {
	return finishActions[strings.ToLower(tool)]
}

// textCalls reports whether a conversation's agent writes its actions as
// text: no message holds a tool call, one agent speaks (a conversation
// of named agents is read turn by turn, chat.go), and at least half of
// its turns, one at least, hold an action textCall reads. An assistant
// that now and then writes "Action:" to a person keeps its turns.
func textCalls(msgs []chatMessage) bool {
	turns, actions, name := 0, 0, ""
	for i := range msgs {
		m := &msgs[i]
		if len(m.ToolCalls) > 0 || m.FunctionCall != nil {
			return false
		}
		if m.Role != "assistant" {
			continue
		}
		if turns > 0 && m.Name != name {
			return false
		}
		name = m.Name
		turns++
		if _, _, ok := textCall(text(m.Content)); ok {
			actions++
		}
	}
	return actions > 0 && 2*actions >= turns
}

// observationLabels open an environment's answer to a text action, before
// what the action printed: AgentBench's OS task ("The output of the OS:"),
// MedAgentBench ("Here is the response from the GET request:"), ReAct's
// "Observation:".
var observationLabels = []string{"The output of the OS:", "Here is the response from the GET request:", "Observation:"}

// emptyObservation is AgentBench's OS task's answer to a command that
// printed nothing.
const emptyObservation = "The output of the OS is empty."

// textObservation is the output of a text action: the environment's
// answer without the label it opens with, or the `<tool_response>` tags
// the Hermes and Qwen templates wrap it in.
func textObservation(content string) (string, *int) {
	t := strings.TrimLeft(content, " \t\r\n")
	if rest, ok := strings.CutPrefix(t, "<tool_response>"); ok {
		rest, _, _ = strings.Cut(rest, "</tool_response>")
		return strings.Trim(rest, "\n"), nil
	}
	if strings.TrimSpace(t) == emptyObservation {
		return "", nil
	}
	if loc := reOHLabel.FindStringIndex(t); loc != nil {
		return openHandsShellEnd(t[loc[1]:])
	}
	for _, l := range observationLabels {
		if len(t) >= len(l) && strings.EqualFold(t[:len(l)], l) {
			return openHandsShellEnd(strings.TrimLeft(t[len(l):], " \t\r\n"))
		}
	}
	return openHandsShellEnd(content)
}

var textCallStyle = chatStyle{
	textCall:    textCall,
	observation: textObservation,
	rules:       openAIStyle.rules,
	stop:        finishesRun,
}
