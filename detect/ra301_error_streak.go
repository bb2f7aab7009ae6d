package detect

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// ErrorStreak finds a long run of failed tool calls with no circuit breaker
// stepping in (guide B; guide C ErrorCircuitBreaker): failures that
// repeat, the same error coming back, not an agent fixing one different
// error after another.
var ErrorStreak = &Detector{
	ID:        "RA301",
	Slug:      "error-streak",
	Title:     "Failed tool calls in a row without a circuit breaker",
	RootCause: CauseErrorStorm,
	Guard:     "circuit breaker: open after 3 consecutive failures, stay open 60 s, half-open with one probe; retry policy by error type",
	Reads:     []string{"tool_errors", "tool_errors_by_type", "max_error_streak"},
	Params:    []string{"error_streak_suspicious", "error_streak_runaway", "window"},
	run:       runErrorStreak,
}

func runErrorStreak(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.ToolErrors < int64(p.ErrorStreakSuspicious) {
		return nil
	}
	s := stormStreak(v, a, p)
	if s.n < p.ErrorStreakSuspicious {
		return nil
	}
	bestLen, bestFirst, bestLast := s.n, s.first, s.last
	byType := map[string]int64{}
	keys := map[uint64]int{}
	others := 0 // calls between the failures that did not fail
	var silentEdits, wordsOnly, cannotPass int64
	for _, i := range a.calls {
		if i < bestFirst || i > bestLast {
			continue
		}
		if v.Flags[i]&flagError == 0 {
			others++
			continue
		}
		byType[v.Names.ErrTypeName(v.ErrType[i])]++
		if refusedWords(v, i) {
			wordsOnly++
		}
		if nonRetryable(v, i) {
			cannotPass++
		}
		keys[v.call[i]]++
		if v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrNoOutput && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit {
			silentEdits++
		}
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.SortFunc(types, func(x, y string) int {
		if byType[x] != byType[y] {
			return int(byType[y] - byType[x])
		}
		return strings.Compare(x, y)
	})
	var parts []string
	counts := []Count{{"failed_calls", int64(bestLen)}, {"distinct_calls", int64(len(keys))}}
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%d %s", byType[t], t))
		counts = append(counts, Count{"error_" + t, byType[t]})
	}
	n := int64(bestLen)
	detail := strings.Join(parts, ", ")
	alike := ""
	if total := sumCounts(byType); total != n {
		// The storm is some of the failures in its steps (one goal's,
		// among another tool's failing between them): say which count
		// is which, so the figures in the message add up.
		detail = fmt.Sprintf("of %d failed: %s", total, detail)
		alike = " alike"
	}
	// A storm may run through calls that did not fail (a file read between
	// two failing edits, an apology between two failing bookings): the
	// message says so rather than "in a row", which the timeline would
	// belie.
	msg := fmt.Sprintf("%d failed calls%s in a row (%s)", n, alike, detail)
	if others > 0 {
		msg = fmt.Sprintf("%d failed calls%s (%s) with %d other call(s) between them", n, alike, detail, others)
		counts = append(counts, Count{"other_calls", int64(others)})
	}
	if s.shape != "" {
		// The storm's failures differ, or other calls fail between them:
		// say what makes them one storm.
		msg = fmt.Sprintf(s.shape, n) + " (" + detail + ")"
		if others > 0 {
			msg += fmt.Sprintf(", %d other call(s) between them", others)
		}
	}
	sev := severityFor(n, p.ErrorStreakSuspicious, p.ErrorStreakRunaway)
	marginal := sev == Suspicious && s.shape == "" && sameErrorActedBetween(v, a, bestFirst, bestLast)
	if marginal {
		// Say what makes three failures a storm: one error, come back.
		sev = Runaway
		msg = fmt.Sprintf("the same failure %d times (%s), %d other call(s) between them", n, detail, others)
	}
	if sev == Suspicious && s.check > 0 {
		// The check after the storm showed that nothing it tried changed
		// anything. The stretch stays the storm's: the answer before it is
		// the baseline the attempts set out to change, as RA304's first
		// report is, not the loop's first action.
		sev, marginal = Runaway, true
		msg += fmt.Sprintf(", then step %d answered as step %d had before them", v.Step[s.check], v.Step[s.checked])
		counts = append(counts, Count{"unchanged_checks", 1})
	}
	var cause RootCause
	if 2*byType[schema.ErrNoOutput] > sumCounts(byType) && 2*silentEdits <= byType[schema.ErrNoOutput] {
		// Calls that came back with nothing at all, the shell's output
		// lost: the agent probing for an answer that never comes, an
		// empty-result loop whatever it asked. Edits are no lookups:
		// edits answered with nothing each time fail silently, a storm.
		cause = CauseEmptyResultLoop
	}
	if 2*wordsOnly > sumCounts(byType) {
		// Turns of words the harness answered by asking for an action
		// (PLAN steps refused for lack of a call), or turns to another
		// agent refused (refusedWords): the agent restating what it will
		// or will not do, or asking its coworker again, a re-planning
		// loop, not calls failing.
		cause = CauseReplanLoop
	}
	return &hit{
		marginal: marginal,
		cause:    cause,
		Finding: Finding{
			Severity:  sev,
			Message:   fmt.Sprintf("%s, steps %d-%d", msg, v.Step[bestFirst], v.Step[bestLast]),
			OnsetStep: v.Step[bestFirst],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[bestFirst], v.Step[bestLast]}},
				Counts: counts,
			},
		},
		first:             bestFirst,
		last:              bestLast,
		errorShare:        1,
		nonRetryableShare: float64(cannotPass) / float64(sumCounts(byType)),
		asFound:           s.asFound,
	}
}

