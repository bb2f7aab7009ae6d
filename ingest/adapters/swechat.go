package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// SWE-agent runs kept as the chat the model had (Nebius' SWE-agent
// trajectories, 80,000 runs of SWE-agent 0.x published as a dataset): each
// run an object whose "trajectory" lists the messages, {"role": "system" |
// "user" | "ai", "text": ...}, beside the task's "instance_id", the
// "model_name" and the run's "exit_status". The model's turn writes its
// thought and then its command in a fenced block, the next user message is
// the observation, as SWE-agent's template wrote it.

// sweChatMessage is a message of the chat form: Nebius' datasets keep its
// words in "text", a conversation in "content".
type sweChatMessage struct {
	Role    string          `json:"role"`
	Text    *string         `json:"text"`
	Content json.RawMessage `json:"content"`
}

func (m sweChatMessage) words() string {
	if m.Text != nil {
		return *m.Text
	}
	return text(m.Content)
}

// sweChatRoles are the roles the chat form's messages take.
var sweChatRoles = map[string]bool{"system": true, "user": true, "ai": true, "assistant": true}

// sweChatKey says where obj keeps a run in the chat form: a "trajectory"
// whose first message has a role and a text (or the system prompt), no
// action, beside one of the run's own fields (Nebius' form); or a list of
// chat messages under "messages" or "history" of which a user message ends
// with SWE-agent's prompt, `(Current directory: D)` and `bash-$` (a
// conversation of SWE-agent 0.x kept without its .traj entries). A .traj,
// whose "trajectory" lists actions, is not one.
func sweChatKey(obj map[string]json.RawMessage) (string, bool) {
	if obj == nil {
		return "", false
	}
	if el, ok := firstElement(obj["trajectory"]); ok && el != nil {
		var first struct {
			Role         *string          `json:"role"`
			Text         *json.RawMessage `json:"text"`
			SystemPrompt *json.RawMessage `json:"system_prompt"`
			Action       *json.RawMessage `json:"action"`
		}
		if json.Unmarshal(el, &first) != nil || first.Action != nil || first.Role == nil {
			return "", false
		}
		own := hasAnyKey(obj, "instance_id", "model_name", "exit_status", "generated_patch")
		return "trajectory", own && sweChatRoles[*first.Role] && (first.Text != nil || first.SystemPrompt != nil)
	}
	for _, key := range []string{"messages", "history"} {
		raw, ok := obj[key]
		if !ok || !bytes.Contains(raw, []byte("(Current directory: ")) {
			continue
		}
		var msgs []sweChatMessage
		if json.Unmarshal(raw, &msgs) != nil {
			continue
		}
		for _, m := range msgs {
			if m.Role == "user" && reSWEPrompt.MatchString(m.words()) {
				return key, true
			}
		}
	}
	return "", false
}

// hasAnyKey reports whether obj has one of keys.
func hasAnyKey(obj map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// sweChatsOf returns the runs of a document in the chat form: the object
// itself, or each element of a JSON array whose first element is one.
func sweChatsOf(d *Doc) ([]json.RawMessage, bool) {
	switch {
	case d.IsObject():
		if _, ok := sweChatKey(d.obj); ok {
			return []json.RawMessage{d.Raw}, true
		}
	case d.IsArray() && len(d.arr) > 0:
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) == nil {
			if _, ok := sweChatKey(first); ok {
				return d.arr, true
			}
		}
	}
	return nil, false
}

// convertSWEChats converts each run of the chat form: a run of an array is
// named by its index and the task's instance_id (or the conversation's own
// id), as a conversation is.
func convertSWEChats(d *Doc, chats []json.RawMessage, emit func(*schema.Step) error) error {
	many := d.IsArray()
	for i, raw := range chats {
		fail := func(err error) error {
			if many {
				return fmt.Errorf("element %d: %v", i, err)
			}
			return err
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fail(jsonError(err))
		}
		key, ok := sweChatKey(obj)
		if !ok {
			return fail(errors.New("not a SWE-agent run kept as its chat, as the first element is"))
		}
		var msgs []sweChatMessage
		if err := json.Unmarshal(obj[key], &msgs); err != nil {
			return fail(jsonError(err))
		}
		id := scalar(obj["instance_id"])
		if id == "" {
			id = ownID(obj)
		}
		r := d.newRun(runName(d, i, many, id))
		var turns []sweTurn
		for j, m := range msgs {
			if m.Role != "ai" && m.Role != "assistant" {
				continue
			}
			thought, action := sweThoughtAction(m.words())
			obs := ""
			if j+1 < len(msgs) && msgs[j+1].Role == "user" {
				obs = sweObservation(msgs[j+1].words())
			}
			turns = append(turns, sweTurn{pos: j, action: action, thought: thought, obs: obs})
		}
		// A stripped chat keeps no observation, and so no message that a
		// command printed nothing either.
		sweSteps(r, turns, nil)
		if len(r.steps) == 0 {
			return fail(errors.New("the chat has no turn of the model"))
		}
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// reSWEFence opens or closes a fenced block at the start of a line, as
// SWE-agent 0.x's ThoughtActionParser finds them: an opening may name a
// language, a closing is the fence alone.
var reSWEFence = regexp.MustCompile("(?m)^```(\\S*)[ \\t\\r]*\\n|^```[ \\t\\r]*$")

// sweThoughtAction splits a model turn as SWE-agent 0.x does: the action is
// the last fenced block not nested in another, the thought the words
// around it; a turn without one ran nothing (the harness answered it with
// a format error).
func sweThoughtAction(words string) (thought, action string) {
	var stack [][2]int // the open fences: where each begins and its line ends
	var open, close []int
	for _, m := range reSWEFence.FindAllStringSubmatchIndex(words, -1) {
		opening := m[2] >= 0
		if len(stack) > 0 && (!opening || m[3] == m[2]) {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				open, close = o[:], m
			}
			continue
		}
		if opening {
			stack = append(stack, [2]int{m[0], m[1]})
		}
	}
	if open == nil {
		return words, ""
	}
	thought = words[:open[0]] + words[close[1]:]
	return strings.TrimSpace(thought), strings.TrimSpace(words[open[1]:close[0]])
}

// reSWEPrompt is the end SWE-agent 0.x's template adds to each
// observation: the open file, the directory, the shell's prompt.
var reSWEPrompt = regexp.MustCompile(`\n?\(Open file: [^\n]*\)\n\(Current directory: [^\n]*\)\n?(?:bash-\$)?\s*$`)

// sweObservation is the tool's output in the user message that answers a
// turn: without the template's end, and empty when the message is
// SWE-agent's stand-in for a command that printed nothing.
func sweObservation(msg string) string {
	obs := reSWEPrompt.ReplaceAllString(msg, "")
	if reSWENoOutput.MatchString(strings.TrimSpace(obs)) {
		return ""
	}
	return obs
}
