package adapters

import (
	"encoding/json"
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

// sweChat is one run in the chat form.
type sweChat struct {
	InstanceID string `json:"instance_id"`
	Trajectory []struct {
		Role string  `json:"role"`
		Text *string `json:"text"`
	} `json:"trajectory"`
}

// sweChatRoles are the roles the chat form's messages take.
var sweChatRoles = map[string]bool{"system": true, "user": true, "ai": true, "assistant": true}

// isSWEChat reports whether obj is a run in the chat form: a "trajectory"
// whose first message has a role and a text (or the system prompt), no
// action, beside one of the run's own fields.
func isSWEChat(obj map[string]json.RawMessage) bool {
	if obj == nil || !(has(obj, "instance_id") || has(obj, "model_name") || has(obj, "exit_status") || has(obj, "generated_patch")) {
		return false
	}
	el, ok := firstElement(obj["trajectory"])
	if !ok || el == nil {
		return false
	}
	var first struct {
		Role         *string          `json:"role"`
		Text         *json.RawMessage `json:"text"`
		SystemPrompt *json.RawMessage `json:"system_prompt"`
		Action       *json.RawMessage `json:"action"`
	}
	if json.Unmarshal(el, &first) != nil || first.Role == nil || first.Action != nil {
		return false
	}
	return sweChatRoles[*first.Role] && (first.Text != nil || first.SystemPrompt != nil)
}

func has(obj map[string]json.RawMessage, key string) bool {
	_, ok := obj[key]
	return ok
}

// sweChatsOf returns the runs of a document in the chat form: the object
// itself, or each element of a JSON array whose first element is one.
func sweChatsOf(d *Doc) ([]json.RawMessage, bool) {
	switch {
	case d.IsObject() && isSWEChat(d.obj):
		return []json.RawMessage{d.Raw}, true
	case d.IsArray() && len(d.arr) > 0:
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) == nil && isSWEChat(first) {
			return d.arr, true
		}
	}
	return nil, false
}

// convertSWEChats converts each run of the chat form: a run of an array is
// named by its index and the task's instance_id, as a conversation is.
func convertSWEChats(d *Doc, chats []json.RawMessage, emit func(*schema.Step) error) error {
	many := d.IsArray()
	for i, raw := range chats {
		var c sweChat
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("element %d: %v", i, jsonError(err))
		}
		r := d.newRun(runName(d, i, many, c.InstanceID))
		var turns []sweTurn
		for j, m := range c.Trajectory {
			if m.Role != "ai" && m.Role != "assistant" {
				continue
			}
			var words string
			if m.Text != nil {
				words = *m.Text
			}
			thought, action := sweThoughtAction(words)
			obs := ""
			if j+1 < len(c.Trajectory) && c.Trajectory[j+1].Role == "user" && c.Trajectory[j+1].Text != nil {
				obs = sweObservation(*c.Trajectory[j+1].Text)
			}
			turns = append(turns, sweTurn{pos: j, action: action, thought: thought, obs: obs})
		}
		// A stripped chat keeps no observation, and so no message that a
		// command printed nothing either.
		sweSteps(r, turns, nil)
		if len(r.steps) == 0 {
			if many {
				return fmt.Errorf("element %d: the trajectory has no turn of the model", i)
			}
			return fmt.Errorf("the trajectory has no turn of the model")
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
