package adapters

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/runawayhq/runaway/schema"
)

// ChatDev reads the logs of ChatDev (OpenBMB), a "software company" of
// role-playing agents: a chief executive, product and technology officers,
// a programmer, a code reviewer, a test engineer. A run goes through
// phases (demand analysis, coding, code review in cycles, testing in
// cycles, documents); in each, one role instructs another and the two talk
// in turns. ChatDev writes every run to a text log, one entry per line
// opening `[YYYY-DD-MM HH:MM:SS LEVEL]`, kept next to the code it wrote
// (WareHouse/<project>_<org>_<timestamp>.log). The file is one run.
var ChatDev = &Format{
	Name:      "chatdev",
	Title:     "ChatDev logs (WareHouse/*.log): a software company of role-playing agents",
	Recognize: recognizeChatDev,
	Convert:   convertChatDev,
	Text:      chatdevHead,
}

var (
	// reChatDevEntry is the line that opens an entry: ChatDev's logging
	// format, `[%(asctime)s %(levelname)s] %(message)s` with the date
	// written year, day, month.
	reChatDevEntry = regexp.MustCompile(`^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) (DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ?(.*)$`)
	// reChatDevTurn heads what one agent said in a phase:
	// `Programmer: **Programmer<->Chief Technology Officer on : Coding, turn 0**`.
	reChatDevTurn = regexp.MustCompile(`^(.+?): \*\*(.+?)<->(.+?) on : (\w+), turn (\d+)\*\*\s*$`)
	// reChatDevStart heads the instruction that opens a phase.
	reChatDevStart = regexp.MustCompile(`^(.+?): \*\*\[Start Chat\]\*\*\s*$`)
	// reChatDevTable is a row of the table a phase's parameters are
	// logged in: `| **phase_name** | CodeReviewComment |`.
	reChatDevTable = regexp.MustCompile(`(?m)^\| \*\*(\w+)\*\* \| (.*?) \|\s*$`)
	// reChatDevRetry is the OpenAI client retrying a model request that
	// failed, and reChatDevRateLimit an older client's report of a rate
	// limit.
	reChatDevRetry     = regexp.MustCompile(`^Retrying request to (\S+) in ([0-9.]+) seconds`)
	reChatDevRateLimit = regexp.MustCompile(`^error_code=rate_limit_exceeded\b`)
	// reChatDevHTTPFail is the OpenAI client's (v1) log of a request that
	// failed: `HTTP Request: POST URL "HTTP/1.1 401 Unauthorized"`.
	reChatDevHTTPFail = regexp.MustCompile(`^HTTP Request: POST (\S+) "HTTP/\d(?:\.\d)? ([45]\d\d)\b[^"]*"`)
	// The usage of a model request answered, as ChatDev's OpenAI client
	// logs it (`**[OpenAI_Usage_Info Receive]**`) and as forks that put
	// another provider's client in its place log it under that provider's
	// name (`**[Gemini_Usage_Info Receive]**`).
	reChatDevUsage  = regexp.MustCompile(`^\*\*\[[A-Za-z][A-Za-z0-9]*_Usage_Info Receive\]\*\*\s*$`)
	reChatDevTokens = regexp.MustCompile(`(?m)^\s*(prompt_tokens|completion_tokens): (\d+)\s*$`)
	// reChatDevCost is the cost ChatDev states for the request, from its
	// own price table: -1 for a model the table does not hold.
	reChatDevCost = regexp.MustCompile(`(?m)^\s*cost: \$(-?[0-9.]+)\s*$`)
	// reChatDevCommand is the command ChatDev runs itself, a package
	// install after a report of a missing module.
	reChatDevCommand = regexp.MustCompile(`(?m)^\[CMD\] (.+?)\s*$`)
	// reChatDevUpdated is the line of code ChatDev wrote, `FILE updated.`
	reChatDevUpdated = regexp.MustCompile(`^(\S.*?) updated\.\s*$`)
	// reChatDevQuotedReport is the test report a phase's instruction
	// quotes (TestModification's `Test Reports of Source Codes:`), up to
	// the label after it.
	reChatDevQuotedReport = regexp.MustCompile(`(?s)Test Reports of Source Codes:\s*"(.*?)"\.?\s+(?:Error Summary of Test Reports:|According to|Note that)`)
)

// chatdevHead reports whether a file opening with head is a ChatDev log:
// its first line opens an entry, and its first entry is the run's
// preprocessing (`**[Preprocessing]**`, on that line or the next).
func chatdevHead(head []byte) bool {
	lines := firstLines(head, 2)
	if len(lines) == 0 || !reChatDevEntry.Match(lines[0]) {
		return false
	}
	for _, l := range lines {
		if bytes.Contains(l, []byte("**[Preprocessing]**")) {
			return true
		}
	}
	return false
}

