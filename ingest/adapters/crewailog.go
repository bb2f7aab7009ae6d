package adapters

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/runawayhq/runaway/schema"
)

// CrewAI's console log since 0.60, what `crewai run` (verbose agents)
// prints: each move of an agent is a block under `# Agent: ROLE`, its
// `## Thought:`, `## Using tool:`, `## Tool Input:` and `## Tool Output:`
// sections printed together once the tool has answered, or its `## Final
// Answer:`; an agent taking up a task prints `# Agent: ROLE` and `## Task:`.
// Between blocks, CrewAI's console formatter draws its progress (a tree of
// the crew, its tasks and agents, boxed panels) and other programs print
// what they print. The agent's words are the same ReAct turns the older
// logs show (its prompt asks for Thought / Action / Action Input), laid out
// by the console.

var (
	// reCrewAIAgent heads a block; reCrewAISection opens a section of it.
	// Copies pasted into Markdown lose the colons (`## Tool Output`).
	reCrewAIAgent   = regexp.MustCompile(`^\s*# Agent:\s*(.*?)\s*$`)
	reCrewAISection = regexp.MustCompile(`^\s*## (Task|Thought|Using tool|Tool Input|Tool Output|Final Answer):?(?:\s|$)`)
	// reCrewAIParseError is what CrewAI prints when it could not read an
	// action in the agent's reply, which it hands back to the agent.
	reCrewAIParseError = regexp.MustCompile(`^\s*Error parsing LLM output, agent will retry\b`)
	// reCrewAIHead: an agent's block and one of its sections, or the
	// console formatter's banner of a crew starting.
	reCrewAIHeadAgent   = regexp.MustCompile(`(?m)^\s*# Agent: \S`)
	reCrewAIHeadSection = regexp.MustCompile(`(?m)^\s*## (?:Task|Using tool|Final Answer|Thought):`)
	reCrewAIBanner      = regexp.MustCompile(`(?m)^\s*╭─+ (?:🚀 )?Crew Execution Started ─+╮`)
)

// crewAIHead reports whether a log opening with head is CrewAI's console
// output: an agent's block with one of its sections, or the banner of a
// crew starting (a long banner can push the first block past the opening
// a directory walk reads).
func crewAIHead(h string) bool {
	// The plain searches first, on the text as written (CrewAI colors
	// the heading and the role apart): the patterns are slow to fail on a
	// long opening, and most logs read here are not CrewAI's.
	agent, banner := strings.Contains(h, "# Agent:"), strings.Contains(h, "Crew Execution Started")
	if !agent && !banner {
		return false
	}
	h = stripANSI(h)
	return (agent && reCrewAIHeadAgent.MatchString(h) && reCrewAIHeadSection.MatchString(h)) ||
		(banner && reCrewAIBanner.MatchString(h))
}

// crewAIFormatterWords are the first words after the symbol of a line the
// console formatter draws: `🚀 Crew: crew`, `└── 📋 Task: ...`, `🤖 Agent:
// ...`, `🧠 Thinking...`, `🔧 Using Tool: ...`, AgentOps' `🖇 AgentOps: ...`.
var crewAIFormatterWords = []string{"Crew", "Task", "Agent", "Thinking", "Using", "Used", "Tool", "Flow", "LLM", "Memory", "Knowledge", "Reasoning", "Guardrail", "AgentOps"}