// sameErrorActedBetween reports whether the failures from first to last
// (indices into the run view) all gave one answer and the agent did
// something between them other than talk (a call that worked). Such a
// storm is runaway at the suspicious count already: the same error came
// back that many times, the lower bound of "again and again", through a
// stuck stretch longer than its failures, which is what a person reading
// the run calls a storm. Failures in a row with nothing between, or apart
// only by turns of conversation (a new name the user gave between two
// lookups), are not: the agent had no room to act on what it saw; but
// the very same call sent again after the agent thought between (steps
// without a call) is: it reconsidered and changed nothing. Nor are
// failures that logged no output: nothing shows it was the same error,
// unless the agent said, after each failure but the first, that the
// failure came back (schema.ErrSaidAgain: "the error persists", "the
// repeated error"): its words are the only account there is; or all of
// them are edits read as not landed with no output logged
// (silentRejectedEdit): each one is the same failure, the change not
// made, whatever the output would have said.
func sameErrorActedBetween(v *Run, a *analysis, first, last int) bool {
	fails := a.actedScratch[:0]
	acted := false
	for _, i := range a.calls {
		switch {
		case i < first || i > last:
		case v.Flags[i]&flagError != 0:
			if v.Flags[i]&flagPayload == 0 && !saidAgain(v, i) && !saidAgainNext(v, a, i, last) && !silentRejectedEdit(v, i) {
				// No text to show the error came back, and no word of
				// the agent's that it did.
				return false
			}
			fails = append(fails, i)
		case v.Flags[i]&flagResult != 0 && !talked(v, i):
			acted = true
		}
	}
	a.actedScratch = fails
	if !acted && len(fails) > 0 {
		// Thought between, then sent the very same call again.
		same := true
		for _, i := range fails[1:] {
			same = same && v.sameCall(i) == v.sameCall(fails[0])
		}
		thought := false
		for i := first + 1; i < last; i++ {
			// A step without a call, or a turn between the run's own
			// agents (a message not to the user): the run deliberating.
			thought = thought || v.Flags[i]&flagCall == 0 || (talked(v, i) && !v.toUser(i))
		}
		acted = same && thought
	}
	if !acted || len(fails) == 0 {
		return false
	}
	if wordsOnlyFailures(v, fails) {
		// Turns of words the harness refused for want of an action, with
		// calls that worked between them: the agent telling what it did
		// after each step, not one failure coming back. Such turns one
		// after another, with no call between, are the loop.
		return false
	}
	// One answer, word for word after normalising: an editor's refusals
	// that echo a different old text each time are one failure to a
	// stretch, but each is a new attempt, not the same error seen again.
	for _, i := range fails[1:] {
		if saidAgain(v, i) {
			continue // the agent's word that this error came back
		}
		if silentRejectedEdit(v, i) && silentRejectedEdit(v, fails[0]) {
			continue // the change not made, again
		}
		if v.Flags[fails[0]]&flagPayload == 0 || !v.sameAnswer(fails[0], i, a.simBits) {
			return false
		}
	}
	return true
}

// saidAgain reports whether failure i logged no output and the agent's
// next words said the failure before it came back (schema.ErrSaidAgain).
func saidAgain(v *Run, i int) bool {
	return v.Flags[i]&flagPayload == 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrSaidAgain
}

// saidAgainNext reports whether the next failure after i, up to last,
// is one the agent said came back: the first of a storm told so has no
// word of its own that it was the same.
func saidAgainNext(v *Run, a *analysis, i, last int) bool {
	for _, j := range a.calls {
		if j > i && j <= last && v.Flags[j]&flagError != 0 {
			return saidAgain(v, j)
		}
	}
	return false
}

// unchangedCheck returns the first call after a storm (its failures from
// first to last), at most Window calls on and before any change that
// worked, that is the same call as the last one made before the storm
// began and gives the same answer, word for word after normalising, with
// no change that worked between the two (an edit of a file the run did
// not write whole that brought something new, or a package newly
// installed); and that earlier call. -1, -1 when there is none. The agent
// had the answer before its failed attempts and asks for it again: what it
// tried in between changed nothing it can see, and the check is one more
// action of the stuck stretch, the fourth after three failures. Both
// answers must have logged text: an answer without output says nothing
// of what changed.
func unchangedCheck(v *Run, a *analysis, p *Policy, first, last int) (int, int) {
	changed := func(i int) bool {
		edit := v.Names.IntentName(v.Intent[i]) == schema.IntentEdit && v.Flags[i]&flagCreate == 0 && v.Flags[i]&flagError == 0 && a.lasting(i)
		return edit || a.newInstall[i]
	}
	lo := sort.SearchInts(a.calls, first)
	before := -1
	for k := lo - 1; k >= 0 && before < 0; k-- {
		if i := a.calls[k]; v.Flags[i]&flagResult != 0 && !talked(v, i) {
			before = i
		}
	}
	if before < 0 || v.Flags[before]&flagPayload == 0 || v.Flags[before]&flagError != 0 {
		return -1, -1
	}
	for k := sort.SearchInts(a.calls, before+1); k < lo; k++ {
		if changed(a.calls[k]) {
			return -1, -1
		}
	}
	seen := 0
	for _, i := range a.calls[sort.SearchInts(a.calls, last+1):] {
		if v.Flags[i]&flagResult == 0 {
			continue
		}
		if seen++; seen > p.Window || changed(i) {
			break
		}
		if v.sameCall(i) == v.sameCall(before) && v.Flags[i]&flagPayload != 0 && v.Flags[i]&flagError == 0 && v.sameAnswer(before, i, a.simBits) {
			return i, before
		}
	}
	return -1, -1
}

