package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// LangChain's colored verbose output of an agent made with
// create_react_agent: no "Observation:" label, the colors tell the
// agent's turns from the tool's answers; each action is a call, numbered
// by its turn's place among the run's turns and answers, answered by the
// tool's colored output.
func TestReactLogColoredSample(t *testing.T) {
	const file = "search-loop.log"
	c := convert(t, ReactLog, file, 1, true, readSample(t, "react-log/"+file))
	if len(c.runs) != 1 || c.runs[0] != file {
		t.Fatalf("runs %q", c.runs)
	}
	if got := fmt.Sprint(c.numbers(file)); got != "[0 2 4 6 8 10 12]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, file, 2)
	if tool(s) != "web_search" || args(t, s)["input"] != "museum opening hours today" || result(s) != "ok" || !contains(data(t, s), `"url": "https://www.museum-example.org/visit"`) {
		t.Errorf("step 2: %s %s %s %q", tool(s), s.ToolCall.Args, result(s), data(t, s))
	}
	if !contains(reason(s), "The results do not give today's hours") || contains(reason(s), "museum-example") {
		t.Errorf("step 2's reason %q: the agent's words, not the tool's", reason(s))
	}
	if last := c.step(t, file, 12); last.State != schema.StateAct.String() {
		t.Errorf("the run stopped by its iteration limit ends without STOP: %s", last.State)
	}
}

// The older ZeroShotAgent's plain output: "Observation:" before each
// answer; a turn the executor could not read is a failed step; the final
// answer is STOP.
func TestReactLogPlainSample(t *testing.T) {
	const file = "healthy-answer.log"
	c := convert(t, ReactLog, file, 1, true, readSample(t, "react-log/"+file))
	if got := fmt.Sprint(c.numbers(file)); got != "[0 2 4 6]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, file, 0); tool(s) != "Search" || args(t, s)["input"] != "population of Lisbon city proper" || !contains(data(t, s), "545,000") {
		t.Errorf("step 0: %s %s %q", tool(s), s.ToolCall.Args, data(t, s))
	}
	if s := c.step(t, file, 2); tool(s) != "format_error" || result(s) != "error FORMAT_ERROR" {
		t.Errorf("the unreadable turn: %s %s", tool(s), result(s))
	}
	if s := c.step(t, file, 6); s.State != schema.StateStop.String() {
		t.Errorf("the final answer: %s", s.State)
	}
}

// A log of several agent runs: each AgentExecutor chain is one, a chain
// entered inside it (a tool that is a chain) belongs to it, the program's
// prints between runs are passed over; the executor's answer printed
// without a color (a turn it could not read) is an answer, not the agent's.
func TestReactLogRuns(t *testing.T) {
	g, o, z := "\x1b[32;1m\x1b[1;3m", "\x1b[38;5;200m\x1b[1;3m", "\x1b[0m"
	log := "starting batch\n\n\x1b[1m> Entering new AgentExecutor chain...\x1b[0m\n" +
		g + "I will ask the calculator.\nAction: Calculator\nAction Input: 2+2" + z +
		"\n\n\x1b[1m> Entering new LLMMathChain chain...\x1b[0m\n2+2\x1b[32;1m\x1b[1;3m```text\n2+2\n```\n" + z + "\n\x1b[1m> Finished chain.\x1b[0m\n" +
		o + "Answer: 4" + z + g + "Final Answer: 4" + z + "\n\n\x1b[1m> Finished chain.\x1b[0m\n" +
		"next question\n\n\x1b[1m> Entering new AgentExecutor chain...\x1b[0m\n" +
		g + "I should search now" + z + "Invalid Format: Missing 'Action:' after 'Thought:'" +
		g + "Action: Search\nAction Input: capital of Peru" + z + o + "Lima" + z + g + "Final Answer: Lima" + z +
		"\n\n\x1b[1m> Finished chain.\x1b[0m\ndone\n"
	c := convert(t, ReactLog, "batch.log", 1, true, []byte(log))
	if got := fmt.Sprint(c.runs); got != "[batch.log[0] batch.log[1]]" {
		t.Fatalf("runs %s", got)
	}
	first := c.steps[0]
	if first.RunID != "batch.log[0]" || tool(first) != "Calculator" || data(t, first) == "" || !contains(data(t, first), "Answer: 4") {
		t.Errorf("first run's call: %s %q", tool(first), data(t, first))
	}
	var kinds []string
	for _, s := range c.steps {
		if s.RunID == "batch.log[1]" {
			kinds = append(kinds, tool(s)+" "+result(s))
		}
	}
	if got := fmt.Sprint(kinds); got != "[format_error error FORMAT_ERROR Search ok finish none]" {
		t.Errorf("second run: %s", got)
	}
}

