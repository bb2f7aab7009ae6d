package runstore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// team is a log of runs of two agents in review cycles: a review prompt
// (an instruction), the reviewer's comment, the programmer's code handed
// back. In runs 3k the reviewer makes one point every cycle in new words;
// in runs 3k+1 a new point each cycle; in runs 3k+2 the one point is made
// by the prompts (instructions), the reviewer answering in a new point.
// Each run has cycles review cycles (at most five).
func team(runs, cycles int) string {
	same := []string{
		"The code is missing the import statement for the tkinter module in main.py, so creating the window fails.",
		"main.py seems to be missing the import statement for tkinter; creating the window fails without it.",
		"The import statement for the tkinter module is missing in main.py and the window fails to open.",
		"Creating the window fails: main.py is missing the import statement for the tkinter module.",
		"The code in main.py is still missing the tkinter import statement, so the window fails.",
	}
	different := []string{
		"The Roll button has no command, so clicking it does nothing at all for the user.",
		"The window has no title; call root.title before the main loop starts to name it.",
		"The result label starts with an instruction instead of a result; start it empty instead.",
		"Users cannot choose the number of sides; add an entry and read it in the roll method.",
		"Values that are not whole numbers above one must be rejected with a message box.",
	}
	var b strings.Builder
	for r := range runs {
		step := 0
		turn := func(state, from, to, text string) {
			fmt.Fprintf(&b, `{"run_id":"team-%03d","step":%d,"state":%q,"tool_call":{"name":"message","args":{"from":%q,"to":%q,"text":%q}},"tool_result":{"ok":true}}`+"\n", r, step, state, from, to, text)
			step++
		}
		for cycle := range cycles {
			prompt := fmt.Sprintf("Review the code of cycle %d against the regulations and give the one comment with the highest priority.", cycle)
			comment := same[cycle]
			switch r % 3 {
			case 1:
				comment = different[cycle]
			case 2:
				prompt, comment = same[cycle], different[cycle]
			}
			turn("PLAN", "Programmer", "Code Reviewer", prompt)
			turn("ACT", "Code Reviewer", "Programmer", comment)
			turn("ACT", "Programmer", "Code Reviewer", fmt.Sprintf("Done.\n```python\nimport random\n# version %d\nprint(random.randint(1, 6))\n```", cycle))
		}
	}
	return b.String()
}

// Turns of one agent to another that make one point in new words are
// restated (RA208, runaway at four, onset at the prompt the first
// answers); new points each cycle, and one point made by instructions,
// are not. Spilled and read back in partitions, the collectors reach the
// same marks and verdicts.
func TestRestatedTurnsAndSpills(t *testing.T) {
	text := team(12, 5)
	want := NewCollector([]string{"in.jsonl"})
	readLog(t, text, 16, want.Add)
	for _, r := range want.Results(detect.DefaultPolicy(), 2) {
		var restated *detect.Finding
		for k := range r.Findings {
			if r.Findings[k].Detector == detect.RestatedTurn.ID {
				restated = &r.Findings[k]
			}
		}
		var n int
		fmt.Sscanf(r.RunID, "team-%d", &n)
		if n%3 != 0 {
			if restated != nil {
				t.Errorf("%s: %s", r.RunID, restated.Message)
			}
			continue
		}
		if restated == nil || restated.Severity != detect.Runaway || r.RootCause != detect.CauseReplanLoop || r.OnsetStep != 0 {
			t.Errorf("%s: verdict %v cause %q onset %d, finding %+v; want RA208 runaway, replan-loop from step 0", r.RunID, r.Verdict, r.RootCause, r.OnsetStep, restated)
		}
	}
	spilledAlike(t, text, want)
}

// The same point made three times is suspicious; the fourth time, eight
// turns of two agents going round, runaway.
func TestRestatedPointCounts(t *testing.T) {
	for cycles, want := range map[int]detect.Verdict{2: detect.Healthy, 3: detect.Suspicious, 4: detect.Runaway} {
		c := NewCollector([]string{"in.jsonl"})
		readLog(t, team(1, cycles), 16, c.Add)
		res := c.Results(detect.DefaultPolicy(), 1)
		if len(res) != 1 || res[0].Verdict != want {
			t.Errorf("the same point in %d cycles: %+v, want %v", cycles, res, want)
		}
	}
}