// stormStreak finds the error storm: of the storms at the worst severity
// (by their failures), the one with the most failures, the first of
// equally long ones. A short burst the agent worked its way out of is not
// where it got stuck; the long storm is, and readers put the onset there.
// A storm has one of eight shapes:
//
//   - a streak: failed calls one after another, calls that succeeded
//     without progress (the same file viewed again) neither breaking nor
//     extending it, in which failures repeat: they are at most half as many
//     distinct answers (answers.go) as failures, so errors come back rather
//     than an agent fixing one different error after another (one specific
//     error type of one goal, sameGoal or sameAppTool, is one answer);
//   - a stretch: it begins and ends with a failure, at least half of its
//     answered calls failed, no two calls in a row inside it brought
//     lasting progress (a file read between two failing edits does not end
//     it; turns of conversation that went through, talked, are not counted
//     at all: the same booking failing between apologies to the customer),
//     no change that worked is inside it (a call with the edit
//     intent: a check re-run after an edit that applied is an experiment),
//     and one tool's one answer is at least half of its failures, and
//     at least three of them: the same error of the same tool coming back
//     through the agent's attempts around it;
//   - a goal's failures (goalStorms): one install or edit failing the same
//     way again and again, whatever lies between the tries, until it
//     works;
//   - a change that does not land (editsNotLanding): edits failing one
//     after another, in a different way each time, nothing learned
//     between them;
//   - a failure the edits do not reach (unreachedFailures): the same
//     failure coming back from a file no edit between its returns
//     changed;
//   - a mistake made again in new scripts (scriptMistakes): the same
//     exception line raised in the agent's own scripts, whatever script
//     and line, as it rewrites them;
//   - the same compile error again (sameCompileError): one check failing
//     with the same compile error at the same place, whatever was done
//     between its runs.
//   - edit, check, exit code (silentEditCycles): with no output logged,
//     a failure after each edit of one file, nothing else working between.
//
// n counts the failures.
func stormStreak(v *Run, a *analysis, p *Policy) streak {
	var best streak
	var bestSev Verdict
	// last is the storm's last step when it lies past its last failure
	// (the check that showed an edit broke its file), else -1.
	keepShape := func(fails []int, last int, asFound bool, shape string) {
		if len(fails) == 0 {
			return
		}
		if last < 0 {
			last = fails[len(fails)-1]
		}
		sev := severityFor(int64(len(fails)), p.ErrorStreakSuspicious, p.ErrorStreakRunaway)
		check, checked := -1, -1
		if sev == Suspicious && shape == "" && sameErrorActedBetween(v, a, fails[0], last) {
			// Runaway at the suspicious count (runErrorStreak says why):
			// it outranks a storm that is only suspicious.
			sev = Runaway
		} else if sev == Suspicious {
			if check, checked = unchangedCheck(v, a, p, fails[0], last); check >= 0 {
				sev = Runaway // runErrorStreak says why
			}
		}
		better := len(fails) > best.n || (len(fails) == best.n && fails[0] < best.first)
		if best.n == 0 || sev > bestSev || (sev == bestSev && better) {
			best = streak{first: fails[0], last: last, n: len(fails), asFound: asFound, shape: shape, check: check, checked: checked}
			bestSev = sev
		}
	}
	keep := func(fails []int) { keepShape(fails, -1, false, "") }

	// Installs that worked and installed what was not installed before
	// end a storm of either shape, as lasting progress does.
	newInstall := a.newInstall
	var fails []int
	streakEnds := func() {
		if 2*len(distinctAnswers(v, a, fails, false)) <= len(fails) {
			keep(fails)
		} else if w := repeatingWindow(v, a, fails); len(w) > 0 {
			keep(w)
		}
		fails = fails[:0]
	}
	for _, i := range a.calls {
		switch f := v.Flags[i]; {
		case f&flagResult == 0:
		case f&flagError != 0:
			if movedOn(v, newInstall, fails, i) || checkMovedOn(v, fails, i) {
				streakEnds()
			}
			fails = append(fails, i)
		case a.progress[i] || newInstall[i] || refusedEditLanded(v, a, fails, i):
			streakEnds()
		}
	}
	streakEnds()

	answered, answeredAtLast := 0, 0 // calls with a result since the stretch began; at its last failure
	lastingInARow := 0
	// stuck is the shell tool whose last call timed out, while no call of
	// it has gone through since (-1 when none): a shell that timed out
	// stays stuck until restarted ("must be restarted"), and the commands
	// sent to it meanwhile do not run. An edit made meanwhile with another
	// tool is no experiment: nothing ran after it to try it.
	stuck := -1
	stretchEnds := func() {
		if len(fails) > 0 && 2*len(fails) >= answeredAtLast {
			top := distinctAnswers(v, a, fails, true)
			if 2*len(top) >= len(fails) && len(top) >= 3 && retried(v, a, top) {
				// The storm begins with the first instance of the error
				// that comes back: failures before it are not the storm.
				storm := fails[slices.Index(fails, top[0]):]
				// Nor are the first failures that something worked after:
				// the storm is where failures follow failures with nothing
				// learned between them.
				for len(storm) > 1 && actedBetween(v, a, storm[0], storm[1]) {
					storm = storm[1:]
				}
				keep(storm[burstStart(v, a, storm):])
			}
		}
		fails, answered, answeredAtLast, lastingInARow = fails[:0], 0, 0, 0
	}
	for _, i := range a.calls {
		f := v.Flags[i]
		if f&flagResult == 0 || talked(v, i) {
			continue
		}
		if f&flagError != 0 {
			if movedOn(v, newInstall, fails, i) {
				stretchEnds()
			}
			fails = append(fails, i)
			answered++
			answeredAtLast, lastingInARow = answered, 0
			if shellTimeout(v, i) {
				stuck = int(v.Tool[i])
			} else if int(v.Tool[i]) == stuck {
				stuck = -1
			}
			continue
		}
		if int(v.Tool[i]) == stuck {
			stuck = -1
		}
		if len(fails) == 0 {
			continue
		}
		if stuck >= 0 && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit && !newInstall[i] {
			answered++
			continue
		}
		if (v.Names.IntentName(v.Intent[i]) == schema.IntentEdit && (a.lasting(i) || a.changedAnew(v, i))) || newInstall[i] {
			// A change that worked (an edit, or a package installed that
			// was not before, whose output says little): what fails next
			// is another experiment. An edit that changed the code anew
			// is one even when its answer, a window of the file, looks
			// like the last (changedAnew).
			stretchEnds()
			continue
		}
		if a.lasting(i) {
			if lastingInARow++; lastingInARow > maxStormPause {
				stretchEnds()
				continue
			}
		}
		answered++
	}
	stretchEnds()
	goalStorms(v, a, p, keep)
	editsNotLanding(v, a, p, func(edits []int, last int) {
		keepShape(edits, last, true, "%d edits that did not land, each failing its own way")
	})
	unreachedFailures(v, a, p, func(fails []int) {
		keepShape(fails, -1, false, "the same failure %d times, from a file no edit between them changed")
	})
	scriptMistakes(v, a, p, func(fails []int) {
		keepShape(fails, -1, false, "the same mistake %d times, in scripts the agent wrote anew between them")
	})
	sameCompileError(v, a, p, keep)
	silentEditCycles(v, a, p, func(fails []int) {
		keepShape(fails, -1, true, "%d failures without output, an edit of one file before each, nothing else working between them")
	})
	return best
}

