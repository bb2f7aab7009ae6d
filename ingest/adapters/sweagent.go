package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// SWEAgent reads SWE-agent's .traj files: one JSON document per run whose
// "trajectory" lists the agent's turns (action, observation, thought), with
// the exit status and the run's model statistics under "info".
var SWEAgent = &Format{
	Name:      "swe-agent",
	Title:     "SWE-agent trajectories (.traj)",
	Recognize: recognizeSWEAgent,
	Convert:   convertSWEAgent,
}

type sweTraj struct {
	Trajectory []sweEntry `json:"trajectory"`
	Info       struct {
		ExitStatus *string `json:"exit_status"`
		ModelStats struct {
			InstanceCost   float64 `json:"instance_cost"`
			TokensSent     int64   `json:"tokens_sent"`
			TokensReceived int64   `json:"tokens_received"`
		} `json:"model_stats"`
	} `json:"info"`
}

type sweEntry struct {
	Action      string          `json:"action"`
	Observation json.RawMessage `json:"observation"`
	Thought     string          `json:"thought"`
}

func recognizeSWEAgent(d *Doc) error {
	if _, ok := sweChatsOf(d); ok {
		return nil
	}
	if !d.IsObject() {
		return errors.New("not a JSON object")
	}
	raw, ok := d.obj["trajectory"]
	if !ok {
		return errors.New(`no "trajectory" list`)
	}
	if !d.Has("info") && !d.Has("history") && !d.Has("environment") {
		return errors.New(`"trajectory" without "info", "history" or "environment"`)
	}
	el, ok := firstElement(raw)
	if !ok {
		return errors.New(`"trajectory" is not a list of objects`)
	}
	if el == nil {
		return nil // an empty trajectory: Convert says so
	}
	var first struct {
		Action      *json.RawMessage `json:"action"`
		Observation *json.RawMessage `json:"observation"`
	}
	if json.Unmarshal(el, &first) != nil {
		return errors.New(`"trajectory" is not a list of objects`)
	}
	if first.Action == nil || first.Observation == nil {
		return errors.New(`"trajectory" entries lack "action" and "observation"`)
	}
	return nil
}

// sweCommands are SWE-agent's own tools (0.x and 1.x tool bundles): an
// action that starts with one is a call of that tool; any other action is a
// shell command.
var sweCommands = map[string]bool{
	"open": true, "goto": true, "scroll_up": true, "scroll_down": true, "create": true, "edit": true,
	"search_dir": true, "search_file": true, "find_file": true, "submit": true, "exit_forfeit": true,
	"str_replace_editor": true, "insert": true, "append": true, "filemap": true, "view": true,
	"str_replace": true, "undo_edit": true, "windowed_edit_linting": true,
}

// sweExits are the actions SWE-agent 0.x writes in place of the model's
// when it ends a run on a limit or a failure (the cost limit, the context
// window, an API that kept failing, repeated format errors): the harness's
// exit, as 1.x's entry with an empty action is, not a command the agent
// gave. exit_forfeit, the agent's own command to give up, is not one.
var sweExits = map[string]bool{"exit_cost": true, "exit_context": true, "exit_api": true, "exit_format": true, "exit_error": true}

// sweViews show file content.
var sweViews = map[string]bool{"open": true, "goto": true, "scroll_up": true, "scroll_down": true, "filemap": true, "view": true}

var (
	reSWENotFound = regexp.MustCompile(`^(?:File|Directory) .* not found$|^The (?:parent directory|path) .* does not exist`)
	reSWEUsage    = regexp.MustCompile(`^(?:Usage: |Invalid |No file open|Error: )`)
	// reRoverEmpty is how AutoCodeRover's search API, which CodeR gives
	// its agents as the rover_search_* commands, says it found nothing.
	reRoverEmpty = regexp.MustCompile(`^(?:Found 0 \w+ |Could not find \w+ .* in (?:the codebase|file |class )|Class .* did not appear in the codebase|There is no method with name )`)
	// reWarningOnly is a warning Python printed on one line, without the
	// source line (`<unknown>:23: SyntaxWarning: invalid escape sequence`:
	// the code it compiled has no file).
	reWarningOnly = regexp.MustCompile(`^\S+:\d+: [A-Za-z]*Warning: `)
)