// The format is found by its opening, and only there: a log of another
// program's that mentions an action is not one.
func TestReactLogDetected(t *testing.T) {
	for _, c := range []struct {
		head string
		want *Format
	}{
		{"\n\n\x1b[1m> Entering new AgentExecutor chain...\x1b[0m\n", ReactLog},
		{"> Entering new CrewAgentExecutor chain...\nThought: Do I need to use a tool? Yes\n", ReactLog},
		{"Question: what is 2+2?\nThought: use the calculator\nAction: Calculator\nAction Input: 2+2\n", ReactLog},
		{"2026-01-02 10:00:01 INFO worker started\nAction: restart scheduled for 10:05\n", nil},
		{"> Entering new LLMChain chain...\nPrompt after formatting:\n", nil},
		{"LLM value is a string\n# Agent: Researcher\n## Task: find the tide times\n", ReactLog},
		{"Running the Crew\n╭──────── Crew Execution Started ────────╮\n│  Crew Execution Started  │\n", ReactLog},
		{"╭──────── 🚀 Crew Execution Started ────────╮\n│  Crew Execution Started  │\n", ReactLog},
		{"# Agent: notes\n\nThe agent keeps a task list.\n", nil},
	} {
		if got := DetectText([]byte(c.head)); got != c.want {
			t.Errorf("%q: %v, want %v", c.head, got, c.want)
		}
	}
}

// A tool-calling agent's verbose output: LangChain prints each call as
// "Invoking: `tool` with `args`" and the tool's output after it, with no
// label; without colors the output runs to the next call.
func TestReactLogToolCallingAgent(t *testing.T) {
	log := "\n\n> Entering new AgentExecutor chain...\n"
	for range 3 {
		log += "\nInvoking: `langsmith_search` with `{'query': 'how can LangSmith help with testing'}`\n\n\nGetting started with LangSmith | LangSmith\n\nSkip to main content\n"
	}
	log += "LangSmith helps you test by running datasets through your chain.\n\n> Finished chain.\n"
	c := convert(t, ReactLog, "tools.log", 1, true, []byte(log))
	if len(c.steps) != 3 {
		t.Fatalf("%d steps, want the 3 calls", len(c.steps))
	}
	for _, s := range c.steps {
		if tool(s) != "langsmith_search" || args(t, s)["raw"] != "{'query': 'how can LangSmith help with testing'}" || !contains(data(t, s), "Getting started with LangSmith") {
			t.Errorf("step %d: %s %s %q", *s.Step, tool(s), s.ToolCall.Args, data(t, s))
		}
	}
}