// silentEditCycles hands keep each chain of failures that logged no
// output (a log that keeps only exit codes) where an edit of one file
// that applied comes before each failure but the first, and nothing
// else between them works but searches: edit, check, exit code; edit,
// check, exit code. With the output logged, its text says whether the
// check fails the same way after each edit (an experiment's answer or
// the same failure back); without it, an edit that applied and the
// next call failing is all there is, and an agent that edits one file
// and re-runs a failing call again and again, learning nothing between
// by any call that worked, is going round the same cycle. A healthy
// edit-test-fix sequence ends at the run that passes, or moves on to
// other calls. Only chains of at least error_streak_runaway failures
// are kept: three such cycles are still an agent fixing one thing after
// another. A refused turn (a format error: nothing ran) neither breaks
// nor extends a chain; a failure with logged text ends it.
func silentEditCycles(v *Run, a *analysis, p *Policy, keep func([]int)) {
	var chain []int
	var file uint32
	edited := false
	written := filesWrittenWhole(v, a) // the agent's own scripts
	flush := func() {
		if len(chain) >= p.ErrorStreakRunaway {
			keep(slices.Clone(chain))
		}
		chain, file, edited = chain[:0], 0, false
	}
	for _, i := range a.calls {
		f := v.Flags[i]
		if f&flagResult == 0 || talked(v, i) {
			continue
		}
		intent := v.Names.IntentName(v.Intent[i])
		switch {
		case f&flagError != 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrFormatError:
		case f&flagError != 0 && f&flagPayload == 0:
			if len(chain) > 0 && !edited {
				flush()
			}
			chain, edited = append(chain, i), false
		case f&flagError != 0:
			flush()
		case intent == schema.IntentEdit && v.EditFile[i] != 0:
			if len(chain) == 0 {
				continue
			}
			if slices.Contains(written, v.EditFile[i]) || (file != 0 && v.EditFile[i] != file) {
				flush()
				continue
			}
			file, edited = v.EditFile[i], true
		case intent == schema.IntentSearch:
		default:
			flush()
		}
	}
	flush()
}

// filesWrittenWhole lists the files the run wrote whole: those whose
// first edit that worked created them (the agent's own scripts). It fills
// a's scratch lists, so the list holds until their next use.
func filesWrittenWhole(v *Run, a *analysis) []uint32 {
	edited, written := a.editedFiles[:0], a.writtenFiles[:0]
	for _, i := range a.calls {
		if f := v.EditFile[i]; f != 0 && v.Flags[i]&flagError == 0 && !slices.Contains(edited, f) {
			edited = append(edited, f)
			if v.Flags[i]&flagCreate != 0 {
				written = append(written, f)
			}
		}
	}
	a.editedFiles, a.writtenFiles = edited, written
	return written
}

// unreachedFailures hands keep, for each failure that begins one, the
// returns of one failure raised in a file (Run.FailFile): the same error
// type and answer (its failure site: answers.go), each at most Window
// calls after the one before, an edit that worked between every two of
// them, and no edit of the failing file, no package newly installed and
// edits of at most two of the files the run did not write whole
// (flagCreate) between two returns. Whatever the agent changed between
// (its reproduction script rewritten, or written anew under another
// name), it did not reach where the failure is raised: a Django setup
// error raised in the settings module after each rewrite. An edit of the
// failing file ends it, as the next return is then another experiment's
// answer; a third file of the code changed is the agent moving on. A file
// the run wrote whole is the agent's own script: writing a fifth one
// around the same setup mistake is not moving on. A failure raised in a
// file the run's edits changed before it (the agent's own check
// asserting) begins none: after a change to the code, the same assertion
// is an experiment's answer.
func unreachedFailures(v *Run, a *analysis, p *Policy, keep func([]int)) {
	if !slices.ContainsFunc(a.calls, func(i int) bool { return v.FailFile[i] != 0 }) {
		return
	}
	storm := a.goalStorm[:0]
	clear(a.inGoalStorm)
	written := filesWrittenWhole(v, a)
	edited := a.editedFiles[:0] // the files edits that worked changed so far
	for x, i := range a.calls {
		if f := v.EditFile[i]; f != 0 && v.Flags[i]&flagError == 0 && !slices.Contains(edited, f) {
			edited = append(edited, f)
		}
		if v.FailFile[i] == 0 || v.Flags[i]&flagError == 0 || a.inGoalStorm[i] || slices.Contains(edited, v.FailFile[i]) {
			continue
		}
		storm = append(storm[:0], i)
		last := x
		var code twoFiles // the files of the code changed since the last return
		changed := false  // an edit worked since the last return
		for y := x + 1; y < len(a.calls) && y-last <= p.Window; y++ {
			j := a.calls[y]
			if f := v.EditFile[j]; f != 0 && v.Flags[j]&flagError == 0 {
				if f == v.FailFile[i] {
					break // the failing file changed
				}
				changed = true
				if slices.Contains(written, f) {
					continue // the agent's own script
				}
				if code.add(f) {
					continue
				}
				break // a third file: the agent moved on
			}
			if installedAnew(v, a, j) {
				break
			}
			if !changed || v.FailFile[j] != v.FailFile[i] || v.ErrType[j] != v.ErrType[i] || !v.sameAnswer(i, j, a.simBits) {
				continue
			}
			storm = append(storm, j)
			a.inGoalStorm[j] = true
			last, code, changed = y, twoFiles{}, false
		}
		if len(storm) >= p.ErrorStreakSuspicious {
			keep(storm)
		}
	}
	a.goalStorm, a.editedFiles, a.writtenFiles = storm, edited, written
}