// sweRoverRules read the answers of CodeR's rover_search_* commands
// (rover_search_class, rover_search_method, rover_search_code,
// rover_search_code_in_file, ...): shell scripts of its harness, not
// SWE-agent's own commands, whose answers are AutoCodeRover's.
var sweRoverRules = []OutputRule{
	{
		Name: "rover-search-empty",
		Doc:  "the answer of CodeR's AutoCodeRover search commands (`rover_search_class`, `rover_search_method`, `rover_search_code`, `rover_search_code_in_file`), past the one-line warnings Python printed before it, says the search found nothing: `Found 0 methods with name get in the codebase.`, `Could not find code X in the codebase.` (`Could not find method X in class Y`, `... in file F`), `Class X did not appear in the codebase.`, `There is no method with name X in file F.`",
		match: func(o *output) (string, bool) {
			for _, line := range strings.Split(strings.TrimSpace(o.text), "\n") {
				line = strings.TrimSpace(line)
				if line == "" || reWarningOnly.MatchString(line) {
					continue
				}
				return "", reRoverEmpty.MatchString(line)
			}
			return "", false
		},
	},
}

// reSWECancelled is SWE-agent's message in place of the output of a command
// it killed for running past its time limit.
var reSWECancelled = regexp.MustCompile(`^The command '.*' was cancelled because it took more than \d+ seconds\.`)

// sweCancelled reads SWE-agent's message in place of the output of any
// command it stopped, a shell command's as well as its own commands'.
var sweCancelled = OutputRule{
	Name: "cancelled-timeout", ErrorType: schema.ErrTimeout, ViewsToo: true, Harness: true,
	Doc: "SWE-agent's own message for a command it stopped, whatever the command: `The command 'CMD' was cancelled because it took more than 300 seconds. Please try a different command that completes more quickly.`",
	match: func(o *output) (string, bool) {
		return "", reSWECancelled.MatchString(o.first)
	},
}

// sweShellRules and sweShellRoverRules come before the generic rules for a
// shell command's output.
var (
	sweShellRules      = []OutputRule{sweCancelled}
	sweShellRoverRules = append([]OutputRule{sweCancelled}, sweRoverRules...)
)

// sweRules come before the generic rules for SWE-agent's outputs.
var sweRules = []OutputRule{
	createExistsRule,
	sweCancelled,
	{
		Name: "edit-rejected", ErrorType: schema.ErrEditRejected,
		Doc: "the editor refused the edit: `Your proposed edit has introduced new syntax error(s)`, `No replacement was performed`, `did not appear verbatim`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "Your proposed edit has introduced new syntax error") ||
				strings.Contains(o.text, "No replacement was performed") ||
				strings.Contains(o.text, "did not appear verbatim")
		},
	},
	{
		Name: "usage-error", ErrorType: schema.ErrUsage, ViewsToo: true,
		Doc: "the command was called wrongly: the first line begins `Usage: `, `Invalid `, `No file open` or `Error: `",
		match: func(o *output) (string, bool) {
			return "", reSWEUsage.MatchString(o.first)
		},
	},
	{
		Name: "not-found", ErrorType: "NO_SUCH_FILE", ViewsToo: true,
		Doc: "the first line is `File X not found`, `Directory X not found`, `The path X does not exist` or, for a create, `The parent directory X does not exist. Please create it first.`",
		match: func(o *output) (string, bool) {
			return "", reSWENotFound.MatchString(o.first)
		},
	},
}