func recognizeChatDev(d *Doc) error {
	if !d.text {
		return errors.New("a JSON document, not a text log")
	}
	if chatdevHead(d.Raw) {
		return nil
	}
	if lines := firstLines(d.Raw, 1); len(lines) == 1 && reChatDevEntry.Match(lines[0]) &&
		(bytes.Contains(lines[0], []byte("ChatDev Starts (")) || bytes.Contains(lines[0], []byte("AgentTech Starts ("))) {
		return errors.New("a log of an early ChatDev (before August 2023, no `**[Preprocessing]**` entry), whose entries are not read")
	}
	return errors.New("does not open with a `[YYYY-DD-MM HH:MM:SS INFO] **[Preprocessing]**` entry")
}

// chatdevEntry is one entry of the log: the line that opens it and the
// lines after it up to the next.
type chatdevEntry struct {
	pos  int   // 0-based position among the file's entries
	line int64 // its first line in the file
	ts   *schema.Timestamp
	head string // the opening line after the date and level
	body string
}

// chatdevEntries cuts the log into entries. Lines before the first entry
// are none of them (there are none in the logs ChatDev writes).
func chatdevEntries(d *Doc) []chatdevEntry {
	var out []chatdevEntry
	var body []string
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].body = strings.Trim(strings.Join(body, "\n"), "\n")
		}
		body = body[:0]
	}
	n := d.Line - 1
	for _, line := range strings.Split(string(d.Raw), "\n") {
		n++
		line = strings.TrimSuffix(line, "\r")
		m := reChatDevEntry.FindStringSubmatch(line)
		if m == nil {
			if len(out) > 0 {
				body = append(body, line)
			}
			continue
		}
		flush()
		out = append(out, chatdevEntry{pos: len(out), line: n, ts: chatdevTime(m[1:7]), head: strings.TrimSpace(m[8])})
	}
	flush()
	return out
}

// chatdevTime reads an entry's date, written year, day, month (ChatDev's
// `%Y-%d-%m`); a "month" over 12 with a "day" that could be one is read
// the other way round. The log names no time zone: the time is read as
// UTC, so durations are right and clock times off by the writer's zone.
func chatdevTime(f []string) *schema.Timestamp {
	v := make([]int, len(f))
	for i, s := range f {
		v[i], _ = strconv.Atoi(s)
	}
	year, day, month := v[0], v[1], v[2]
	if month > 12 && day <= 12 {
		day, month = month, day
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return nil
	}
	t := time.Date(year, time.Month(month), day, v[3], v[4], v[5], 0, time.UTC)
	return &schema.Timestamp{UnixMilli: t.UnixMilli()}
}

// chatdevRules are ChatDev's own rules on a test report, tried before the
// shared ones.
var chatdevRules = []OutputRule{{
	Name: "chatdev-run-error", ErrorType: "ERROR", Harness: true,
	Doc: "the test report is `An error occurred: MESSAGE`, what ChatDev's tester writes when running the software raised an error in ChatDev itself (`module 'os' has no attribute 'setsid'` where the tester's process call does not exist)",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(strings.TrimSpace(o.text), "An error occurred:")
	},
}}

// chatdevModels names the models of ChatDev's ModelType as their API does,
// so that tokens are priced; a type not listed keeps its name, lower case.
var chatdevModels = map[string]string{
	"GPT_3_5_TURBO": "gpt-3.5-turbo", "GPT_3_5_TURBO_NEW": "gpt-3.5-turbo-16k", "GPT_4": "gpt-4",
	"GPT_4_32k": "gpt-4-32k", "GPT_4_32K": "gpt-4-32k", "GPT_4_TURBO": "gpt-4-turbo", "GPT_4_TURBO_V": "gpt-4-turbo",
	"GPT_4O": "gpt-4o", "GPT_4O_MINI": "gpt-4o-mini",
}

func chatdevModel(t string) string {
	t = strings.TrimPrefix(strings.TrimSpace(t), "ModelType.")
	if m, ok := chatdevModels[t]; ok {
		return m
	}
	return strings.ToLower(t)
}

// chatdevWords is what an agent said: the entry's body without the
// bracketed system prompt ChatDev logs before it (`[ChatDev is a software
// company ... needs.]`).
func chatdevWords(body string) string {
	b := strings.TrimLeft(body, "\n")
	if strings.HasPrefix(b, "[") {
		if i := strings.Index(b, "]\n\n"); i >= 0 {
			b = b[i+3:]
		} else if strings.HasSuffix(strings.TrimSpace(b), "]") {
			b = ""
		}
	}
	return strings.TrimSpace(b)
}