// editsNotLanding hands keep each run of edits that did not land: calls
// with the edit intent, one after another (other calls between them
// neither break nor extend the run), each answered with a failure that
// says the change was not made or broke the file (notLanded), with
// nothing learned between two of them (learnedBetween) and no package
// installed. The failures may differ every time: an agent putting one
// change in through the editor, sed, perl and a Python script, tripping
// on anchors, quoting and indentation in turn, is retrying one change,
// not fixing one error after another. An edit that applied ends the run,
// and so does one whose check failed after it applied (an experiment),
// unless the first failure after it, before the next edit, is a compile
// error raised in the file it changed: it left that file broken, so it
// did not land either, and the storm runs to that check (keep's last).
func editsNotLanding(v *Run, a *analysis, p *Policy, keep func(edits []int, last int)) {
	run := a.goalStorm[:0]
	shown := -1 // the check that showed the run's last edit broke its file
	flush := func() {
		if len(run) >= p.ErrorStreakSuspicious {
			keep(run, shown)
		}
		run, shown = run[:0], -1
	}
	applied := -1 // an edit that applied, its check not yet come back
	for _, i := range a.calls {
		if v.Flags[i]&flagResult == 0 {
			continue
		}
		check := -1 // the call that showed edit i broke its file
		t := v.Names.ErrTypeName(v.ErrType[i])
		failed := v.Flags[i]&flagError != 0
		if v.Names.IntentName(v.Intent[i]) != schema.IntentEdit {
			if applied < 0 {
				continue
			}
			// The first failure after an edit that applied says whether
			// it landed: a compile error in the very file it changed
			// says it left the file broken. Calls that worked before it
			// (the file viewed, a search) say nothing of that.
			if !failed {
				continue
			}
			if !failed || !compileError[t] || v.FailFile[i] == 0 || v.FailFile[i] != v.EditFile[applied] {
				flush()
				applied = -1
				continue
			}
			i, applied, check = applied, -1, i
		} else if !failed || !(notLanded[t] || compileError[t]) {
			if failed || v.EditFile[i] == 0 || applied >= 0 {
				// Applied and checked in one call, or applied with nothing
				// to say the edit before it did not land: those landed.
				flush()
			}
			applied = -1
			if !failed && v.EditFile[i] != 0 {
				applied = i
			}
			continue
		} else if applied >= 0 {
			// An edit that applied, then one that failed: as far as
			// anything says, the first landed.
			flush()
			applied = -1
		}
		if len(run) > 0 && (a.learnedBetween(run[len(run)-1], i) || installedBetween(v, a, run[len(run)-1], i)) {
			flush()
		}
		run, shown = append(run, i), check
	}
	flush()
	a.goalStorm = run
}

// notLanded are the error types of an edit that left no working change
// besides a compile error of the file it changed (compileError): refused
// by the editor, or its command or script not parsed.
var notLanded = map[string]bool{
	schema.ErrEditRejected: true, schema.ErrUsage: true, schema.ErrShellSyntax: true, schema.ErrScriptSyntax: true, schema.ErrEditFailed: true, schema.ErrEditCrashed: true,
}

// installedBetween reports whether a package was installed that was not
// before between steps i and j (installedAnew).
func installedBetween(v *Run, a *analysis, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if installedAnew(v, a, k) {
			return true
		}
	}
	return false
}

// maxWindowSearch is the longest streak repeatingWindow searches: longer
// ones are rare, and the search is quadratic in the streak's length.
const maxWindowSearch = 128

// repeatingWindow returns the longest run of consecutive failures of a
// streak, the earliest of equally long ones, that has at most half as
// many distinct answers as failures: failures that repeat, inside a
// longer streak whose failures taken together do not (the same two
// failures alternating after a few different ones). Nil when no run of
// two or more does, or the streak is longer than maxWindowSearch.
func repeatingWindow(v *Run, a *analysis, fails []int) []int {
	if len(fails) > maxWindowSearch {
		return nil
	}
	bestFrom, bestLen := 0, 0
	var reps []int
	for from := range fails {
		if len(fails)-from <= bestLen {
			break
		}
		reps = reps[:0]
		for to := from; to < len(fails); to++ {
			i := fails[to]
			known := false
			for _, r := range reps {
				if sameFailure(v, a, r, i, sameGoal(v, r, i)) {
					known = true
					break
				}
			}
			if !known {
				reps = append(reps, i)
			}
			if n := to - from + 1; n >= 2 && 2*len(reps) <= n && n > bestLen {
				bestFrom, bestLen = from, n
			}
		}
	}
	if bestLen == 0 {
		return nil
	}
	return fails[bestFrom : bestFrom+bestLen]
}

// goalStorms hands keep, for each failure that begins one, the failures
// of one goal (sameGoal: one tool and one intent, an install, an edit)
// that are the same failure as the first (sameFailure), each at most
// Window calls after the one before: an install that times out again and
// again while the agent looks around between the tries, edits rejected
// one after another. Other calls between them neither break nor extend
// such a storm; the goal reached (the install worked, an edit applied)
// ends it, unless a call alike one in the storm is sent again after it
// and fails the same way. A failure in a storm begun before it begins
// none: that would be the same storm, shorter. The slice keep gets is
// reused.
func goalStorms(v *Run, a *analysis, p *Policy, keep func([]int)) {
	storm := a.goalStorm[:0]
	a.inGoalStorm = resize(a.inGoalStorm, v.Len())
	clear(a.inGoalStorm)
	for x, i := range a.calls {
		if v.Flags[i]&flagError == 0 || !hasGoal(v, i) || a.inGoalStorm[i] {
			continue
		}
		// An application tool's failures are one failure only when they
		// give one answer: its error types are not the adapters' to say.
		byType := v.Intent[i] != 0
		storm = append(storm[:0], i)
		last := x
		worked := false // a call of the goal worked since the last failure
		for y := x + 1; y < len(a.calls) && y-last <= p.Window; y++ {
			j := a.calls[y]
			if !sameGoalOf(v, i, j) || v.Flags[j]&flagResult == 0 {
				continue
			}
			if v.Flags[j]&flagError == 0 {
				worked = true
				continue
			}
			same := sameFailure(v, a, i, j, byType)
			if worked && !(same && likeAny(v, a, storm, j)) {
				// What worked moved the goal on, unless the very call
				// that failed before is sent again and fails the same
				// way: then it did not.
				break
			}
			if same && (!experiment(v, i) || likeAny(v, a, storm, j)) {
				storm = append(storm, j)
				a.inGoalStorm[j] = true
				last, worked = y, false
			}
		}
		if len(storm) >= p.ErrorStreakSuspicious && (byType || resentCall(v, storm)) {
			keep(storm)
		}
	}
	a.goalStorm = storm
}

// experiment reports whether failure i is an edit's failure that names no
// edit failing (an exception class, a generic type) and is no compile
// error: the edit applied and the check run after it failed. The same
// failure after another edit is another experiment; after the same edit
// again, the edits go in circles. The same compile error at the same place
// (schema.AppendFailureSite) after each edit is the edits not reaching
// what is broken.
func experiment(v *Run, i int) bool {
	t := v.Names.ErrTypeName(v.ErrType[i])
	return v.Names.IntentName(v.Intent[i]) == schema.IntentEdit && genericFailure(t) && !compileError[t]
}

