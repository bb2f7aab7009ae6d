package adapters

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// ReactLog reads the console log of a ReAct agent: what LangChain's
// AgentExecutor prints with verbose=True (CrewAI's first versions ran on
// it), and the Thought / Action / Action Input / Observation transcripts of
// loops built by hand on the same prompt. Often the only record of a run
// is this output, saved from the terminal or a job's log, and it is what
// people paste when their agent loops: the same Action and Action Input
// again and again.
var ReactLog = &Format{
	Name:      "react-log",
	Title:     "ReAct console logs (LangChain's verbose AgentExecutor, CrewAI, Thought/Action/Observation transcripts)",
	Recognize: recognizeReactLog,
	Convert:   convertReactLog,
	Text:      reactLogHead,
}

var (
	// reChainStart and reChainEnd are LangChain's verbose markers around
	// a chain's run; an agent's run is a chain whose class holds
	// "AgentExecutor" (CrewAI's CrewAgentExecutor too).
	reChainStart = regexp.MustCompile(`^\s*> Entering new (\S*) chain\.\.\.\s*$`)
	reChainEnd   = regexp.MustCompile(`^\s*> Finished chain\.\s*$`)
	// reReactAgentLine opens a line of the agent's own text.
	reReactAgentLine = regexp.MustCompile("(?i)^\\s*(?:thought|action|action input|final answer)\\s*:|^\\s*Invoking: `")
	reReactObs       = regexp.MustCompile(`(?i)^\s*observation\s*:\s?`)
	reReactAction    = regexp.MustCompile(`(?im)^\s*action\s*:`)
	reReactInput     = regexp.MustCompile(`(?im)^\s*action input\s*:`)
	reAgentChain     = regexp.MustCompile(`(?m)^\s*> Entering new \S*AgentExecutor chain\.\.\.\s*$`)
	reSGR            = regexp.MustCompile(`\x1b\[([0-9;]*)m`)
)

// reactLogHead reports whether a file opening with head is a ReAct console
// log: LangChain's marker of an agent's run, or an Action line with its
// Action Input, in its opening.
func reactLogHead(head []byte) bool {
	h := stripANSI(string(head))
	return reAgentChain.MatchString(h) || (reReactAction.MatchString(h) && reReactInput.MatchString(h)) || crewAIHead(h)
}

func recognizeReactLog(d *Doc) error {
	if !d.text {
		return errors.New("a JSON document, not a text transcript")
	}
	head := d.Raw
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if !reactLogHead(head) {
		return errors.New("neither LangChain's `> Entering new AgentExecutor chain...`, an `Action:` line with its `Action Input:`, nor CrewAI's `# Agent:` block in its opening")
	}
	return nil
}

// reactLine is one line of the log, told apart by who wrote it: the
// agent ('a'), a tool ('o') or neither (0, LangChain's markers and what it
// prints without a color). Where the colors change within a line of the
// file (an observation printed right after the action it answers), each
// part is a line of its own.
type reactLine struct {
	text string
	kind byte
}

// reactLines cuts the log into lines, telling the agent's text from the
// tools' by LangChain's colors when it printed them: the agent's text in
// one color (the one its Action and Final Answer lines are in), each
// tool's output in another. Without colors (colored false), every line is
// kind 0.
func reactLines(raw string) (lines []reactLine, colored bool) {
	type piece struct {
		text, color string
	}
	var pieces []piece
	color, last := "", 0
	add := func(text string) {
		if text != "" {
			pieces = append(pieces, piece{text, color})
		}
	}
	for _, m := range reSGR.FindAllStringSubmatchIndex(raw, -1) {
		add(raw[last:m[0]])
		last = m[1]
		// A color is the whole parameter list that sets one (`32;1`,
		// `38;5;200` for LangChain's pink); bold and italic after it keep
		// it; a reset ends it.
		params := raw[m[2]:m[3]]
		for code := range strings.SplitSeq(params, ";") {
			n, _ := strconv.Atoi(code)
			if code == "" || n == 0 || n == 39 {
				color = ""
			}
			if n >= 30 && n <= 38 || n >= 90 && n <= 97 {
				color = params
				break
			}
		}
	}
	add(raw[last:])
	agent := ""
	for _, p := range pieces {
		if p.color != "" && (reReactAction.MatchString(p.text) || strings.Contains(strings.ToLower(p.text), "final answer:")) {
			agent = p.color
			break
		}
	}
	var out []reactLine
	colored = agent != ""
	for _, p := range pieces {
		kind := byte(0)
		switch {
		case agent == "" || p.color == "":
		case p.color == agent:
			kind = 'a'
		default:
			kind = 'o'
		}
		for text := range strings.SplitSeq(stripANSI(p.text), "\n") {
			out = append(out, reactLine{strings.TrimRight(text, " \t\r"), kind})
		}
	}
	return out, colored
}