func convertSWEAgent(d *Doc, emit func(*schema.Step) error) error {
	if chats, ok := sweChatsOf(d); ok {
		return convertSWEChats(d, chats, emit)
	}
	var t sweTraj
	if err := json.Unmarshal(d.Raw, &t); err != nil {
		return jsonError(err)
	}
	r := d.newRun(runName(d, 0, false, ""))
	var noOutput []bool
	if r.strip {
		noOutput = sweNoOutput(d.Raw, len(t.Trajectory))
	}
	turns := make([]sweTurn, len(t.Trajectory))
	for i, e := range t.Trajectory {
		turns[i] = sweTurn{pos: i, action: e.Action, thought: e.Thought, obs: text(e.Observation)}
	}
	sweSteps(r, turns, noOutput)
	ms := t.Info.ModelStats
	r.spreadUsage(ms.TokensSent, ms.TokensReceived, ms.InstanceCost)
	if len(r.steps) == 0 {
		return errors.New("the trajectory is empty")
	}
	return r.emit(emit)
}

// sweTurn is one turn of a SWE-agent run: the action that ran, the
// model's thought, the observation it got back, and the turn's position in
// the source's list (its step number).
type sweTurn struct {
	pos                  int
	action, thought, obs string
}

// sweSteps adds a step to r for each turn. noOutput, when not nil, marks
// the turns whose command the log says printed nothing (sweNoOutput).
func sweSteps(r *run, turns []sweTurn, noOutput []bool) {
	var pager swePager
	for i, e := range turns {
		action := strings.TrimSpace(e.action)
		s := r.add(e.pos, "")
		setReason(s, e.thought)
		if action == "" || sweExits[action] {
			continue // a turn that ran nothing (a format error, an exit)
		}
		name := firstWord(action)
		tool, search, view := "bash", false, false
		var args any
		if sweCommands[name] {
			tool = name
			rest := strings.TrimSpace(strings.TrimPrefix(action, name))
			if name == "str_replace_editor" {
				sub := firstWord(rest)
				view = sub == "view"
			}
			view = view || sweViews[name]
			search = isSearch(name)
			args = map[string]string{"args": rest}
			// Without the output, a scroll's page is known only by
			// where the viewer stands (swePager); with it, by its text.
			if r.strip {
				if place, ok := pager.move(name, rest); ok {
					args = map[string]string{"args": rest, "position": place}
					if name == "scroll_down" && i+1 < len(turns) && saidFileEnd(turns[i+1].thought) {
						pager.atEnd()
					}
				}
			}
		} else {
			search = commandSearches(action)
			view = viewsFiles(action)
			args = map[string]string{"command": action}
		}
		setCall(s, tool, args)
		s.State = schema.StateAct.String()
		if name == "submit" || name == "exit_forfeit" {
			s.State = schema.StateStop.String()
		}
		if search {
			s.Intent = searchIntent
		}
		r.noteView(s, view)
		// SWE-agent's own messages come from its own commands: a program
		// run in the shell that prints "Error: ..." is read by the shared
		// rules (its traceback, its error line).
		// CodeR's rover_search_* commands answer as AutoCodeRover's search
		// API does.
		rules := sweRules
		if tool == "bash" {
			rules = sweShellRules
			if strings.HasPrefix(program(action), "rover_search") {
				rules = sweShellRoverRules
			}
		}
		if i < len(noOutput) && noOutput[i] {
			r.setBlank(s, search, view, rules)
			continue
		}
		errType, empty := r.classify(e.obs, search, view, rules)
		r.setResult(s, e.obs, errType, empty)
	}
}

// swePager follows where SWE-agent's file viewer stands, as its commands
// move it: open FILE [LINE] and create FILE open a file (at its top, or
// around LINE), goto LINE moves within it, an edit (edit, insert, append)
// shows the lines it changed, and scroll_down and scroll_up move a page
// from there, scroll_up never above the top of a file opened at its top,
// scroll_down never past where the agent said the end of the file was.
// A scroll's place is the file, the last command that placed the view, and
// the pages scrolled since: scroll_down three times shows three pages,
// goto 241 and scroll_down twice over shows the same page twice.
type swePager struct {
	file  string // the open file, as the agent named it
	place string // where the last command that placed the view put it: "" for the file's top
	pages int    // pages scrolled since, down counting +1 and up -1
	// ends holds, per file and place, the pages down from there at which
	// the agent said the view reached the end of the file: scrolling
	// further down shows that last page again. An edit forgets them.
	ends map[string]int
}