// CrewAI's console log since 0.60: each task an agent takes up is a run of
// that agent; a block's call is the tool with its input as JSON (printed
// as a JSON string holding the object), answered by its output, without
// the console formatter's tree drawn after it; CrewAI's refusal of a call
// it had run before is REJECTED; its report of a reply it could not parse
// is a failed turn; the final answer is STOP.
func TestReactLogCrewAISample(t *testing.T) {
	const file = "crewai-search-loop.log"
	const run = file + "#Senior Market Researcher"
	c := convert(t, ReactLog, file, 1, true, readSample(t, "react-log/"+file))
	if got := fmt.Sprint(c.runs); got != "["+run+"]" {
		t.Fatalf("runs %s", got)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7 9 11 13 15 17]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, run, 1)
	if tool(s) != "Search the internet with Serper" || args(t, s)["search_query"] != "2026 electric cargo bike market size Europe" || result(s) != "ok" {
		t.Errorf("step 1: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}
	if !contains(data(t, s), "cyclelogistics.eu/survey-2024") || contains(data(t, s), "Crew:") || contains(data(t, s), "Thinking") {
		t.Errorf("step 1's output %q: the tool's, without the console's tree", data(t, s))
	}
	if !contains(reason(s), "I need current figures") {
		t.Errorf("step 1's reason %q", reason(s))
	}
	if s := c.step(t, run, 3); result(s) != "error REJECTED" {
		t.Errorf("the repeated search CrewAI refused: %s", result(s))
	}
	if s := c.step(t, run, 11); tool(s) != "format_error" || result(s) != "error FORMAT_ERROR" {
		t.Errorf("the reply CrewAI could not parse: %s %s", tool(s), result(s))
	}
	if s := c.step(t, run, 17); s.State != schema.StateStop.String() || !contains(reason(s), "no 2026 market size") {
		t.Errorf("the final answer: %s %q", s.State, reason(s))
	}
}

// A manager delegating to coworkers: each coworker's task is a run of its
// own, printed before the manager's block of the delegation that it
// answers; the manager's run holds its calls answered by the coworkers'
// final answers. Tool input printed as an indented object (later versions)
// is read as the same JSON; a tool that raised is an error.
func TestReactLogCrewAIDelegation(t *testing.T) {
	const file = "crewai-delegation.log"
	c := convert(t, ReactLog, file, 1, true, readSample(t, "react-log/"+file))
	manager, researcher, writer := file+"[0]#Crew Manager", file+"[1]#Tide Data Researcher", file+"[2]#Newsletter Writer"
	if got := fmt.Sprint(c.runs); got != fmt.Sprint([]string{manager, researcher, writer}) {
		t.Fatalf("runs %s", got)
	}
	for _, w := range []struct {
		run, steps string
	}{{manager, "[1 3 5]"}, {researcher, "[1 3 5]"}, {writer, "[1 3 5]"}} {
		if got := fmt.Sprint(c.numbers(w.run)); got != w.steps {
			t.Errorf("%s: steps %s, want %s", w.run, got, w.steps)
		}
	}
	// A delegation is the manager's turn to the coworker, answered by the
	// coworker's final answer.
	if s := c.step(t, manager, 1); tool(s) != MessageTool || args(t, s)["from"] != "Crew Manager" || args(t, s)["to"] != "Tide Data Researcher" ||
		!strings.HasPrefix(args(t, s)["text"].(string), "Find Saturday's high and low tide") || !contains(data(t, s), "high 05:12 (3.6 m)") {
		t.Errorf("the first delegation: %s %s %q", tool(s), s.ToolCall.Args, data(t, s))
	}
	if s := c.step(t, writer, 1); tool(s) != "File Writer Tool" || args(t, s)["directory"] != "out/harbour" || result(s) != "error ERROR" {
		t.Errorf("the write that raised: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}
	if s := c.step(t, writer, 3); result(s) != "ok" || data(t, s) != "Content successfully written to newsletter.md" {
		t.Errorf("the write that worked: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, manager, 5); s.State != schema.StateStop.String() {
		t.Errorf("the manager's final answer: %s", s.State)
	}
}

// CrewAI's first versions print a delegation as a ReAct action whose input
// is the JSON of its fields: it is the agent's turn to the coworker too; a
// call of another tool keeps its name.
func TestReactLogCrewAIDelegationInEarlyLogs(t *testing.T) {
	log := "> Entering new CrewAgentExecutor chain...\nThought: the writer should draft it\nAction: Delegate work to co-worker\n" +
		"Action Input: {\"task\": \"Draft the launch post\", \"context\": \"a bike shop\", \"coworker\": \"Writer\"}\n" +
		"Observation: Here is the draft.\nThought: search too\nAction: Search\nAction Input: {\"query\": \"bike shops\"}\nObservation: three shops\n" +
		"Thought: done\nFinal Answer: the post\n> Finished chain.\n"
	c := convert(t, ReactLog, "crew.log", 1, true, []byte(log))
	run := c.runs[0]
	if s := c.step(t, run, 0); tool(s) != MessageTool || args(t, s)["to"] != "Writer" || args(t, s)["text"] != "Draft the launch post\n\na bike shop" || data(t, s) != "Here is the draft." {
		t.Errorf("the delegation: %s %s %q", tool(s), s.ToolCall.Args, data(t, s))
	}
	if s := c.step(t, run, 2); tool(s) != "Search" {
		t.Errorf("the search: %s", tool(s))
	}
}

// CrewAI echoes a tool's error before the block of the call that raised
// it: the echo is no part of the section it follows (the last call's
// output, the task), so two calls failing alike are answered alike.
func TestReactLogCrewAIErrorEcho(t *testing.T) {
	errText := "I encountered an error while trying to use the tool. This was the error: 1 validation error for ImagePromptSchema\nimage_description\n  Input should be a valid string [type=string_type]\n Tool Dall-E Tool accepts these inputs: Tool Name: Dall-E Tool\n"
	call := "\n\n# Agent: Photographer\n## Thought: I will draw it.\n## Using tool: Dall-E Tool\n## Tool Input: \n\"{\\\"image_description\\\": {\\\"description\\\": \\\"a bass player\\\"}}\"\n## Tool Output: \n" + errText
	log := "# Agent: Photographer\n## Task: Draw four bass players.\n\n \n\n" + errText + call + "\n\n" + errText + call +
		"\n\n# Agent: Photographer\n## Final Answer: \nNo images.\n"
	c := convert(t, ReactLog, "p.log", 1, true, []byte(log))
	run := c.runs[0]
	a, b := c.step(t, run, 1), c.step(t, run, 3)
	if result(a) != "error ERROR" || data(t, a) != data(t, b) || strings.Count(data(t, a), "I encountered an error") != 1 {
		t.Errorf("the two failing calls: %s %q / %q", result(a), data(t, a), data(t, b))
	}
}

// CrewAI refuses an input it has run before, and will refuse it every
// time: the result is not retryable, so sending it again is the agent's
// retry loop (detect's RA302), not a failing dependency. A tool's own
// error says nothing of retrying.
func TestCrewAIReusedInputIsNotRetryable(t *testing.T) {
	for _, c := range []struct {
		observation string
		want        *bool
	}{
		{"I tried reusing the same input, I must stop using this action input. I'll try something else instead.", new(bool)},
		{"I encountered an error while trying to use the tool. This was the error: [Errno 2] No such file or directory: 'credentials.json'.", nil},
	} {
		conv, run := convertOne(t, ReactLog, reactDoc(c.observation))
		got := conv.step(t, run, 0).ToolResult.Retryable
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("%q: retryable %v, want %v", c.observation, got, c.want)
		}
	}
}