// discussion is a log of one run of two agents talking without a call
// between their turns: with echo, each turn says again, in other words,
// what the other agent just said (two agents agreeing on one plan turn
// after turn instead of closing the discussion); without, each turn
// makes a point of its own.
func discussion(echo bool, turns int) string {
	agree := []string{
		"I agree that we should build the dice game as a Python desktop application with a simple window and one button.",
		"Agreed, the dice game should be a Python desktop application with a simple window and one roll button.",
		"Yes, we should build the dice game as a Python desktop application: a simple window with one roll button.",
		"I agree completely: a Python desktop application for the dice game, a simple window and one button to roll.",
		"Agreed again: the dice game as a Python desktop application with one simple window and a roll button.",
		"Yes, a Python desktop application for the dice game, one simple window with the roll button, as we agreed.",
	}
	points := []string{
		"I think the product should be a web page, since users can open it anywhere without installing anything.",
		"A mobile application would reach more people, and shaking the phone to roll feels natural for dice.",
		"We must also decide who plays: one person alone, or several players taking turns around one device.",
		"The budget is small, so whatever we choose should take a single programmer no more than a week.",
		"Accessibility matters too: large buttons, readable numbers and sound for the visually impaired users.",
		"Finally the rules: plain six-sided dice first, other dice and betting only in a later version.",
	}
	var b strings.Builder
	for k := range turns {
		from, to := "Chief Executive Officer", "Chief Technology Officer"
		if k%2 == 1 {
			from, to = to, from
		}
		text := points[k]
		if echo {
			text = agree[k]
		}
		b.WriteString(talkLine(k, from, to, text, `{"ok":true}`))
	}
	return b.String()
}

// Two agents answering each other with the same point, turn after turn,
// go round it as one agent restating it does (RA208): the third such
// turn is suspicious, the fourth runaway, from the first turn. Two agents
// each making a new point are discussing, however long.
func TestEchoedPointCounts(t *testing.T) {
	for _, c := range []struct {
		echo  bool
		turns int
		want  detect.Verdict
	}{
		{true, 2, detect.Healthy}, {true, 3, detect.Suspicious}, {true, 4, detect.Runaway}, {true, 6, detect.Runaway},
		{false, 6, detect.Healthy},
	} {
		col := NewCollector([]string{"in.jsonl"})
		readLog(t, discussion(c.echo, c.turns), 16, col.Add)
		res := col.Results(detect.DefaultPolicy(), 1)
		if len(res) != 1 || res[0].Verdict != c.want {
			t.Errorf("echo %v, %d turns: %+v, want %v", c.echo, c.turns, res, c.want)
			continue
		}
		if c.want == detect.Runaway && (res[0].RootCause != detect.CauseReplanLoop || res[0].OnsetStep != 0 || res[0].Findings[0].Detector != detect.RestatedTurn.ID) {
			t.Errorf("echo, %d turns: cause %q onset %d, first finding %s; want RA208's replan-loop from step 0", c.turns, res[0].RootCause, res[0].OnsetStep, res[0].Findings[0].Detector)
		}
	}
}

// talkLine is one step of the run "talk": a turn from one agent to
// another, answered by result (a tool_result object).
func talkLine(step int, from, to, text, result string) string {
	return fmt.Sprintf(`{"run_id":"talk","step":%d,"state":"ACT","tool_call":{"name":"message","args":{"from":%q,"to":%q,"text":%q}},"tool_result":%s}`+"\n", step, from, to, text, result)
}

// cutDiscussion is a run of an instruction and messages turns of two
// agents, each turn on a point of its own (a part of the game it designs),
// the last failed with TURN_LIMIT when cut is set: the framework ended the
// talk at its turn limit before the agents concluded it.
func cutDiscussion(messages int, cut bool) string {
	points := []string{
		"Python it is, since the team already knows it well.",
		"Then a Tkinter window with one large button should be enough for rolling.",
		"We could also keep a history of previous throws in a side panel.",
		"Sound effects would make each throw feel more physical and fun.",
		"Players might want dice with twenty sides for tabletop role games.",
		"Saving high scores to disk needs a tiny JSON file beside the program.",
		"Colour themes, dark and light, help people who play at night.",
		"Unit tests must cover random seeds so results stay reproducible.",
		"Packaging with PyInstaller gives Windows users a single executable.",
		"Documentation should explain installation steps and keyboard shortcuts.",
	}
	var b strings.Builder
	b.WriteString(`{"run_id":"talk","step":0,"state":"PLAN","tool_call":{"name":"message","args":{"from":"Chief Executive Officer","to":"Chief Technology Officer","text":"Decide the programming language, then conclude with one line: <INFO> followed by the language."}},"tool_result":{"ok":true}}` + "\n")
	for k := range messages {
		from, to := "Chief Technology Officer", "Chief Executive Officer"
		if k%2 == 1 {
			from, to = to, from
		}
		result := `{"ok":true}`
		if cut && k == messages-1 {
			result = `{"ok":false,"error_type":"TURN_LIMIT"}`
		}
		text := points[k]
		b.WriteString(talkLine(k+1, from, to, text, result))
	}
	return b.String()
}