func convertChatDev(d *Doc, emit func(*schema.Step) error) error {
	entries := chatdevEntries(d)
	if len(entries) == 0 {
		return errors.New("no entry opens with `[YYYY-DD-MM HH:MM:SS LEVEL]`")
	}
	r := d.newRun(runName(d, 0, false, ""))
	var (
		phase, assistant, model string
		usage                   *schema.Usage // the tokens of the next turn's request
		pending                 *schema.Step  // the last words, not yet answered
		pendingFrom             string
		lastReport              string       // the last test report, while no step came after it
		lastRun                 *schema.Step // the last run of the software, read stripped, its report not yet quoted
		lastTurn, lastWords     string       // the last turn's header (who, with whom, phase, turn) and words
		finished                bool
		talk                    discussion // the phase's turns, to tell one cut at its turn limit
	)
	answer := func(from, words string) {
		if pending != nil && pendingFrom != from {
			r.setResult(pending, words, "", false)
		}
		pending, pendingFrom = nil, ""
	}
	httpFailed := false // the entry before was a request the client logged failed
	for _, e := range entries {
		// Most entries are the visualiser's and the HTTP client's lines:
		// the patterns of an instruction, a turn and a failed request are
		// matched once, and only on heads that can be one.
		var start, turn, retry, httpFail []string
		switch {
		case strings.HasSuffix(e.head, "**"):
			if start = reChatDevStart.FindStringSubmatch(e.head); start == nil {
				turn = reChatDevTurn.FindStringSubmatch(e.head)
			}
		case strings.HasPrefix(e.head, "Retrying request"):
			retry = reChatDevRetry.FindStringSubmatch(e.head)
			if httpFailed {
				retry = nil // the failure the line before logged: one step
			}
		case strings.HasPrefix(e.head, "HTTP Request: POST "):
			httpFail = reChatDevHTTPFail.FindStringSubmatch(e.head)
		}
		httpFailed = httpFail != nil
		switch {
		case httpFail != nil:
			// The OpenAI client (v1) logs every request with its status:
			// one that failed is a failed call of the model, retried or
			// not (a key revoked fails every request the same way).
			code := httpFail[2]
			errType := "HTTP_" + code
			switch code {
			case "429":
				errType = schema.ErrRateLimit
			case "408", "504":
				errType = schema.ErrTimeout
			}
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = e.ts
			setCall(s, "model", map[string]string{"request": httpFail[1]})
			r.setResult(s, e.head, errType, false)
			lastReport = ""
		case e.head == "System: **[chatting]**":
			// A phase begins: who instructs whom, and about what.
			row := map[string]string{}
			for _, m := range reChatDevTable.FindAllStringSubmatch(e.body, -1) {
				row[m[1]] = strings.TrimSpace(m[2])
			}
			talk.end()
			talk = discussion{limit: atoi(row["chat_turn_limit"])}
			phase, assistant = row["phase_name"], row["assistant_role_name"]
			if t := row["model_type"]; t != "" {
				model = chatdevModel(t)
			}
			pending, lastReport = nil, ""
		case start != nil:
			from := start[1]
			s := r.add(e.pos, schema.StatePlan.String())
			s.TS = e.ts
			words := chatdevWords(e.body)
			setCall(s, MessageTool, map[string]string{"from": from, "to": assistant, "phase": phase, "text": words})
			pending, pendingFrom, lastReport = s, from, ""
			// A turn after an instruction answers it, however like the
			// turn before the instruction it is: it is no message passed on.
			lastTurn, lastWords = "", ""
			if lastRun != nil {
				// Read stripped, the run kept no report; the phase that
				// takes it up quotes it, and the quote is in the log.
				if m := reChatDevQuotedReport.FindStringSubmatch(words); m != nil {
					report := strings.TrimSpace(m[1])
					errType, empty := classify(report, false, false, chatdevRules)
					setResult(lastRun, report, errType, empty)
					lastRun.ToolResult.Reason = "the report as the next phase's instruction quotes it"
				}
				lastRun = nil
			}
		case turn != nil:
			from, header := turn[1], strings.Join(turn[2:], "|")
			to := turn[2] // the other role of the pair
			if to == from {
				to = turn[3]
			}
			words := chatdevWords(e.body)
			if header == lastTurn && strings.Join(strings.Fields(words), "") == strings.Join(strings.Fields(lastWords), "") {
				// ChatDev logs a turn's message again under the other
				// role when that role only passes it on (its lines
				// re-spaced at most): one message.
				continue
			}
			lastTurn, lastWords = header, words
			answer(from, words)
			s := r.add(e.pos, schema.StateAct.String())
			s.TS, s.Usage, usage = e.ts, usage, nil
			setCall(s, MessageTool, map[string]string{"from": from, "to": to, "text": words})
			pending, pendingFrom, lastReport = s, from, ""
			talk.turn(s, atoi(turn[5]), words)
		case e.head == "**[Update Codes]**":
			first, diff, _ := strings.Cut(e.body, "\n")
			m := reChatDevUpdated.FindStringSubmatch(strings.TrimSpace(first))
			if m == nil {
				// Nothing says which file changed: the entry is kept as a
				// reject, verbatim, and the rest of the log is read.
				d.Skipped = append(d.Skipped, BadLine{Line: e.line, Raw: []byte("**[Update Codes]**\n" + e.body),
					Reason: "an `**[Update Codes]**` entry that does not open with `FILE updated.`"})
				continue
			}
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = e.ts
			setCall(s, "write_file", map[string]string{"path": m[1], "diff": strings.TrimSpace(diff)})
			r.setResult(s, strings.TrimSpace(first), "", false)
			pending, lastReport = nil, ""
		case e.head == "**[Test Reports]**:":
			report := strings.TrimSpace(e.body)
			if report == lastReport {
				continue // the same run of the software, logged twice
			}
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = e.ts
			setCall(s, "run_software", map[string]string{"program": "main.py"})
			errType, empty := r.classify(report, false, false, chatdevRules)
			r.setResult(s, report, errType, empty)
			pending, lastReport, lastRun = nil, report, nil
			if r.strip {
				lastRun = s
			}
		case retry != nil || reChatDevRateLimit.MatchString(e.head):
			// A model request that failed and is tried again.
			errType, request := "ERROR", "/chat/completions"
			if retry != nil {
				request = retry[1]
			} else {
				errType = schema.ErrRateLimit
			}
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = e.ts
			setCall(s, "model", map[string]string{"request": request})
			r.setResult(s, e.head, errType, false)
			lastReport = ""
		case reChatDevUsage.MatchString(e.head):
			u := &schema.Usage{Model: model}
			for _, m := range reChatDevTokens.FindAllStringSubmatch(e.body, -1) {
				n, _ := strconv.ParseInt(m[2], 10, 64)
				if m[1] == "prompt_tokens" {
					u.PromptTokens = n
				} else {
					u.CompletionTokens = n
				}
			}
			if m := reChatDevCost.FindStringSubmatch(e.body); m != nil {
				if c, err := strconv.ParseFloat(m[1], 64); err == nil && c >= 0 {
					u.CostUSD = c
				}
			}
			usage = u
		case e.head == "**[CMD Execute]**":
			// ChatDev installs the module a test report said was
			// missing; what the install printed is not logged.
			m := reChatDevCommand.FindStringSubmatch(e.body)
			if m == nil {
				continue
			}
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = e.ts
			setCall(s, "run_command", map[string]string{"command": m[1]})
			pending, lastReport = nil, ""
		case e.head == "**[Post Info]**":
			finished = true
		}
	}
	talk.end()
	if len(r.steps) == 0 {
		return errors.New("the log holds no phase: no instruction, no agent's words, no code written or run")
	}
	// A log that reached its closing summary (`**[Post Info]**`) ended as
	// ChatDev ends a run: its last step is the stop.
	if last := r.steps[len(r.steps)-1]; finished && !last.ToolResult.IsError() {
		last.State = schema.StateStop.String()
	}
	return r.emit(emit)
}