// reactRuns reads the runs of a log, each as chat messages (the agent's
// turns and the tools' answers): each agent chain LangChain marks is
// one (chains it runs inside, a tool that is a chain, are part of it); a
// log without markers is one run. In a run, the agent's text runs up to an
// observation (a tool's colored output, or a line opening with
// `Observation:`), which runs up to the agent's next text (its color, or a
// line opening with `Thought:`, `Action:`, `Action Input:` or `Final
// Answer:`).
func reactRuns(raw string) [][]chatMessage {
	var runs [][]chatMessage
	var cur *[]chatMessage
	depth := 0
	var b strings.Builder
	kind, started := byte(0), false
	invoked := false // the agent's text so far ends in an "Invoking:" line
	flush := func() {
		if cur != nil && started {
			role := "assistant"
			if kind == 'o' {
				role = "user"
			}
			if t := strings.Trim(b.String(), "\n"); strings.TrimSpace(t) != "" || role == "user" {
				*cur = append(*cur, chatMessage{Role: role, Content: mustJSON(t)})
			}
		}
		b.Reset()
		kind, started = 0, false
	}
	start := func() {
		flush()
		runs = append(runs, nil)
		cur = &runs[len(runs)-1]
	}
	lines, colored := reactLines(raw)
	marked := slices.ContainsFunc(lines, func(l reactLine) bool {
		if !strings.Contains(l.text, "AgentExecutor chain") {
			return false
		}
		m := reChainStart.FindStringSubmatch(l.text)
		return m != nil && strings.Contains(m[1], "AgentExecutor")
	})
	if !marked {
		start()
	}
	for _, l := range lines {
		if marked {
			// Only a line naming a chain can be a marker.
			var m []string
			if strings.Contains(l.text, " chain") {
				m = reChainStart.FindStringSubmatch(l.text)
			}
			if m != nil {
				if depth == 0 && strings.Contains(m[1], "AgentExecutor") {
					start()
				}
				if cur != nil {
					depth++
				}
				continue
			}
			if strings.Contains(l.text, " chain") && reChainEnd.MatchString(l.text) {
				if depth > 0 {
					depth--
				}
				if depth == 0 {
					flush()
					cur = nil
				}
				continue
			}
			if cur == nil {
				continue // what the program printed between its agent's runs
			}
		}
		k := l.kind
		text := l.text
		if marked && depth > 1 {
			// A chain the agent's tool runs prints inside the tool's
			// answer.
			k = 'o'
		}
		if k == 0 {
			switch {
			case reReactObs.MatchString(text):
				k, text = 'o', reReactObs.ReplaceAllString(text, "")
			case reReactAgentLine.MatchString(text):
				k = 'a'
			case !colored && kind == 'a' && invoked && strings.TrimSpace(text) != "":
				// After a tool-calling agent's "Invoking:" line, LangChain
				// prints the tool's output with no label.
				k = 'o'
			case colored && strings.TrimSpace(text) != "":
				// The agent's text is colored: what LangChain printed
				// without a color is a tool's answer (the executor's own,
				// for a turn it could not read).
				k = 'o'
			default:
				k = kind // goes on with what it follows
			}
		}
		if k == 0 {
			k = 'a'
		}
		if k != kind {
			flush()
			kind = k
			invoked = false
		}
		if k == 'a' && reInvoking.MatchString(text) {
			invoked = true
		}
		if !started {
			if strings.TrimSpace(text) == "" {
				continue
			}
			started = true
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	flush()
	return runs
}

// reactRules read what LangChain's AgentExecutor answers in place of a
// tool's output when the agent's turn could not be run.
var reactRules = []OutputRule{
	{
		Name: "react-invalid-tool", ErrorType: "INVALID_CALL", Harness: true,
		Doc: "the executor's answer to an action naming no tool it has: `Search the web is not a valid tool, try one of [Search, Calculator].`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.first, " is not a valid tool, try one of [")
		},
	},
	{
		Name: "crewai-tool-error", ErrorType: "ERROR", Harness: true,
		Doc: "CrewAI's own words for a tool that raised, on a line of their own (after whatever the tool printed to stderr first): `I encountered an error while trying to use the tool. This was the error: ...`",
		match: func(o *output) (string, bool) {
			return "", reCrewAIToolError.MatchString(o.text)
		},
	},
	{
		Name: "crewai-reused-input", ErrorType: "REJECTED", Final: true, Harness: true,
		Doc: "CrewAI refused to run a call it had made before with the same input, on a line of its own: `I tried reusing the same input, I must stop using this action input.`; not retryable (`retryable: false`): CrewAI refuses the same input every time",
		match: func(o *output) (string, bool) {
			return "", reCrewAIReused.MatchString(o.text)
		},
	},
	{
		Name: "crewai-invalid-call", ErrorType: "INVALID_CALL", Harness: true,
		Doc: "CrewAI's answer to a call it could not make, on a line of its own: a tool it does not have (`You tried to use the tool X, but it doesn't exist.`, older versions' `Action 'X' don't exist, these are the only available Actions:`), arguments that are not a dictionary (`Error: the Action Input is not a valid key, value dictionary.`), a coworker it does not know (`Error executing tool. coworker mentioned not found`)",
		match: func(o *output) (string, bool) {
			return "", reCrewAIInvalidCall.MatchString(o.text)
		},
	},
	{
		Name: "react-parse-error", ErrorType: "FORMAT_ERROR", Harness: true,
		Doc: "the executor could not read an action in the agent's turn (`handle_parsing_errors`): `Invalid Format: Missing 'Action:' after 'Thought:'`, `Invalid or incomplete response`, `Could not parse LLM output: ...`",
		match: func(o *output) (string, bool) {
			return "", reactRefused(o.first)
		},
	},
}

// reCrewAIToolError is CrewAI's line for a tool that raised.
var reCrewAIToolError = regexp.MustCompile(`(?m)^\s*I encountered an error while trying to use the tool\. This was the error: `)

// reCrewAIReused is CrewAI refusing a call it made before.
var reCrewAIReused = regexp.MustCompile(`(?m)^\s*I tried reusing the same input, I must stop using this action input`)

// reCrewAIInvalidCall is CrewAI refusing a call it cannot make.
var reCrewAIInvalidCall = regexp.MustCompile(`(?m)^\s*(?:You tried to use the tool .*, but it doesn't exist\.|Action '.*' don't exist, these are the only available Actions:|Error: the Action Input is not a valid key, value dictionary\.|Error executing tool\. [Cc]o-?worker mentioned not found)`)

// reactRefused reports whether a reply is the executor refusing a turn it
// could not read.
func reactRefused(reply string) bool {
	t := strings.TrimSpace(reply)
	return strings.HasPrefix(t, "Invalid Format: Missing 'Action") || strings.HasPrefix(t, "Invalid or incomplete response") || strings.HasPrefix(t, "Could not parse LLM output") || reCrewAIParseError.MatchString(t)
}

var reactStyle = chatStyle{
	textCall:    textCall,
	refusedTurn: reactRefused,
	rules:       reactRules,
	stop:        finishesRun,
}

func convertReactLog(d *Doc, emit func(*schema.Step) error) error {
	head := d.Raw
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if crewAIHead(string(head)) {
		return convertCrewAILog(d, emit)
	}
	runs := reactRuns(string(d.Raw))
	return emitReactRuns(d, emit, len(runs), func(k int) (string, []chatMessage) { return "", runs[k] },
		"no turn of the agent with an action, an observation or a final answer")
}

// emitReactRuns converts the n runs of a console log, run(k) giving the
// k-th run's own id (or "") and its messages, and emits those that hold a
// step; a log none of whose runs holds one is an error saying what was
// missing.
func emitReactRuns(d *Doc, emit func(*schema.Step) error, n int, run func(k int) (string, []chatMessage), missing string) error {
	found := false
	for k := range n {
		id, msgs := run(k)
		if len(msgs) == 0 {
			continue
		}
		r := d.newRun(runName(d, k, n > 1, id))
		convertChat(r, msgs, reactStyle)
		if len(r.steps) == 0 {
			continue
		}
		for _, s := range r.steps {
			crewAIDelegation(s, id)
		}
		found = true
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	if !found {
		return errors.New(missing)
	}
	return nil
}

// convertCrewAILog converts CrewAI's console log (crewailog.go): a run per
// task an agent took up, named after the agent.
func convertCrewAILog(d *Doc, emit func(*schema.Step) error) error {
	runs := crewAIRuns(string(d.Raw))
	return emitReactRuns(d, emit, len(runs), func(k int) (string, []chatMessage) { return runs[k].role, runs[k].msgs },
		"no block of an agent with a tool call or a final answer")
}