// A discussion the framework cut at its turn limit went round without an
// end however new each turn's words (RA208): its turns, counted as the
// framework counts them (an exchange of the two agents' messages), are
// suspicious at three and runaway at four, from the instruction that opened
// it. The same talk that was not cut is the agents discussing.
func TestCutDiscussion(t *testing.T) {
	for _, c := range []struct {
		messages int
		cut      bool
		want     detect.Verdict
	}{
		{10, false, detect.Healthy},
		{4, true, detect.Healthy},
		{6, true, detect.Suspicious},
		{8, true, detect.Runaway},
	} {
		col := NewCollector([]string{"in.jsonl"})
		readLog(t, cutDiscussion(c.messages, c.cut), 16, col.Add)
		res := col.Results(detect.DefaultPolicy(), 1)
		if len(res) != 1 || res[0].Verdict != c.want {
			t.Errorf("%d messages, cut %v: %+v, want %v", c.messages, c.cut, res, c.want)
			continue
		}
		if c.want == detect.Runaway && (res[0].RootCause != detect.CauseReplanLoop || res[0].OnsetStep != 0) {
			t.Errorf("%d messages cut: cause %q onset %d, want replan-loop from the instruction, step 0", c.messages, res[0].RootCause, res[0].OnsetStep)
		}
	}
}