// A discussion is a phase's turns between its two agents. ChatDev ends one
// when a turn's last line opens with `<INFO>` (the agents' conclusion), or
// after its chat_turn_limit turns (numbered from 0) whatever was said: then
// the framework, not the agents, ended the talk, and its Counselor extracts
// a conclusion from it. Two agents that agreed in their first turns and go
// on restating or embroidering the agreement to the limit are the stuck
// discussion a reader sees; the last turn of such a discussion is marked
// schema.ErrTurnLimit (RA208 reads it).
type discussion struct {
	limit     int // chat_turn_limit; 0 when the table does not say
	lastTurn  int // the highest turn number logged
	last      *schema.Step
	concluded bool
}

func (t *discussion) turn(s *schema.Step, n int, words string) {
	t.last, t.lastTurn = s, max(t.lastTurn, n)
	last := strings.TrimSpace(words)
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	if strings.HasPrefix(strings.TrimSpace(last), "<INFO>") {
		t.concluded = true
	}
}

// end marks the discussion's last turn when the turn limit, of more than
// one turn, cut it before any conclusion.
func (t *discussion) end() {
	if t.last == nil || t.concluded || t.limit < 2 || t.lastTurn != t.limit-1 {
		return
	}
	res := t.last.ToolResult
	if res == nil {
		res = &schema.ToolResult{}
		t.last.ToolResult = res
	}
	ok := false
	res.OK, res.ErrorType = &ok, schema.ErrTurnLimit
	res.Reason = fmt.Sprintf("the discussion used its %d turns without the agents' `<INFO>` conclusion", t.limit)
}

// atoi is s as a number, 0 when it is none.
func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}
