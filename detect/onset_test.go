package detect_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// The onset is the first instance of what then repeats: these runs put it
// before, inside and after where a detector's own segment begins.

func view(file string, from int) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"view","args":{"path":%q,"from":%d}},"tool_result":{"ok":true,"data":"lines of %s from %d"}`, file, from, file, from)
}

func grep(pattern, found string) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"grep","args":{"pattern":%q}},"tool_result":{"ok":true,"data":%q}`, pattern, found)
}

// A block of reads first run while exploring, then replayed lap after lap:
// the loop began with the block's first run, a grep that located a line in
// the middle of it included, not with its first replay.
func TestOnsetIsTheFirstLapOfAReplayedBlock(t *testing.T) {
	r := newRun("laps")
	for i := 0; i < 4; i++ { // exploring: every read new
		r.add(view("setup.py", i*50))
	}
	block := []string{view("a.py", 10), view("a.py", 40), grep("class In", "12: class In")}
	r.add(block[0]).add(block[1]).add(grep("def helper", "90: def helper")).add(block[2]) // first lap, steps 4-7
	for lap := 0; lap < 6; lap++ {
		for _, b := range block {
			r.add(b)
		}
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop {
		t.Fatalf("replayed block: %v %v %v", res.Verdict, res.RootCause, detectors(res))
	}
	if res.OnsetStep != 4 {
		t.Fatalf("onset %d, want 4 (the block's first run); findings %+v", res.OnsetStep, res.Findings)
	}
}

// Two new calls in a row are the agent doing something else: the walk back
// stops there, however often the same read was made before.
func TestOnsetStopsAtWorkBetween(t *testing.T) {
	r := newRun("work")
	r.add(view("a.py", 10)).add(grep("x", "1: x")).add(grep("y", "2: y")) // read once, then two new searches
	for i := 0; i < 6; i++ {
		r.add(view("a.py", 10))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != 3 {
		t.Fatalf("onset %d verdict %v, want runaway from step 3: %+v", res.OnsetStep, res.Verdict, res.Findings)
	}
}

func failing(tool, arg, errType, msg string) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":%q,"args":{"arg":%q}},"tool_result":{"ok":false,"error_type":%q,"data":%q}`, tool, arg, errType, msg)
}

// A storm that opens with one unrelated failure begins with the first
// failure that comes back.
func TestOnsetSkipsAFailureThatNeverComesBack(t *testing.T) {
	r := newRun("storm")
	r.add(view("a.py", 1))
	r.add(failing("fetch", "https://a.example/x", "NOT_FOUND", "404 not found")) // step 1: tried once
	for i := 0; i < 6; i++ {
		r.add(failing("deploy", "svc", "PERMISSION_DENIED", "403 token lacks deploy scope"))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 2 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 2: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// Of two storms, RA301 reports the longer; the run's onset is its primary
// finding's, here the first storm's repeated identical call, which began
// first (docs/root-causes.md, rule 7).
func TestTwoStormsOfIdenticalCalls(t *testing.T) {
	r := newRun("two-storms")
	r.add(view("a.py", 1))
	for i := 0; i < 6; i++ { // steps 1-6
		r.add(failing("edit", "a.py", "EDIT_REJECTED", "edit rejected: syntax error E999"))
	}
	r.add(`"state":"ACT","tool_call":{"name":"edit","args":{"arg":"a.py v2"}},"tool_result":{"ok":true,"data":"edited a.py"}`)
	r.add(view("b.py", 1)).add(view("b.py", 80))
	for i := 0; i < 10; i++ { // steps 10-19
		r.add(failing("insert", "b.py", "EDIT_REJECTED", "insert rejected: syntax error E999 in b.py"))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != 1 {
		t.Fatalf("onset %d verdict %v, want runaway from step 1: %+v", res.OnsetStep, res.Verdict, res.Findings)
	}
	for _, f := range res.Findings {
		if f.Detector == "RA301" && f.OnsetStep != 10 {
			t.Fatalf("the storm finding must show the longer storm: %+v", f)
		}
	}
}

// Empty searches with real reading between them are separate searches: an
// agent that finds nothing twice, reads what it has, and later searches
// again is not in an empty-result loop.
func TestEmptySearchesWithWorkBetweenAreNotOneLoop(t *testing.T) {
	empty := func(q string) string {
		return fmt.Sprintf(`"state":"ACT","intent":"find config","tool_call":{"name":"search","args":{"q":%q}},"tool_result":{"ok":true,"result_count":0}`, q)
	}
	r := newRun("searches")
	r.add(empty("config loader")).add(empty("config loading"))
	for i := 0; i < 4; i++ {
		r.add(view(fmt.Sprintf("pkg%d/main.go", i), 1))
	}
	r.add(empty("settings file")).add(empty("settings path")).add(empty("settings yaml"))
	res := one(t, detect.DefaultPolicy(), r.text())
	if slices.Contains(detectors(res), "RA601") && res.Verdict == detect.Runaway {
		t.Fatalf("searches separated by work must not add up to a runaway empty-result loop: %+v", res.Findings)
	}
	// The same five empties in a row are.
	r = newRun("loop")
	for _, q := range []string{"config loader", "config loading", "settings file", "settings path", "settings yaml"} {
		r.add(empty(q))
	}
	if res := one(t, detect.DefaultPolicy(), r.text()); res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop {
		t.Fatalf("five empty rephrased searches in a row: %v %v %+v", res.Verdict, res.RootCause, res.Findings)
	}
}

// A failure the stretch opens with that never comes back is skipped: the
// onset is a call that comes back. It is still one of the stretch's
// failures, not the agent doing something else, so it does not count
// among the new calls that end the walk back: past it and one call more
// (an edit of the file the check fails in, which changed nothing that
// fails), the walk goes on to the check's first failure. An edit of
// another file is a change that worked and ends the walk, and the stuck
// stretch begins after it.
func TestOnsetWalkPassesTheFailureTheStretchOpensWith(t *testing.T) {
	trace := "Traceback (most recent call last):\n  File \"/repo/calc.py\", line 4, in <module>\n    return a +\nSyntaxError: invalid syntax"
	check := failing("bash", "python repro.py", "SyntaxError", trace)
	edit := func(file string) string {
		return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"path":%q,"new":"return a + b"}},"tool_result":{"ok":true,"data":"%s edited"}`, "/repo/"+file, file)
	}
	for file, want := range map[string]int64{"calc.py": 1, "util.py": 4} {
		r := newRun("opens-" + file)
		r.add(view("README.md", 1)).add(check).add(edit(file))                              // steps 0-2
		r.add(failing("lint", "ruff calc.py", "LINT_ERROR", "calc.py:4: E999 SyntaxError")) // step 3: opens the streak, never comes back
		for range 5 {                                                                       // steps 4-8
			r.add(check)
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.OnsetStep != want {
			t.Errorf("edit of %s at step 2: onset %d verdict %v, want runaway from step %d: %+v", file, res.OnsetStep, res.Verdict, want, res.Findings)
		}
	}
}

// Of two storms that both ran away, the longer is where the agent got
// stuck: a burst it worked its way out of, with real progress after it,
// is not the onset.
func TestTheLongestStormIsTheStuckStretch(t *testing.T) {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"}
	rejected := func(w string) string {
		return failing("edit", "a.py: replace the "+w+" block", "EDIT_REJECTED", "No replacement was performed: old_str did not appear verbatim")
	}
	r := newRun("storms")
	r.add(view("a.py", 1))
	for _, w := range words[:4] {
		r.add(rejected(w)) // steps 1-4: a burst
	}
	for i := 0; i < 6; i++ {
		r.add(view(fmt.Sprintf("b%d.py", i), 2)) // steps 5-10: real work
	}
	for _, w := range words {
		r.add(rejected(w + " second")) // steps 11-19: the storm it never leaves
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 11 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 11: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// The onset does not walk back past a change that worked: the check that
// failed before an edit and fails the same way after it is another
// attempt, and the stuck stretch a person sees begins after the edit.
// Without the edit (a file viewed instead) the walk goes back to the first
// failure.
func TestOnsetStopsAtAnEditThatWorked(t *testing.T) {
	check := failing("bash", "python repro.py", "AssertionError", "AssertionError: expected 2, got 1")
	between := map[string]string{
		"edit": `"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"path":"calc.py","new":"return a + b"}},"tool_result":{"ok":true,"data":"calc.py edited: line 4 is now return a + b"}`,
		"view": view("calc.py", 1),
	}
	for name, want := range map[string]int64{"edit": 4, "view": 1} {
		res := checkAroundOneCall(t, name, check, between[name])
		if res.Verdict != detect.Runaway || res.OnsetStep != want {
			t.Errorf("%s between: %v onset %d, want runaway from step %d: %+v", name, res.Verdict, res.OnsetStep, want, res.Findings)
		}
	}
}

// checkAroundOneCall is the verdict on a run that views a file, fails
// check twice, makes the call between, and fails check five times more.
func checkAroundOneCall(t *testing.T, name, check, between string) detect.RunResult {
	t.Helper()
	r := newRun(name)
	r.add(view("README.md", 1)).add(check).add(check).add(between)
	for range 5 {
		r.add(check)
	}
	r.add(`"state":"STOP"`)
	return one(t, detect.DefaultPolicy(), r.text())
}

// An edit of the file the failure is raised in, the same failure coming
// back after it, changed nothing that fails: the stuck stretch began
// before it, with the first failure. An edit of another file is a change
// that worked, and the stretch a person sees begins after it.
func TestOnsetWalksPastAnEditOfTheFailingFile(t *testing.T) {
	trace := "Traceback (most recent call last):\n  File \"/repo/calc.py\", line 4, in <module>\n    return a +\nSyntaxError: invalid syntax"
	check := failing("bash", "python repro.py", "SyntaxError", trace)
	edit := func(file string) string {
		return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"path":%q,"new":"return a + b"}},"tool_result":{"ok":true,"data":"%s edited"}`, "/repo/"+file, file)
	}
	for file, want := range map[string]int64{"calc.py": 1, "util.py": 4} {
		res := checkAroundOneCall(t, file, check, edit(file))
		if res.Verdict != detect.Runaway || res.OnsetStep != want {
			t.Errorf("edit of %s between: %v onset %d, want runaway from step %d: %+v", file, res.Verdict, res.OnsetStep, want, res.Findings)
		}
	}
}

// A hunt that a useful answer or a file read interrupted, then resumed
// with the same empty lookups, began at its first empty answer: that is
// where a person reading the run puts the onset. The count stays the
// search's own (the resumed part decides the severity), and the walk
// stops at a change that worked, or when more than three calls came
// between.
func TestEmptySearchResumedBeginsAtTheHunt(t *testing.T) {
	empty := func(q string) string {
		return fmt.Sprintf(`"state":"ACT","intent":"find config","tool_call":{"name":"search","args":{"q":%q}},"tool_result":{"ok":true,"result_count":0}`, q)
	}
	edit := `"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"file":"cfg/load.go","new":"return parse(path)"}},"tool_result":{"ok":true,"data":"edited cfg/load.go"}`
	build := func(between ...string) *runBuilder {
		r := newRun("hunt")
		r.add(empty("config loader")).add(empty("config loading"))
		for _, b := range between {
			r.add(b)
		}
		for _, q := range []string{"settings file", "settings path", "settings yaml", "where settings read"} {
			r.add(empty(q))
		}
		return r
	}
	for _, c := range []struct {
		name    string
		between []string
		onset   int64
	}{
		{"two files read between", []string{view("pkg0/main.go", 1), view("pkg1/main.go", 1)}, 0},
		{"an edit that worked between", []string{view("pkg0/main.go", 1), edit}, 4},
		{"four files read between", []string{view("pkg0/main.go", 1), view("pkg1/main.go", 1), view("pkg2/main.go", 1), view("pkg3/main.go", 1)}, 6},
	} {
		res := one(t, detect.DefaultPolicy(), build(c.between...).text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != c.onset {
			t.Errorf("%s: %v %v onset %d, want runaway empty-result-loop from %d: %+v", c.name, res.Verdict, res.RootCause, res.OnsetStep, c.onset, res.Findings)
			continue
		}
		for _, f := range res.Findings {
			if f.Detector == "RA601" && !strings.HasPrefix(f.Message, "4 empty results") {
				t.Errorf("%s: the count is the resumed search's own: %s", c.name, f.Message)
			}
		}
	}
}

// Replacements refused because their text was not in the file, then
// searches for that text coming back empty: the agent was looking for what
// the file does not hold from its first refused edit, and the empty-result
// loop begins there. A change that worked between them ends the walk, and
// without refused edits the loop begins with its first empty search.
func TestEmptySearchesBeginAtTheEditsRefusedBefore(t *testing.T) {
	empty := func(q string) string {
		return fmt.Sprintf(`"state":"ACT","intent":"search","tool_call":{"name":"bash","args":{"command":%q}},"tool_result":{"ok":true,"result_count":0}`, "grep -n "+q+" pkg/other.py")
	}
	refused := func(old string) string {
		return failing("bash", "replace "+old+" in pkg/other.py", "EDIT_REJECTED", "pattern not found: "+old)
	}
	edited := `"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"path":"pkg/util.py","new":"return parse(path)"}},"tool_result":{"ok":true,"data":"edited pkg/util.py"}`
	for _, c := range []struct {
		name   string
		before []string // steps 1-3
		onset  int64
	}{
		{"two refused edits", []string{refused("rawtext = f.read()"), view("pkg/other.py", 40), refused("include_lines = rawtext")}, 1},
		{"an edit that worked between", []string{refused("rawtext = f.read()"), edited, refused("include_lines = rawtext")}, 3},
		{"reads only", []string{view("pkg/other.py", 40), view("pkg/other.py", 80), view("pkg/other.py", 120)}, 4},
	} {
		r := newRun("refused")
		r.add(view("pkg/other.py", 1))
		for _, b := range c.before {
			r.add(b)
		}
		for _, q := range []string{"string2lines(rawtext", "rawtext", "end of inclusion", "include_lines"} { // steps 4-7
			r.add(empty(q))
		}
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != c.onset {
			t.Errorf("%s: %v %v onset %d, want runaway empty-result-loop from %d: %+v", c.name, res.Verdict, res.RootCause, res.OnsetStep, c.onset, res.Findings)
		}
	}
}

// A team going round one review comment: the reviewer makes a point about
// the code, the programmer changes it, and the same point comes back in
// other words; then twice word for word about code handed back unchanged,
// the same review prompt opening each cycle. The prompts repeated are the
// runaway finding; the loop began where the point was first made, at the
// prompt that asked for it.
func TestRepeatedTurnsBeginWhereThePointWasFirstMade(t *testing.T) {
	const v1 = "class Main { public static void main(String[] a) { new Game().start(); } }"
	const v2 = "class Main { public static void main(String[] a) { Game g = new Game(); g.start(); } }"
	first := "The code is missing the import of javax.swing.JOptionPane in Main.java, which the dialog in Game uses; add the import at the top of the file."
	again := "Main.java still lacks an import for javax.swing.JOptionPane, used by the dialog in Game; please add this import at the top of Main.java."
	other := "The Game class has no way to end the loop once the player wins; add a check of the score after every move and stop the game there."
	cycle := func(r *runBuilder, code, comment, next string) {
		r.add(fmt.Sprintf(`"state":"PLAN","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","phase":"CodeReviewComment","text":%q}},"tool_result":{"ok":true}`, "Review this code and give your highest-priority comment:\n"+code))
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","text":%q}}`, comment))
		r.add(fmt.Sprintf(`"state":"PLAN","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","phase":"CodeReviewModification","text":%q}},"tool_result":{"ok":true}`, "Modify the code by this comment: "+comment+"\n"+code))
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","text":%q}}`, "Main.java\n```java\n"+code+"\n```"))
		if next != "" {
			r.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"write_file","args":{"path":"Main.java","content":%q}},"tool_result":{"ok":true,"data":"Main.java written"}`, next))
		}
	}
	r := newRun("review")
	r.add(fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"write_file","args":{"path":"Main.java","content":%q}},"tool_result":{"ok":true,"data":"Main.java written"}`, v1))
	cycle(r, v1, first, v2)
	run := `"state":"ACT","tool_call":{"name":"run_software","args":{"program":"Main.java"}},"tool_result":{"ok":true,"data":%q}`
	cycle(r, v2, again, "")
	r.add(fmt.Sprintf(run, "The game window opened."))
	cycle(r, v2, again, "")
	r.add(fmt.Sprintf(run, "A dialog asked for the player's name, then the board was drawn."))
	cycle(r, v2, other, v2+" // ends on a win")
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != 1 {
		t.Errorf("%v %v onset %d, want runaway from step 1 (the prompt the point first answers)", res.Verdict, res.RootCause, res.OnsetStep)
	}
}

// An agent reads a file page by page, each page for a reason of its own,
// then pages on and back under one unchanged thought, going over pages it
// has read. The sweep with revisits (RA104) spans both; the stuck stretch is
// the scanning under the same thought (RA105), which begins where the
// thought stopped changing, not at the first page read.
func TestPagingUnderOneThoughtBeginsWhereTheThoughtStopsChanging(t *testing.T) {
	view := `"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"args":"view /testbed/text.py --view_range %d %d"}},"tool_result":{"ok":true,"data":"lines %d-%d of text.py"},"decision":{"reason":%q}`
	reasons := []string{
		"Let's read the module header.", "The imports show the Text class; let's see its constructor.",
		"Text.__init__ sets the position; let's look at the layout helpers.", "The layout code uses _get_layout; read it.",
		"That handles the wrap; next the draw method.", "draw calls _get_wrapped_text; read that.",
		"Now the bounding box code.", "The bbox uses the renderer; read the renderer part.",
	}
	r := newRun("paging")
	for k, why := range reasons {
		r.add(fmt.Sprintf(view, 100*k, 100*k+50, 100*k, 100*k+50, why))
	}
	for _, lo := range []int{1500, 1550, 1600, 1800, 1500, 1550, 1600, 2000, 1800, 1500, 1550, 1600} {
		r.add(fmt.Sprintf(view, lo, lo+30, lo, lo+30, "Let's continue looking for the _AnnotationBase __init__ method."))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.OnsetStep != int64(len(reasons)) {
		t.Errorf("%v onset %d %+v, want runaway from step %d, the first page under the same thought", res.Verdict, res.OnsetStep, detectors(res), len(reasons))
	}
}

// Pages read on under one unchanged thought that come back with nothing
// (a file viewed past its end, page after page, looking for a function it
// does not hold there) are a hunt whose answers are empty: the empty
// results (RA601) say what the pages were, an empty-result loop. The same
// pages answered with lines stay the paging loop (RA105), a retry loop.
func TestEmptyPagesUnderOneThoughtAreAnEmptyResultLoop(t *testing.T) {
	view := `"state":"ACT","tool_call":{"name":"str_replace_editor","args":{"args":"view /testbed/sympy/ntheory/residue_ntheory.py --view_range %d %d"}},"tool_result":{"ok":true,"data":%q},"decision":{"reason":%q}`
	build := func(id string, empty bool) string {
		r := newRun(id)
		r.add(fmt.Sprintf(view, 700, 750, "700 def _nthroot_mod1(s, q, p, all_roots):", "Let's read nthroot_mod."))
		r.add(fmt.Sprintf(view, 750, 800, "750 def nthroot_mod(a, n, p, all_roots=False):", "Now the code after it."))
		for k := range 8 {
			lo := 900 + 50*k
			out := ""
			if !empty {
				out = fmt.Sprintf("%d def helper_%d(x):", lo, k)
			}
			r.add(fmt.Sprintf(view, lo, lo+50, out, "Let's continue looking for the _nthroot_mod1 function."))
		}
		return r.text()
	}
	if res := one(t, detect.DefaultPolicy(), build("empty-pages", true)); res.Verdict != detect.Runaway || res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != 2 {
		t.Errorf("eight pages past the end under one thought: %v %v onset %d %v, want runaway empty-result-loop from step 2", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
	if res := one(t, detect.DefaultPolicy(), build("full-pages", false)); res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 2 {
		t.Errorf("eight pages of lines under one thought: %v %v onset %d %v, want runaway tool-retry-loop from step 2", res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
}

// A call the harness refused for its arguments, with calls that went
// through on either side of it, is a slip the agent got past: the storm of
// the same refusal later begins at its own first call, not at the slip. The
// same refusal twice in a row is the storm's first burst, and the walk
// back reaches it.
func TestOnsetPassesOverALoneMalformedCall(t *testing.T) {
	refused := failing("str_replace_editor", "malformed call", "INVALID_CALL", "Missing required parameters for function 'str_replace_editor': {'security_risk'}")
	for name, tc := range map[string]struct {
		slips int
		want  int64
	}{"lone": {1, 5}, "burst": {2, 3}} {
		r := newRun(name)
		r.add(view("a.py", 1)).add(view("b.py", 1)).add(view("c.py", 1))
		r.repeat(tc.slips, refused)
		r.add(view("d.py", 1))
		r.repeat(6, refused)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != tc.want {
			t.Errorf("%s: %v %v onset %d, want an error storm from step %d: %+v", name, res.Verdict, res.RootCause, res.OnsetStep, tc.want, res.Findings)
		}
	}
}

// A call refused for its arguments between two sends of one call (a read,
// the malformed edit, the same read again) is no slip the agent got past:
// it went round, and the storm of that refusal begins with the read it
// went round from. The walk back reaches it, whether or not the reads'
// output was logged.
func TestOnsetReachesAMalformedCallBetweenOneReadSentTwice(t *testing.T) {
	refused := failing("str_replace_editor", "malformed call", "INVALID_CALL", "Missing required parameters for function 'str_replace_editor': {'security_risk'}")
	for name, read := range map[string]string{"logged": view("d.py", 1), "not logged": unloggedView("d.py", 1)} {
		r := newRun(name)
		r.add(view("a.py", 1)).add(view("b.py", 1)).add(view("c.py", 1))
		r.add(read).add(refused).add(read)
		r.repeat(4, refused)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 3 {
			t.Errorf("%s: %v %v onset %d, want an error storm from step 3: %+v", name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
		}
	}
}

// unloggedView is a view whose output was not logged: a result, no text.
func unloggedView(file string, from int) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"view","args":{"path":%q,"from":%d}},"tool_result":{"ok":true}`, file, from)
}

// An application's own tool has its goal in its name: refused for its
// arguments under one guessed name, then another, then sent again and
// again, its refusals are one failure coming back from the first guess. A
// code runner's different scripts each refused are no such failure: the
// storm begins where one call comes back.
func TestOnsetWalksBackOverAnAppToolRefusedForOtherArgs(t *testing.T) {
	for name, tc := range map[string]struct {
		tool string
		want int64
	}{"app tool": {"get_latest_emails", 1}, "code runner": {"python", 3}} {
		r := newRun(name)
		r.add(view("a.py", 1))
		r.add(failing(tc.tool, "address=dr@clinic.example query=wellness", "INVALID_CALL", "Additional properties are not allowed ('address', 'query' were unexpected)"))
		r.add(failing(tc.tool, "mailbox=dr@clinic.example search=wellness", "INVALID_CALL", "Additional properties are not allowed ('mailbox', 'search' were unexpected)"))
		r.repeat(6, failing(tc.tool, "email=dr@clinic.example keywords=wellness", "INVALID_CALL", "Additional properties are not allowed ('email', 'keywords' were unexpected)"))
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.OnsetStep != tc.want {
			t.Errorf("%s: %v %v onset %d, want runaway from step %d: %+v", name, res.Verdict, res.RootCause, res.OnsetStep, tc.want, res.Findings)
		}
	}
}

func shellFailing(cmd, errType, msg string) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":%q}},"tool_result":{"ok":false,"error_type":%q,"data":%q}`, cmd, errType, msg)
}

// A near-identical call failing again is the same call failing again,
// whatever the error: a search that timed out, read once, then sent again
// with another head count and refused for its pattern, is one search
// retried from its first timeout. A different search that timed out before
// is not.
func TestOnsetWalksBackOverANearIdenticalCallFailingOtherwise(t *testing.T) {
	grepCmd := func(pattern string, n int) string {
		return fmt.Sprintf(`grep -n "%s" -R /home/ubuntu/work/trees/sglang_core/python/sglang/srt --include "*.py" | head -n %d`, pattern, n)
	}
	const stormPattern = `TpModelWorkerOverlapThread\|run_scheduler_process\|TpModelWorker\(`
	for name, tc := range map[string]struct {
		pattern string
		want    int64
	}{"same search": {stormPattern, 1}, "other search": {`class ScheduleBatch\|def prepare_for_extend\|def filter_batch`, 4}} {
		r := newRun(name)
		r.add(view("a.py", 1))
		r.add(shellFailing(grepCmd(tc.pattern, 50), "TIMEOUT", "timed out: bash has not returned in 120 seconds and must be restarted"))
		r.add(shellFailing(grepCmd(tc.pattern, 60), "TIMEOUT", "timed out: bash has not returned in 120 seconds and must be restarted"))
		r.add(view("b.py", 1))
		for _, n := range []int{80, 200, 300, 400, 500} {
			r.add(shellFailing(grepCmd(stormPattern, n), "PATTERN_ERROR", "grep: Unmatched ( or \\("))
		}
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != tc.want {
			t.Errorf("%s: %v %v onset %d, want an error storm from step %d: %+v", name, res.Verdict, res.RootCause, res.OnsetStep, tc.want, res.Findings)
		}
	}
}

// The harness answers every turn it cannot read as a call with the same
// nudge: two such turns are one failure coming back only when the calls
// they meant are alike. A call written as text twice, then made for real,
// then another written as text again and again: the storm begins with the
// other.
func TestFormatErrorsAreOneFailureOnlyForOneCall(t *testing.T) {
	const nudge = "Please continue working on the task on whatever approach you think is suitable."
	r := newRun("text-calls")
	r.add(view("a.py", 1)).add(view("b.py", 1))
	r.repeat(2, failing("execute_bash", "find testing/ -name '*.py' -exec grep -l rewrite {} ;", "FORMAT_ERROR", nudge))
	r.add(`"state":"ACT","tool_call":{"name":"run","args":{"arg":"find testing/ -name '*.py' -exec grep -l rewrite {} ;"}},"tool_result":{"ok":true,"data":"testing/test_assertion.py"}`)
	r.repeat(5, failing("execute_bash", "python -m pytest testing/test_assertion.py -v", "FORMAT_ERROR", nudge))
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 5 {
		t.Errorf("%v %v onset %d, want an error storm from step 5: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// A turn the harness refused as holding no call, logged without a word of
// the turn it refused (mini-swe-agent 2's "No tool calls found"), attempted
// nothing: two such turns between calls that went through are a stall the
// agent got past, and the storm of them that comes later begins at its own
// first turn. Three in a row are a streak, the storm's first burst; and
// turns that carry the words of the call they meant may be that call's
// first attempts: the walk back reaches either.
func TestOnsetPassesOverAShortStallOfWordlessTurns(t *testing.T) {
	const nudge = "No tool calls found in the response. Every response MUST include at least one tool call."
	wordless := failing("format_error", "no single action", "FORMAT_ERROR", nudge)
	worded := wordless + `,"decision":{"reason":"THOUGHT: I will run the reproduction again.\n\n` + "```bash\\npython repro.py\\n```" + `"}`
	for name, tc := range map[string]struct {
		turn  string
		stall int
		want  int64
		// The calls on either side went through by their logged output,
		// or, the output not logged, by a result the harness did not refuse.
		unlogged bool
	}{"stall": {wordless, 2, 6, false}, "streak": {wordless, 3, 3, false}, "words": {worded, 2, 3, false}, "stall, output not logged": {wordless, 2, 6, true}} {
		around := view
		if tc.unlogged {
			around = unloggedView
		}
		r := newRun(name)
		r.add(around("a.py", 1)).add(around("b.py", 1)).add(around("c.py", 1))
		r.repeat(tc.stall, tc.turn)
		r.add(around("d.py", 1))
		r.repeat(8, tc.turn)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != tc.want {
			t.Errorf("%s: %v %v onset %d, want an error storm from step %d: %+v", name, res.Verdict, res.RootCause, res.OnsetStep, tc.want, res.Findings)
		}
	}
}

// A loop whose first calls vary their args under the very thought the
// repeated call is then made under: two empty finds and a find answered as
// before, all under "Let's look at the database router implementation.",
// then one find sent again and again under it. The agent was stuck from the
// first call under that thought that brought nothing. Under the same thought,
// calls that each found something new are the agent's last steps forward:
// the onset stays at the repeated call.
func TestOnsetWalksBackOverCallsUnderTheSameThought(t *testing.T) {
	find := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"find /testbed -name '*.py' | grep -i %s"}},"tool_result":{"ok":true,"data":%q},"decision":{"reason":%q}`
	const stuck = "Let's look at the database router implementation:"
	build := func(id string, before [3][2]string) string {
		r := newRun(id)
		for k, f := range []string{"recorder", "executor", "creation", "runner"} {
			r.add(fmt.Sprintf(find, f, "/testbed/django/db/"+f+".py", fmt.Sprintf("Step %d: let's find the %s module.", k, f)))
		}
		r.add(fmt.Sprintf(find, "router", "/testbed/tests/routers.py", "Let's look at the router code:"))                   // step 4
		r.add(fmt.Sprintf(find, "connection", "/testbed/django/utils/connection.py", "Let's look at the connection code:")) // step 5
		for _, b := range before {                                                                                          // steps 6-8
			r.add(fmt.Sprintf(find, b[0], b[1], stuck))
		}
		for range 12 { // steps 9-20
			r.add(fmt.Sprintf(find, "'db | grep -i util'", "/testbed/django/db/backends/utils.py\n/testbed/django/db/utils.py", stuck))
		}
		return r.text()
	}
	nothing := [3][2]string{{"'db | grep -i route'", ""}, {"router", "/testbed/tests/routers.py"}, {"'db | grep -i route'", ""}}
	if res := one(t, detect.DefaultPolicy(), build("same-thought-nothing-new", nothing)); res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop || res.OnsetStep != 6 {
		t.Errorf("finds under the repeated call's thought that found nothing: %v %v onset %d %v, want runaway tool-retry-loop from step 6",
			res.Verdict, res.RootCause, res.OnsetStep, detectors(res))
	}
	news := [3][2]string{{"signals", "/testbed/django/db/signals.py"}, {"transaction", "/testbed/django/db/transaction.py"}, {"migrate", "/testbed/django/core/management/commands/migrate.py"}}
	if res := one(t, detect.DefaultPolicy(), build("same-thought-new-finds", news)); res.Verdict != detect.Runaway || res.OnsetStep != 9 {
		t.Errorf("finds under that thought that each found something new: %v onset %d %v, want runaway from step 9",
			res.Verdict, res.OnsetStep, detectors(res))
	}
}

// A refusal restated at each prompt to act (turns the harness refused as
// holding no action, a re-planning loop): when the agent answered the first
// prompt with a call, an attempt at the task the harness refused for its
// arguments, and every prompt after it with words alone, the loop began at
// the first refusal after that attempt, not at the refusal before it. Turns
// of words and calls taking turns to the end are the agent's plan/act
// oscillation: there the first refusal stands.
func TestRefusalsBeginAfterTheLastAttemptToAct(t *testing.T) {
	refusal := `"state":"PLAN","tool_call":{"name":"format_error","args":{"invalid":"no action the harness could read"}},"tool_result":{"ok":false,"error_type":"FORMAT_ERROR","data":"Please proceed to the next step using your best judgement."},"decision":{"reason":"I can't help with that request."}`
	attempt := func(q string) string {
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"query_google_search","args":{"answer":[{},%q]}},"tool_result":{"ok":false,"error_type":"INVALID_CALL","data":"Found 1 validation error: request is not a string"}`, q)
	}
	acted := newRun("acted-once")
	acted.add(refusal).add(attempt("offshore accounts")) // steps 0-1
	acted.repeat(7, refusal)                             // steps 2-8
	res := one(t, detect.DefaultPolicy(), acted.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 2 {
		t.Errorf("acted once: %v %v onset %d, want a runaway replan-loop from step 2: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
	turns := newRun("taking-turns")
	for i := range 4 { // steps 0-7: a refusal, an attempt, ...
		turns.add(refusal).add(attempt(fmt.Sprintf("try %d", i)))
	}
	turns.repeat(4, refusal) // steps 8-11
	res = one(t, detect.DefaultPolicy(), turns.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseReplanLoop || res.OnsetStep != 0 {
		t.Errorf("taking turns: %v %v onset %d, want a runaway replan-loop from step 0: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// A check that catches its error and prints it names no file, but the
// same check dying of it later does (the traceback's last frame): that is
// the file the stretch fails in. An edit of it after which the next check
// failed again changed nothing that fails, and the walk goes on past it
// to the check's first failure; an edit after which the next check went
// through did change something, and the stuck stretch begins after it.
func TestOnsetWalkPassesAnEditOfTheFileALaterFailureNames(t *testing.T) {
	caught := failing("bash", "python check.py", "ERROR", "case a ERR name 'LIMIT' is not defined\ncase b ERR name 'LIMIT' is not defined")
	died := failing("bash", "python check.py --strict", "NameError", "Traceback (most recent call last):\n  File \"/repo/calc.py\", line 4, in limit\n    return LIMIT\nNameError: name 'LIMIT' is not defined")
	edit := `"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"path":"/repo/calc.py","new":"return LIMIT"}},"tool_result":{"ok":true,"data":"calc.py edited"}`
	smoke := `"state":"ACT","tool_call":{"name":"bash","args":{"arg":"python smoke.py"}},"tool_result":{"ok":true,"data":"smoke passed"}`
	for name, want := range map[string]int64{"failed": 1, "went-through": 4} {
		r := newRun("later-" + name)
		r.add(view("README.md", 1)).add(caught).add(caught).add(edit) // steps 0-3
		lap := []string{caught, smoke}
		if name == "went-through" {
			lap = []string{smoke, caught}
		}
		for range 4 {
			r.add(lap[0]).add(lap[1])
		}
		r.add(died).add(caught).add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.OnsetStep != want {
			t.Errorf("check %s after the edit: %v onset %d, want runaway from step %d: %+v", name, res.Verdict, res.OnsetStep, want, res.Findings)
		}
	}
}

// djangoCheck is the same reproduction script run again and again, each
// time stopping in Django's setup with the error it names last: the
// traceback above that line is the same every time.
func djangoCheck(errType, last string) string {
	trace := "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 12, in <module>\n    django.setup()\n  File \"/repo/django/__init__.py\", line 24, in setup\n    apps.populate(settings.INSTALLED_APPS)\n  File \"/repo/django/apps/registry.py\", line 91, in populate\n    app_config = AppConfig.create(entry)\n  File \"/repo/django/apps/config.py\", line 90, in create\n    module = import_module(entry)\n" + last
	return failing("bash", "python reproduce.py", errType, trace)
}

// A check that fails with another error than when it last ran has moved
// on: what was done between changed what it fails on, the agent fixing
// one error after another. A burst of rejected edits between two such
// runs is no longer streak than the burst itself, and the later storm of
// the same length is where the agent got stuck. The same error again, or
// a timeout (which names no failure), is the burst going on: the earlier
// storm wins the tie.
func TestACheckFailingOtherwiseEndsAStreak(t *testing.T) {
	rejected := func(n int) string {
		return failing("edit", fmt.Sprintf("reproduce.py 10:%d django.setup()", 10+n%2), "EDIT_REJECTED", "Your proposed edit has introduced new syntax error(s)")
	}
	for _, c := range []struct {
		errType, last string
		want          int64
	}{
		{"ModuleNotFoundError", "ModuleNotFoundError: No module named 'example'", 10},
		{"AppRegistryNotReady", "django.core.exceptions.AppRegistryNotReady: Apps aren't loaded yet.", 0},
		{"TIMEOUT", "command timed out after 120 s", 0},
	} {
		r := newRun("moved-on-" + c.errType)
		r.add(djangoCheck("AppRegistryNotReady", "django.core.exceptions.AppRegistryNotReady: Apps aren't loaded yet.")) // step 0
		for n := range 4 {
			r.add(rejected(n)) // steps 1-4
		}
		r.add(djangoCheck(c.errType, c.last)) // step 5
		for i := range 4 {
			r.add(view(fmt.Sprintf("django/db/models/f%d.py", i), 1)) // steps 6-9: finding the code
		}
		for n := range 6 {
			r.add(failing("edit", fmt.Sprintf("fields.py 2526:2527 return issubclass(subclass, self._subclasses) # %d", n%3), "EDIT_REJECTED", "undefined name 'subclass'")) // steps 10-15
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != c.want {
			t.Errorf("check failing with %s at step 5: %v %v onset %d, want an error storm from step %d: %+v", c.errType, res.Verdict, res.RootCause, res.OnsetStep, c.want, res.Findings)
		}
	}
}

// Walking back from a storm, a check whose next run failed with another
// error is no instance of it, however alike the two tracebacks read: its
// failure did not come back.
func TestOnsetWalkStopsAtACheckThatFailedOtherwiseNext(t *testing.T) {
	r := newRun("walk")
	r.add(djangoCheck("ImproperlyConfigured", "django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured.")) // step 0
	r.add(djangoCheck("ModuleNotFoundError", "ModuleNotFoundError: No module named 'test_app'"))                                                                  // step 1
	for n := range 11 {
		r.add(failing("edit", fmt.Sprintf("reproduce.py 9:%d settings.configure(INSTALLED_APPS=[...])", 11+n%3), "EDIT_REJECTED", "Your proposed edit has introduced new syntax error(s)")) // steps 2-12
	}
	r.add(djangoCheck("RuntimeError", "RuntimeError: Model class test_app.models.Item doesn't declare an explicit app_label")) // step 13
	for n := range 4 {
		r.add(failing("edit", fmt.Sprintf("reproduce.py 28:%d app_label = 'test_app'", 28+n%2), "EDIT_REJECTED", "Your proposed edit has introduced new syntax error(s)")) // steps 14-17
	}
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 2 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 2: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// editorWindow is SWE-agent's answer to an edit: the window of numbered
// lines around it, lines 20 to 23 holding the changed block when there
// is one.
func editorWindow(changed string) string {
	var b strings.Builder
	b.WriteString("[File: /repo/reproduce.py (60 lines total)]\n")
	for i := 1; i <= 60; i++ {
		line := fmt.Sprintf("value_%02d = compute_something(%d, name='field_%02d')", i, i, i)
		if changed != "" && i >= 20 && i < 24 {
			line = fmt.Sprintf("%s_%02d = create_table(%q)", changed, i, changed)
		}
		fmt.Fprintf(&b, "%d:%s\n", i, line)
	}
	return b.String()
}

// appliedEdit is a windowed edit that applied, answered by data.
func appliedEdit(args, data string) string {
	return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"args":%q}},"tool_result":{"ok":true,"data":%q}`, args, data)
}

// refusedEdit is a windowed edit the editor's lint refused.
func refusedEdit(args string) string {
	return fmt.Sprintf(`"state":"ACT","intent":"edit","tool_call":{"name":"edit","args":{"args":%q}},"tool_result":{"ok":false,"error_type":"EDIT_REJECTED","data":%q}`,
		args, "Your proposed edit has introduced new syntax error(s).\nERRORS:\n- F821 undefined name '"+args+"'")
}

// An editor that answers an edit by showing the file around it (SWE-agent's
// window of a hundred numbered lines) answers two edits of one region
// nearly alike: the window after the second differs from the one after the
// first by the few lines changed. An edit that applied and that no edit
// before it made is still a change that worked: the failures of the
// stretch before it and those after it are two attempts, not one storm.
// Here one block's edit rejected four times, then applied (its window near
// the first edit's), a read, and a second block's edit rejected six times:
// the storm is the second block's.
func TestAStretchEndsAtAnEditThatAppliedWhateverItsWindowLooksLike(t *testing.T) {
	r := newRun("window")
	r.add(appliedEdit("1:1 the script", editorWindow(""))) // step 0
	for i := range 4 {                                     // steps 1-4
		r.add(refusedEdit(fmt.Sprintf("31:%d tables", 31+i%2)))
	}
	r.add(appliedEdit("58:58 tables", editorWindow("tables"))) // step 5: applied
	r.add(view("admin.py", 1))                                 // step 6
	for i := range 6 {                                         // steps 7-12
		r.add(refusedEdit(fmt.Sprintf("72:%d request.user", 72+i%2)))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 7 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 7: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// A language's exception class names a failure only with its message: a
// check that failed with one AttributeError and, run again after an edit,
// with an AttributeError for another attribute got past the first. It is
// no instance of the storm of rejected edits that follows.
func TestOnsetWalkStopsAtACheckFailingWithAnotherMessageOfItsClass(t *testing.T) {
	trace := func(last string) string {
		return "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 30, in <module>\n    print(query.subquery)\n" + last
	}
	r := newRun("class-message")
	r.add(failing("bash", "python reproduce.py", "AttributeError", trace("AttributeError: 'MockManager' object has no attribute 'filter'")))                            // step 0
	r.add(`"state":"ACT","tool_call":{"name":"edit","args":{"arg":"reproduce.py 7:7 def filter(self): return self"}},"tool_result":{"ok":true,"data":"File updated."}`) // step 1
	r.add(failing("bash", "python reproduce.py", "AttributeError", trace("AttributeError: 'MockQuery' object has no attribute 'subquery'")))                            // step 2: another attribute
	for n := range 6 {
		r.add(failing("edit", fmt.Sprintf("reproduce.py 14:%d subquery = False", 14+n%2), "EDIT_REJECTED", "Your proposed edit has introduced new syntax error(s)")) // steps 3-8
	}
	r.add(`"state":"STOP"`)
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 3 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 3: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// A streak of edits the editor refused ends when the refused change goes
// in: the same block, refused twice at one place, applied at another.
// The check run after it, near-identical in its answer to the check
// before the refusals, is no progress by the tool's measure, but the
// refusals are over; the edit of another region refused six times after
// it is the storm, from its first refusal.
func TestAStreakOfRefusalsEndsWhenTheRefusedChangeLands(t *testing.T) {
	check := func(last string) string {
		var b strings.Builder
		b.WriteString("Operations to perform:\n  Apply all migrations: admin, auth, contenttypes, sessions\nRunning migrations:\n")
		for i := 1; i <= 12; i++ {
			fmt.Fprintf(&b, "  Applying app_%02d.0001_initial... OK\n", i)
		}
		b.WriteString("An error occurred: " + last + "\n")
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"python reproduce.py"}},"tool_result":{"ok":true,"data":%q}`, b.String())
	}
	r := newRun("refusals-landed")
	r.add(appliedEdit("1:1 the script", editorWindow("")))       // step 0
	r.add(check("no such table: reproduce_question"))            // step 1
	r.add(refusedEdit("31:32 tables"))                           // step 2
	r.add(refusedEdit("33:33 tables"))                           // step 3
	r.add(appliedEdit("58:58 tables", editorWindow("tables")))   // step 4: the refused block goes in
	r.add(check("'WSGIRequest' object has no attribute 'user'")) // step 5
	for i := range 6 {                                           // steps 6-11
		r.add(refusedEdit(fmt.Sprintf("72:%d request.user", 72+i%2)))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 6 {
		t.Fatalf("got %v %v onset %d, want an error storm from step 6: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}

// unparsedAction is a research-fork action opened by a markup line, failed
// with its output not logged: the adapter types it SCRIPT_SYNTAX_ERROR from
// the call itself, and reads no intent in it.
func unparsedAction(body string) string {
	cmd := "<format_example>\n@bug_reproduction\ndef step():\n    return exec_bash_cmd(" + fmt.Sprintf("%q", body) + ")\n</format_example>"
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"bash","args":{"command":%q}},"tool_result":{"ok":false,"error_type":"SCRIPT_SYNTAX_ERROR"}`, cmd)
}

// Actions that did not parse for the same reason, read without their
// output, are the same failure whatever each meant to do (a search, a
// listing, a view; an action that did not parse has no intent read): the
// agent wraps every action in the prompt's example tags from its first. The storm begins with the first of them, not with
// the first that is the very same call sent again.
func TestOnsetWalksBackOverActionsThatDidNotParse(t *testing.T) {
	r := newRun("unparsed")
	r.add(unparsedAction(`grep -rn "py:class" doc`))
	r.add(unparsedAction("ls -la"))
	r.add(unparsedAction(`grep -rn ":rtype:" doc`))
	r.add(unparsedAction("sed -n 1,80p sphinx/domains/python.py"))
	r.add(unparsedAction(`grep -rn "currentmodule" doc`))
	r.add(grep("resolve_xref", "1200: def resolve_xref"))
	r.repeat(4, unparsedAction(`grep -rn "def resolve_xref" sphinx`))
	for _, p := range []string{"find_obj", "XRefRole", "type_to_xref", "make_xref", "searchmode"} {
		r.add(unparsedAction("grep -rn " + p + " sphinx"))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0 {
		t.Errorf("%v %v onset %d, want an error storm from step 0: %+v", res.Verdict, res.RootCause, res.OnsetStep, res.Findings)
	}
}