// compileError are the error types of code that does not parse: the same
// one at the same place after another edit is the edit not reaching what
// is broken, not an experiment's answer.
var compileError = map[string]bool{"SyntaxError": true, "IndentationError": true, "TabError": true}

// likeAny reports whether call j is alike (likeCall) one of the calls at idx.
func likeAny(v *Run, a *analysis, idx []int, j int) bool {
	for _, i := range idx {
		if v.likeCall(i, j, a.simBits) {
			return true
		}
	}
	return false
}

// sameFailure: two failures are the same answer (answers.go); within one
// tool, also two failures of one specific error type (an edit rejected, a
// format error, a timeout), whose texts echo what the agent sent and so
// differ with every attempt. Generic types (EXIT_CODE, ERROR, UNKNOWN)
// name no failure in particular: their texts must match. Two failures
// that logged no output (a log that keeps only exit codes) give no text to
// match: they are the same failure only when the calls are alike, the
// same command failing again; different commands that each exit non-zero
// are an agent trying things. A later failure j whose output was not
// logged is the same as i when the agent's next words said the failure
// came back (schema.ErrSaidAgain): its own account is the only one there
// is.
func sameFailure(v *Run, a *analysis, i, j int, sameTool bool) bool {
	if v.Names.ErrTypeName(v.ErrType[j]) == schema.ErrSaidAgain {
		return true // the agent said so: "the error persists"
	}
	if sameTool && v.ErrType[i] == v.ErrType[j] && !genericFailure(v.Names.ErrTypeName(v.ErrType[i])) {
		return true
	}
	if v.Flags[i]&flagPayload == 0 && v.Flags[j]&flagPayload == 0 {
		if v.Tool[i] == v.Tool[j] && v.ErrType[i] == v.ErrType[j] && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrTimeout {
			// A tool that timed out stays stuck (a shell that must be
			// restarted): what is sent to it next times out the same
			// way, as the logged messages say word for word.
			return true
		}
		return v.likeCall(i, j, a.simBits)
	}
	return v.sameAnswer(i, j, a.simBits)
}

// genericFailure reports whether an error type says a call failed, not
// which failure: the generic types, and a language's exception class as
// an adapter names it from a traceback (NameError, TypeError, OSError),
// whose message says what failed: three NameErrors for three different
// names are three failures.
func genericFailure(t string) bool {
	return genericError[t] || exceptionClass(t)
}

// exceptionClass reports whether an error type is written as an exception
// class is (CamelCase, ending in Error or Exception), not as the contract's
// and the adapters' own types are (EDIT_REJECTED, FORMAT_ERROR, TIMEOUT).
func exceptionClass(t string) bool {
	if len(t) < 6 || t[0] < 'A' || t[0] > 'Z' || !strings.ContainsAny(t, "abcdefghijklmnopqrstuvwxyz") {
		return false
	}
	return strings.HasSuffix(t, "Error") || strings.HasSuffix(t, "Exception")
}

// genericError are error types that say a call failed, not how.
// BUILD_FAILED says a build failed, not why: one module's dependencies
// missing, then another's, is an agent fixing one failure after another.
// PATTERN_ERROR says a search's pattern did not parse, not which: two
// different bad patterns are two attempts, the same one again a retry.
var genericError = map[string]bool{"EXIT_CODE": true, "ERROR": true, schema.ErrUnknown: true, "EXCEPTION": true, "BUILD_FAILED": true, schema.ErrTestsFailed: true, schema.ErrCrashed: true, "PATTERN_ERROR": true, schema.ErrSaidFailed: true, schema.ErrEditFailed: true, schema.ErrEditCrashed: true}

// retried reports whether the failures at idx are mostly the same call
// made again (likeCall: an edit re-sent with other indentation is the same
// edit), not different calls that each fail.
func retried(v *Run, a *analysis, idx []int) bool {
	again := 0
	for k, i := range idx {
		if v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrNoOutput {
			// The tool answered nothing, whatever was asked: asking it
			// something else is asking again.
			again++
			continue
		}
		for _, j := range idx[:k] {
			if v.likeCall(j, i, a.simBits) {
				again++
				break
			}
		}
	}
	return 2*again >= len(idx)
}

// maxStormPause is how many calls in a row that brought something lasting
// a storm goes on through: a file read between two failing edits
// interrupts it; a second success in a row ends it.
const maxStormPause = 1

// minBurst is the fewest failures in a row that make the start of a storm:
// a person reading a run sees a stuck stretch from about four failed
// actions on; single failures before it are an agent trying things.
const minBurst = 4

// burstStart is the index in storm of the first failure of its first run
// of minBurst failures with only calls that brought nothing between them,
// or 0 when it has none.
func burstStart(v *Run, a *analysis, storm []int) int {
	run := 1
	for k := 1; k < len(storm); k++ {
		if actedBetween(v, a, storm[k-1], storm[k]) {
			run = 1
			continue
		}
		if run++; run == minBurst {
			return k - minBurst + 1
		}
	}
	return 0
}

// distinctAnswers returns one failure of each distinct answer (answers.go)
// among the failures at idx or, with top, the failures of the most common
// answer of one tool.
func distinctAnswers(v *Run, a *analysis, idx []int, top bool) []int {
	var classes [][]int
	most := -1
	for _, i := range idx {
		k := -1
		for c := range classes {
			rep := classes[c][0]
			if (!top || v.Tool[rep] == v.Tool[i]) && sameFailure(v, a, rep, i, top || sameGoal(v, rep, i) || sameAppTool(v, rep, i)) {
				k = c
				break
			}
		}
		if k < 0 {
			classes = append(classes, nil)
			k = len(classes) - 1
		}
		classes[k] = append(classes[k], i)
		if most < 0 || len(classes[k]) > len(classes[most]) {
			most = k
		}
	}
	if top {
		if most < 0 {
			return nil
		}
		return classes[most]
	}
	reps := make([]int, len(classes))
	for c := range classes {
		reps[c] = classes[c][0]
	}
	return reps
}

// movedOn reports whether failure i, a call that installed something new
// and then failed (`pip install pyyaml && python repro.py`), failed
// otherwise than the failure before it: the install changed what
// happens, and what fails next is another attempt (the next missing
// module). The answers are compared exactly, after normalising what
// changes by itself: "No module named 'yaml'" and "... 'pydantic'" are
// near-identical texts but not the same failure. The same failure coming
// back means the install did not help.
func movedOn(v *Run, newInstall []bool, fails []int, i int) bool {
	if !newInstall[i] || len(fails) == 0 {
		return false
	}
	last := fails[len(fails)-1]
	return v.Result[last] != v.Result[i] || v.ErrType[last] != v.ErrType[i]
}