// reSWEFileEnd is the agent saying a scroll reached the end of the file.
var reSWEFileEnd = regexp.MustCompile(`(?i)\b(?:reached|hit) the (?:very )?(?:end|bottom) of the file\b`)

// saidFileEnd reports whether the opening of the agent's words says the
// view reached the end of the file (not "we haven't reached the end of
// the file", nor a plan to).
func saidFileEnd(words string) bool {
	said := false
	openingReports(words, func(report, _ string) bool {
		said = saidAt(reSWEFileEnd, report, nil) >= 0
		return said
	})
	return said
}

// atEnd records that the view is at the end of the file.
func (p *swePager) atEnd() {
	if p.ends == nil {
		p.ends = map[string]int{}
	}
	p.ends[p.file+"\x00"+p.place] = p.pages
}

// move updates the pager for a call of SWE-agent's command name with the
// arguments rest and, for a scroll, returns the place it showed.
func (p *swePager) move(name, rest string) (string, bool) {
	arg := func(i int) string {
		f := strings.Fields(rest) // open, create and goto only: an edit's text is not split
		if i < len(f) {
			return strings.Trim(f[i], `"'`)
		}
		return ""
	}
	at := func(line string) string { // the view around a line; "" for the top
		if line == "" || line == "1" {
			return ""
		}
		return "line " + line
	}
	switch name {
	case "open":
		p.file, p.place, p.pages = arg(0), at(arg(1)), 0
	case "create":
		p.file, p.place, p.pages = arg(0), "", 0
	case "goto":
		p.place, p.pages = at(arg(0)), 0
	case "edit", "insert", "append":
		line, _, _ := strings.Cut(rest, "\n")
		p.place, p.pages, p.ends = name+" "+strings.TrimSpace(line), 0, nil
	case "scroll_down", "scroll_up":
		if name == "scroll_down" {
			p.pages++
			if end, ok := p.ends[p.file+"\x00"+p.place]; ok && p.pages > end {
				p.pages = end
			}
		} else {
			p.pages--
			if p.place == "" && p.pages < 0 {
				p.pages = 0
			}
		}
		place := p.place
		if place == "" {
			place = "top"
		}
		return fmt.Sprintf("%s %s %+d", p.file, place, p.pages), true
	}
	return "", false
}

// reSWENoOutput is how SWE-agent's default templates begin the message
// it sends the model in place of an observation that was blank
// (next_step_no_output_template): its own words, not the tool's.
var reSWENoOutput = regexp.MustCompile(`^Your (?:last )?command ran successfully and did not produce any output\.`)

// sweNoOutput says, for each trajectory entry, whether the last message of
// its "messages" (the harness's account of the entry's observation, as the
// model was shown it) is SWE-agent's message for a command that printed
// nothing. Only read when the output is stripped: a log that keeps the
// messages the model was shown but not the tool's output still holds it.
func sweNoOutput(raw []byte, n int) []bool {
	var t struct {
		Trajectory []struct {
			Messages []json.RawMessage `json:"messages"`
		} `json:"trajectory"`
	}
	if json.Unmarshal(raw, &t) != nil || len(t.Trajectory) != n {
		return nil
	}
	out := make([]bool, n)
	for i, e := range t.Trajectory {
		if len(e.Messages) == 0 {
			continue
		}
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(e.Messages[len(e.Messages)-1], &m) != nil || m.Role != "user" && m.Role != "tool" {
			continue
		}
		out[i] = reSWENoOutput.MatchString(strings.TrimSpace(text(m.Content)))
	}
	return out
}