// Two agents settle into saying one point again and again only after
// taking it up in words of their own: a proposal, a reply that says it back
// with a quarter to a half of its words, then the echoes. The chain's onset
// walks back to the proposal; a turn before it that moved the talk on (a new
// point) is not walked over, nor is an instruction. The count, and the
// severity, stay the echoes' own.
func TestEchoChainBeginsWhereThePointWasTakenUp(t *testing.T) {
	opening := []string{
		"Before deciding, note that users could also reach a web page from any phone without installing anything at all.",
		"Let us build the dice game as a Python desktop application: a simple window, one roll button, and a history of previous throws shown below.",
		"Good idea. A Python desktop application with one window and a roll button works for me; the history can wait for the next version.",
	}
	agree := []string{
		"I agree that we should build the dice game as a Python desktop application with a simple window and one button.",
		"Agreed, the dice game should be a Python desktop application with a simple window and one roll button.",
		"Yes, we should build the dice game as a Python desktop application: a simple window with one roll button.",
		"I agree completely: a Python desktop application for the dice game, a simple window and one button to roll.",
	}
	words := func(s string) []uint32 {
		var out []uint32
		for _, w := range schema.AgentTurnWords(s) {
			out = append(out, fold32(schema.IDHash(w)))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	// The sample says what it is meant to: the reply takes up the proposal,
	// the first echo takes up the reply, the proposal moved on from the
	// turn before it.
	for _, c := range []struct {
		a, b   string
		lo, hi float64
	}{
		{opening[1], opening[2], answeredSimilarity, restatedSimilarity},
		{opening[2], agree[0], answeredSimilarity, restatedSimilarity},
		{opening[0], opening[1], 0, answeredSimilarity},
	} {
		if sim := jaccard(words(c.a), words(c.b)); sim < c.lo || sim >= c.hi {
			t.Fatalf("the sample's similarity %.2f is not in [%.2f, %.2f): %q / %q", sim, c.lo, c.hi, c.a, c.b)
		}
	}
	var b strings.Builder
	b.WriteString(`{"run_id":"talk","step":0,"state":"PLAN","tool_call":{"name":"message","args":{"from":"Chief Executive Officer","to":"Chief Product Officer","text":"Decide the product modality, then conclude with one line: <INFO> followed by the modality."}},"tool_result":{"ok":true}}` + "\n")
	for k, text := range append(append([]string(nil), opening...), agree...) {
		from, to := "Chief Product Officer", "Chief Executive Officer"
		if k%2 == 1 {
			from, to = to, from
		}
		b.WriteString(talkLine(k+1, from, to, text, `{"ok":true}`))
	}
	col := NewCollector([]string{"in.jsonl"})
	readLog(t, b.String(), 16, col.Add)
	res := col.Results(detect.DefaultPolicy(), 1)
	if len(res) != 1 || res[0].Verdict != detect.Runaway || res[0].Findings[0].Detector != detect.RestatedTurn.ID {
		t.Fatalf("%+v, want RA208 runaway", res)
	}
	if res[0].OnsetStep != 2 {
		t.Errorf("onset %d, want 2: the proposal the reply took up", res[0].OnsetStep)
	}
	if got := res[0].Findings[0].Evidence.Counts[0]; got.Value != 4 {
		t.Errorf("%s = %d, want 4: the echoes alone, the turns walked back over not counted", got.Name, got.Value)
	}
}

// A turn of a few words makes its point again only word for word, and
// only within one discussion: an agent answering "**Python**" to the same
// agent, again and again, while the other never closes the talk, goes
// round one point (RA208, from its first "**Python**"); the same short
// turn at the end of each phase, an instruction opening the next phase
// between them, does not; nor do different short turns.
func TestShortTurnsRepeatedWordForWord(t *testing.T) {
	ceo, cto := "Chief Executive Officer", "Chief Technology Officer"
	musings := []string{
		"I'm glad we agree on the language; before we close, let us also think about the packaging for Windows users.",
		"As the Chief Executive Officer, I would like us to consider documentation and the onboarding of new users.",
		"Let me also raise testing: random seeds must be fixed so that every throw can be reproduced later on.",
		"Another thought: a history panel listing previous throws could make the game more fun for the players.",
		"We should keep the budget in mind, since a single programmer has about one week for the whole project.",
		"Finally, accessibility matters: large buttons, readable numbers and sounds for visually impaired players.",
	}
	build := func(short func(k int) string, instructionBetween bool) string {
		var b strings.Builder
		step := 0
		add := func(state, from, to, text string) {
			fmt.Fprintf(&b, `{"run_id":"talk","step":%d,"state":%q,"tool_call":{"name":"message","args":{"from":%q,"to":%q,"text":%q}},"tool_result":{"ok":true}}`+"\n", step, state, from, to, text)
			step++
		}
		for k, m := range musings {
			if k == 0 || instructionBetween {
				add("PLAN", ceo, cto, fmt.Sprintf("Phase %d: decide the programming language, then conclude with one line: <INFO> followed by the language.", k))
			}
			add("ACT", ceo, cto, m)
			add("ACT", cto, ceo, short(k))
		}
		return b.String()
	}
	same := func(int) string { return "**Python**" }
	concluded := func(k int) string {
		if k == len(musings)-1 {
			return "<INFO> **Python**" // ChatDev's conclusion: the same point once more
		}
		return "**Python**"
	}
	different := func(k int) string {
		return []string{"Python.", "Java.", "Go, maybe.", "Rust?", "Kotlin.", "C sharp."}[k]
	}
	for _, c := range []struct {
		name      string
		log       string
		want      detect.Verdict
		wantOnset int64
	}{
		{"the same short turn six times in one discussion", build(same, false), detect.Runaway, 2},
		{"the same short turn five times, then as the conclusion", build(concluded, false), detect.Runaway, 2},
		{"the same short turn closing each of six phases", build(same, true), detect.Healthy, -1},
		{"six different short turns", build(different, false), detect.Healthy, -1},
	} {
		col := NewCollector([]string{"in.jsonl"})
		readLog(t, c.log, 16, col.Add)
		res := col.Results(detect.DefaultPolicy(), 1)
		if len(res) != 1 {
			t.Fatalf("%s: %d results", c.name, len(res))
		}
		r := res[0]
		if r.Verdict != c.want || (c.want == detect.Runaway && (r.OnsetStep != c.wantOnset || r.Findings[0].Detector != detect.RestatedTurn.ID)) {
			t.Errorf("%s: %v onset %d %+v, want %v onset %d", c.name, r.Verdict, r.OnsetStep, r.Findings, c.want, c.wantOnset)
		}
		if c.want == detect.Runaway && !strings.Contains(r.Findings[0].Message, "word for word") {
			t.Errorf("%s: %q, want the headline to say the turn was said word for word", c.name, r.Findings[0].Message)
		}
	}
}