// checkMovedOn reports whether failed call i is a check run again that
// failed another way than it had in the streak: the same command, a new
// error (a script that stopped on one missing setting now stops on a
// missing module). What was done since changed what it fails on: the
// agent fixing one error after another, which the rubric calls progress,
// so the streak ends before it. An error the call failed with before in
// the streak is no new one (it came back), and both errors must name the
// failure: generic types such as EXIT_CODE say only that the call failed,
// a timeout only that it hung, and a failure the agent said came back is
// the same.
func checkMovedOn(v *Run, fails []int, i int) bool {
	ran := false
	for _, j := range fails {
		if v.call[j] != v.call[i] {
			continue
		}
		if !failedAnew(v, j, i) {
			return false
		}
		ran = true
	}
	return ran
}

// failedAnew reports whether failure i names an error, and another than
// the one failure j names. Of a language's exception class the message
// names the error (genericFailure): a NameError for another name is
// another error. Its answer is compared exactly, after normalising what
// changes by itself, as movedOn compares: near-identical tracebacks that
// name two names are two errors.
func failedAnew(v *Run, j, i int) bool {
	ti, tj := v.Names.ErrTypeName(v.ErrType[i]), v.Names.ErrTypeName(v.ErrType[j])
	if !namesError(ti) || !namesError(tj) {
		return false
	}
	return ti != tj || exceptionClass(ti) && v.Flags[i]&v.Flags[j]&flagPayload != 0 && v.Result[i] != v.Result[j]
}

// namesError reports whether an error type names the failure, not only
// that the call failed, hung, logged nothing or came back.
func namesError(t string) bool {
	return !genericError[t] && t != schema.ErrSaidAgain && t != schema.ErrNoOutput && t != schema.ErrTimeout
}

// stuckShell reports whether failure j is a timeout of a shell tool that
// had been stuck since before call i: a timeout of that tool at or
// before i, and each of its calls since answered by a timeout too. A
// shell that timed out stays stuck until restarted ("must be restarted"),
// and the commands sent to it meanwhile do not run, so nothing done
// between i and j (an edit made with another tool, a file read) reached
// the call that failed at j.
func stuckShell(v *Run, i, j int) bool {
	if !shellTimeout(v, j) {
		return false
	}
	for k := j - 1; k >= 0; k-- {
		if v.Tool[k] != v.Tool[j] || v.Flags[k]&flagResult == 0 {
			continue
		}
		if !shellTimeout(v, k) {
			return false
		}
		if k <= i {
			return true
		}
	}
	return false
}

// shellTimeout reports whether call i is a shell tool's call that failed
// with a timeout.
func shellTimeout(v *Run, i int) bool {
	return v.Flags[i]&flagError != 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrTimeout && schema.IsShellTool(v.Names.ToolName(v.Tool[i]))
}

// talked reports whether call i is a turn of conversation that went
// through (schema.ToolMessage): an apology to the customer between two
// identical failing bookings, a new reply each time, changes nothing the
// booking depends on.
func talked(v *Run, i int) bool {
	return v.Flags[i]&flagError == 0 && v.Names.ToolName(v.Tool[i]) == schema.ToolMessage
}

// actedBetween reports whether a call strictly between steps i and j
// (i < j) made lasting progress other than by talking.
func actedBetween(v *Run, a *analysis, i, j int) bool {
	if !a.progressedBetween(i, j) || stuckShell(v, i, j) {
		return false
	}
	for k := i + 1; k < j; k++ {
		if a.lasting(k) && !talked(v, k) {
			return true
		}
	}
	return false
}

// sumCounts is the sum of the counts.
func sumCounts(m map[string]int64) int64 {
	var n int64
	for _, c := range m {
		n += c
	}
	return n
}

// refusedWords reports whether failed step i is a turn of words the
// harness refused: a PLAN step failed with FORMAT_ERROR, no call in it
// (docs/adapters/inspect.md), or a turn of conversation handed to another
// of the run's agents and refused before it reached it (REJECTED: CrewAI
// refusing a question to a coworker it was asked before). No tool failed:
// the agent said its piece again. A turn that failed otherwise carried
// work that ran and failed (a group chat's code executor answering with an
// exit code).
func refusedWords(v *Run, i int) bool {
	switch v.Names.ErrTypeName(v.ErrType[i]) {
	case schema.ErrFormatError:
		return v.State[i] == schema.StatePlan
	case schema.ErrRejected:
		return v.isMessage(i) && !v.toUser(i)
	}
	return false
}

// wordsOnlyFailures reports whether every failure of fails is a turn of
// words the harness refused for want of an action (a PLAN step failed with
// FORMAT_ERROR: docs/adapters/inspect.md).
func wordsOnlyFailures(v *Run, fails []int) bool {
	for _, i := range fails {
		if v.State[i] != schema.StatePlan || v.Names.ErrTypeName(v.ErrType[i]) != schema.ErrFormatError {
			return false
		}
	}
	return true
}

// sameAppTool reports whether calls i and j are of one application tool
// (appTool) without an intent: a tool made for one thing (reading a web
// page, booking a flight) has its goal in its name, as an intent gives a
// shell call its goal.
func sameAppTool(v *Run, i, j int) bool {
	return v.Tool[i] == v.Tool[j] && v.Intent[i] == 0 && v.Intent[j] == 0 && appTool(v.Names.ToolName(v.Tool[i]))
}