// crewAIFormatterLine reports whether a line is the console formatter's
// drawing, not the agents' words: it opens (past its indent) with a box
// or tree rune, or with a symbol followed by one of the formatter's words.
// Such a line ends the block before it: an agent's block is printed whole,
// so what comes after it up to the next block is not the agent's.
func crewAIFormatterLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	r, n := utf8.DecodeRuneInString(t)
	if r >= 0x2500 && r <= 0x257f {
		return true // box drawing: a panel's border, a tree's branch
	}
	if r < 0x80 || !unicode.Is(unicode.So, r) {
		return false
	}
	rest := strings.TrimLeft(t[n:], " \ufe0f")
	for _, w := range crewAIFormatterWords {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// crewAIBlock is one block of the log: an agent's section texts by name.
// A parse error CrewAI printed in place of a block is its section "parse
// error".
type crewAIBlock struct {
	role     string
	sections map[string]string
}

// crewAIBlocks cuts the log into blocks in the order printed.
func crewAIBlocks(raw string) []crewAIBlock {
	var blocks []crewAIBlock
	var cur *crewAIBlock
	section := "" // the section being read; "" between blocks
	var b strings.Builder
	flushSection := func() {
		if cur != nil && section != "" {
			cur.sections[section] = strings.Trim(b.String(), " \t\r\n")
		}
		b.Reset()
		section = ""
	}
	endBlock := func() {
		flushSection()
		if cur != nil {
			blocks = append(blocks, *cur)
			cur = nil
		}
	}
	role := "" // the last agent to print a block: a parse error is its
	for line := range strings.SplitSeq(stripANSI(raw), "\n") {
		line = strings.TrimRight(line, "\r")
		if m := reCrewAIAgent.FindStringSubmatch(line); m != nil {
			endBlock()
			role = m[1]
			cur = &crewAIBlock{role: role, sections: map[string]string{}}
			continue
		}
		if reCrewAIParseError.MatchString(line) {
			endBlock()
			cur = &crewAIBlock{role: role, sections: map[string]string{}}
			section = "parse error"
			b.WriteString(strings.TrimSpace(line))
			b.WriteByte('\n')
			continue
		}
		if crewAIFormatterLine(line) {
			endBlock()
			continue
		}
		if cur == nil {
			continue // what the program printed between blocks
		}
		if m := reCrewAISection.FindStringSubmatch(line); m != nil && section != "parse error" {
			flushSection()
			section = m[1]
			b.WriteString(strings.TrimSpace(line[len(m[0]):]))
			b.WriteByte('\n')
			continue
		}
		if section != "" && section != "parse error" && strings.TrimSpace(b.String()) != "" && reCrewAIToolError.MatchString(line) {
			// CrewAI echoes a tool's error (in red) before the block of
			// the call that raised it, whose output holds it: here it
			// follows the section before, which it is no part of.
			flushSection()
			continue
		}
		if section != "" {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	endBlock()
	return blocks
}

// crewAIRun is the run of one agent on one task: its messages as a ReAct
// conversation, and the agent's role.
type crewAIRun struct {
	role string
	msgs []chatMessage
}

// crewAIRuns reads the runs of a CrewAI log: each task an agent takes up
// (its `## Task:` block) opens a run of that agent, which its next blocks
// join up to its final answer. A coworker a manager delegates to prints
// its own task and answer before the manager's block of the delegation
// (CrewAI prints a call's block once the call has answered), so the
// coworker's work is a run of its own and the manager's call is answered
// by the coworker's final answer. A block of an agent with no run open
// (a log that starts mid-way, an agent that goes on after its answer)
// opens one.
func crewAIRuns(raw string) []crewAIRun {
	var runs []crewAIRun
	open := map[string]int{} // role -> its run's index
	runOf := func(role string) *crewAIRun {
		k, ok := open[role]
		if !ok {
			runs = append(runs, crewAIRun{role: role})
			k = len(runs) - 1
			open[role] = k
		}
		return &runs[k]
	}
	calls := 0
	for _, bl := range crewAIBlocks(raw) {
		if e := bl.sections["parse error"]; e != "" {
			r := runOf(bl.role)
			r.msgs = append(r.msgs,
				chatMessage{Role: "assistant", Content: mustJSON("")},
				chatMessage{Role: "user", Content: mustJSON(e)})
			continue
		}
		if task, ok := bl.sections["Task"]; ok {
			delete(open, bl.role)
			r := runOf(bl.role)
			r.msgs = append(r.msgs, chatMessage{Role: "user", Content: mustJSON(task)})
		}
		if tool, ok := bl.sections["Using tool"]; ok {
			r := runOf(bl.role)
			calls++
			id := "call_" + strconv.Itoa(calls)
			r.msgs = append(r.msgs,
				chatMessage{Role: "assistant", Content: mustJSON(bl.sections["Thought"]), ToolCalls: []chatToolCall{{
					ID: id, Function: chatFunction{Name: strings.TrimSpace(tool), Arguments: crewAIToolInput(bl.sections["Tool Input"])},
				}}},
				chatMessage{Role: "tool", ToolCallID: id, Content: mustJSON(bl.sections["Tool Output"])})
			continue
		}
		if answer, ok := bl.sections["Final Answer"]; ok {
			r := runOf(bl.role)
			r.msgs = append(r.msgs, chatMessage{Role: "assistant", Content: mustJSON("Final Answer: " + answer)})
			delete(open, bl.role)
			continue
		}
		if thought, ok := bl.sections["Thought"]; ok && thought != "" {
			r := runOf(bl.role)
			r.msgs = append(r.msgs, chatMessage{Role: "assistant", Content: mustJSON(thought)})
		}
	}
	return runs
}

// crewAIToolInput is a call's arguments from its `## Tool Input:`, which
// CrewAI prints as the JSON of what the agent gave: an object (indented),
// or, in versions that kept the agent's text, a JSON string holding the
// object. Input that is not JSON (a copy whose lines were wrapped) is kept
// as {"input": TEXT}, as the ReAct logs' inputs are.
func crewAIToolInput(s string) json.RawMessage {
	s = strings.TrimSpace(s)
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		if str, ok := v.(string); ok {
			var inner map[string]any
			if json.Unmarshal([]byte(str), &inner) == nil {
				return compactJSON(json.RawMessage(str))
			}
			return mustJSON(map[string]string{"input": str})
		}
		if _, ok := v.(map[string]any); ok {
			return compactJSON(json.RawMessage(s))
		}
	}
	return mustJSON(map[string]string{"input": s})
}

// crewAIDelegation rewrites a CrewAI manager's call of its delegation tools
// (`Delegate work to coworker`, `Ask question to coworker`, written
// `co-worker` in early versions) as what it is: a turn of the agent
// (from, its role when the log names it) to the coworker its input names
// (`coworker` when it names none),
// whose words are the task or the question and its context, answered by the coworker's
// final answer. A manager handing the same task out again in new words is
// then one agent making the same point to another (RA208), as ChatDev's
// roles are read.
func crewAIDelegation(s *schema.Step, from string) {
	if s.ToolCall == nil {
		return
	}
	if !crewAIDelegationTool(s.ToolCall.Name) {
		return
	}
	var args map[string]any
	if json.Unmarshal(s.ToolCall.Args, &args) != nil {
		return
	}
	if in, ok := args["input"].(string); ok && len(args) == 1 {
		// A ReAct log's input, as the agent wrote it: JSON of the fields.
		var inner map[string]any
		if json.Unmarshal([]byte(strings.TrimSpace(in)), &inner) != nil {
			return
		}
		args = inner
	}
	to, _ := args["coworker"].(string)
	words, _ := args["task"].(string)
	if words == "" {
		words, _ = args["question"].(string)
	}
	if strings.TrimSpace(words) == "" {
		return
	}
	if context, _ := args["context"].(string); strings.TrimSpace(context) != "" {
		words += "\n\n" + context // what the coworker is told along with it
	}
	if strings.TrimSpace(to) == "" {
		to = "coworker" // the input named none: CrewAI chose one
	}
	setCall(s, MessageTool, map[string]string{"from": from, "to": strings.TrimSpace(to), "text": words})
}

// crewAIDelegationTool reports whether a tool is one of CrewAI's two
// delegation tools, in any case, `coworker` or `co-worker`.
func crewAIDelegationTool(name string) bool {
	for _, t := range [...]string{"Delegate work to coworker", "Delegate work to co-worker", "Ask question to coworker", "Ask question to co-worker"} {
		if strings.EqualFold(name, t) {
			return true
		}
	}
	return false
}