// scriptMistakes hands keep, for each failure that begins one, the returns
// of one mistake made in the agent's own scripts: failures raised in files
// the run wrote whole before them (flagCreate: a reproduction or check
// script), of one error type and one mistake (Run.FailMistake: the
// exception line, whatever script and line raised it, of code that did
// not run rather than a check's verdict), each at most Window calls after
// the one before, an edit that worked between every two of them, and no
// package newly installed and edits of at most two files of the code
// between two returns. The agent writes its check again, under a new name
// or edited, and makes the same mistake in it (a class called without the
// arguments it needs, the same import that fails): what it changed between
// did not reach the mistake. Edits of the scripts it wrote are those
// attempts and neither end nor count against the storm; a third file of
// the code changed is the agent moving on, as in unreachedFailures. An
// assertion, or an exception a `raise` in the script throws, is the check
// answering (schema.AppendFailureMistake names no mistake for it): the
// same answer after a change to the code is an experiment.
func scriptMistakes(v *Run, a *analysis, p *Policy, keep func([]int)) {
	if len(v.FailMistake) != v.Len() || !slices.ContainsFunc(a.calls, func(i int) bool { return v.FailMistake[i] != 0 }) {
		return
	}
	storm := a.goalStorm[:0]
	clear(a.inGoalStorm)
	// written lists the files the run wrote whole up to the call at hand:
	// those whose first edit that worked created them.
	written, edited := a.writtenFiles[:0], a.editedFiles[:0]
	wrote := func(i int) {
		if f := v.EditFile[i]; f != 0 && v.Flags[i]&flagError == 0 && !slices.Contains(edited, f) {
			edited = append(edited, f)
			if v.Flags[i]&flagCreate != 0 {
				written = append(written, f)
			}
		}
	}
	for x, i := range a.calls {
		wrote(i)
		if v.Flags[i]&flagError == 0 || v.FailMistake[i] == 0 || a.inGoalStorm[i] || !slices.Contains(written, v.FailFile[i]) {
			continue
		}
		storm = append(storm[:0], i)
		last := x
		own := len(written) // the files written whole by the storm's calls so far
		var code twoFiles   // the files of the code changed since the last return
		changed := false    // an edit worked since the last return
		for y := x + 1; y < len(a.calls) && y-last <= p.Window; y++ {
			j := a.calls[y]
			if f := v.EditFile[j]; f != 0 && v.Flags[j]&flagError == 0 {
				changed = true
				if v.Flags[j]&flagCreate != 0 && !slices.Contains(written, f) {
					written = append(written, f)
				}
				if slices.Contains(written, f) {
					continue // one of the agent's own scripts
				}
				if code.add(f) {
					continue
				}
				break // a third file: the agent moved on
			}
			if installedAnew(v, a, j) {
				break
			}
			if !changed || v.Flags[j]&flagError == 0 || v.ErrType[j] != v.ErrType[i] || v.FailMistake[j] != v.FailMistake[i] || !slices.Contains(written, v.FailFile[j]) {
				continue
			}
			storm = append(storm, j)
			a.inGoalStorm[j] = true
			last, code, changed = y, twoFiles{}, false
		}
		// Files the look-ahead saw written are written again when the
		// outer walk reaches them; until then they are not yet written.
		written = written[:own]
		if len(storm) >= p.ErrorStreakSuspicious {
			keep(storm)
		}
	}
	a.goalStorm, a.writtenFiles, a.editedFiles = storm, written, edited
}

// twoFiles holds the files of the code an agent changed between two
// returns of one failure: a fix may touch the failing code and one helper
// of it, a third file is the agent moving on.
type twoFiles struct{ first, second uint32 }

// add records file f and reports whether it is one of at most two.
func (t *twoFiles) add(f uint32) bool {
	switch {
	case t.first == 0 || f == t.first:
		t.first = f
	case t.second == 0 || f == t.second:
		t.second = f
	default:
		return false
	}
	return true
}

// sameCompileError hands keep each chain of one call failing with one
// compile error (compileError: the same exception at the same place, its
// answer), each at most Window calls after the one before, with no package
// newly installed between and no edit of another file that brought
// something new (the next run is then another experiment, as a stretch
// ends there). Code that does not parse is no experiment's answer: edits
// of the broken file and restores of it that leave the same error did not
// make it parse.
func sameCompileError(v *Run, a *analysis, p *Policy, keep func([]int)) {
	chain := a.goalStorm[:0]
	clear(a.inGoalStorm) // failures already in a chain
	for x, i := range a.calls {
		if v.Flags[i]&flagError == 0 || v.Flags[i]&flagPayload == 0 || a.inGoalStorm[i] || !compileError[v.Names.ErrTypeName(v.ErrType[i])] {
			continue
		}
		chain = append(chain[:0], i)
		last := x
		for y := x + 1; y < len(a.calls) && y-last <= p.Window; y++ {
			j := a.calls[y]
			if installedAnew(v, a, j) {
				break
			}
			if f := v.EditFile[j]; f != 0 && f != v.FailFile[i] && v.Flags[j]&flagError == 0 && a.lasting(j) {
				break // another file changed: what fails next is another experiment's answer
			}
			if v.Flags[j]&flagError == 0 || v.Flags[j]&flagPayload == 0 || v.ErrType[j] != v.ErrType[i] || v.sameCall(j) != v.sameCall(i) || !v.sameAnswer(i, j, a.simBits) {
				continue
			}
			chain = append(chain, j)
			a.inGoalStorm[j] = true
			last = y
		}
		if len(chain) >= p.ErrorStreakSuspicious {
			keep(chain)
		}
	}
	a.goalStorm = chain
}

// silentRejectedEdit reports whether call i is an edit that logged no
// output and that the run's reading typed EDIT_REJECTED (the same text
// written again at the same place, the agent's next words asking for the
// exact text to replace): with the output not logged, the edit's own
// failure is known, and it is one failure, the change not made. With the
// output logged, the refusals' texts say whether they are one failure.
func silentRejectedEdit(v *Run, i int) bool {
	return v.Flags[i]&flagPayload == 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrEditRejected && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit
}

// refusedEditLanded reports whether call i is an edit that applied and
// changed the code anew (changedAnew) ending a streak whose failures are
// all edits the editor refused: the change the editor kept refusing went
// in. The refusals were the agent getting one change into the file, and
// they are over; what fails next is another attempt, not the same one
// again. A streak with another failure in it (a shell that hangs, a check
// that fails) goes on: an edit landing does not answer that failure.
func refusedEditLanded(v *Run, a *analysis, fails []int, i int) bool {
	if len(fails) == 0 || v.Names.IntentName(v.Intent[i]) != schema.IntentEdit || !a.changedAnew(v, i) {
		return false
	}
	for _, j := range fails {
		if v.Names.IntentName(v.Intent[j]) != schema.IntentEdit || v.Names.ErrTypeName(v.ErrType[j]) != schema.ErrEditRejected || v.EditFile[j] != v.EditFile[i] {
			return false
		}
	}
	return true
}
