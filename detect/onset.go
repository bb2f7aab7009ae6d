package detect

import (
	"slices"
	"sort"

	"github.com/runawayhq/runaway/schema"
)

// The onset is the first action of the stuck stretch: the first instance
// of what then repeats, not the first repeat. A finding marks the steps
// where its pattern held; the stretch a person sees is often wider, as the
// agent ran the block it then replays once before (a first lap of greps
// and views, a failing command tried before one attempt that went
// elsewhere), or the finding began with a step that never comes back.

// onsetOf is the index of the first action of the stuck stretch the
// primary finding lies in.
func onsetOf(v *Run, a *analysis, p *Policy, primary *hit, hits []*hit) int {
	first, last := stretchOf(primary, hits)
	if primary.Detector == ReplanLoop.ID || primary.Detector == RestatedTurn.ID {
		// A re-planning loop begins with its plans: where the same
		// instruction was first handed out, when a repeat of it overlaps.
		for _, h := range hits {
			if (h.Detector == RepeatedCall.ID || h.Detector == NearDuplicateCall.ID) && overlaps(h, primary) && v.instructs(h.first) {
				first = min(first, h.first)
			}
		}
	}
	if primary.Detector == RestatedTurn.ID && first > 0 && v.instructs(first-1) {
		// The turn that first made the point answers a plan (a review
		// phase's prompt to the reviewer): the loop begins with that plan.
		first--
	}
	if primary.Detector == EmptyResultLoop.ID {
		first = refusedEditsBefore(v, a, first)
	}
	if !replayed[primary.Detector] || primary.asFound {
		return first
	}
	on := firstInstance(v, a, p, first, last)
	if made, ok := pointFirstMade(v, primary, hits); ok && made < on {
		on = made
		if on > 0 && v.instructs(on-1) {
			on-- // the turn that first made the point answers a prompt
		}
	}
	return on
}

// refusedEditsBefore walks an empty-result loop's onset back over the
// edits refused just before it (schema.ErrEditRejected: the text they
// meant to replace was not found): a replacement of text the file does
// not hold is a lookup of that text answered "not there", the question
// the empty searches then ask again in other words. At most one other
// call may come between two of them, and a change that worked ends the
// walk, as it ends the search's own (docs/detectors/RA601.md).
func refusedEditsBefore(v *Run, a *analysis, first int) int {
	newInARow := 0
	for k := sort.SearchInts(a.calls, first) - 1; k >= 0 && newInARow < maxNewInARow; k-- {
		i := a.calls[k]
		if editedAnew(v, a, i) || installedAnew(v, a, i) {
			break
		}
		if v.Flags[i]&flagError != 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrEditRejected {
			first, newInARow = i, 0
			continue
		}
		newInARow++
	}
	return first
}

// pointFirstMade is, for turns between agents handed out again word for
// word (the same review prompt and comment about code handed back
// unchanged), the first turn of a chain of restated points (RA208) that
// runs into them: the point they go round, first made in other words. The
// words changed once, so that turn is no repeat of the call, but it is the
// first instance of what then repeats. ok is false without such a chain.
func pointFirstMade(v *Run, primary *hit, hits []*hit) (first int, ok bool) {
	if primary.Detector != RepeatedCall.ID || !v.isMessage(primary.first) {
		return 0, false
	}
	for _, h := range hits {
		if h.Detector == RestatedTurn.ID && overlaps(h, primary) && (!ok || h.first < first) {
			first, ok = h.first, true
		}
	}
	return first, ok
}

// stretchOf is the stuck stretch the primary finding lies in: its own
// segment joined with those of the action-level loop findings (repeats,
// cycles, error storms, empty searches) that overlap it. A loop often
// shows first as one pattern and then as another (rephrased empty searches
// settling into an exact A B A B, a burst of failures before the long
// storm). A re-planning loop begins with its plans, however early a call
// it repeats was first made; symptoms (no progress, a budget crossed) and
// a run's unfinished end are not loops.
func stretchOf(primary *hit, hits []*hit) (first, last int) {
	first, last = primary.first, primary.last
	if !actionLoop[primary.Detector] {
		return first, last
	}
	for _, h := range hits {
		if primary.Detector == SameThoughtPaging.ID && h.Detector == PagingLoop.ID {
			// The sweep began with the first page read, while each page
			// was read for a reason of its own; the agent got stuck where
			// its thought stopped changing.
			continue
		}
		if h != primary && actionLoop[h.Detector] && overlaps(h, primary) {
			first, last = min(first, h.first), max(last, h.last)
		}
	}
	return first, last
}

// actionLoop lists the detectors of loops in the actions themselves.
var actionLoop = map[string]bool{
	RepeatedCall.ID: true, CallCycle.ID: true, NearDuplicateCall.ID: true, PagingLoop.ID: true,
	SameThoughtPaging.ID: true, ErrorStreak.ID: true, NonRetryableRetry.ID: true, EmptyResultLoop.ID: true,
}

// replayed lists the detectors whose stretch is made of actions that come
// back (the same call and answer, the same failure), so its first action
// is the first instance of one of them. A rephrased search is new each
// time and a plan is not an action: their stretches stand as found.
var replayed = map[string]bool{
	RepeatedCall.ID: true, CallCycle.ID: true, NearDuplicateCall.ID: true,
	ErrorStreak.ID: true, NonRetryableRetry.ID: true, NoProgress.ID: true, LookOnly.ID: true,
}

// maxNewInARow is how many calls in a row that are not instances of what
// the stretch repeats end it, walking back: one new call between replayed
// ones is part of the lap (a grep that finds the line the next view
// shows); two in a row are the agent doing something else.
const maxNewInARow = 2

// firstInstance walks back from the stretch [first, last] to the first
// instance of what it repeats: while the calls before it are instances of
// calls in the stretch (the same call with the same answer, or the same
// failure of the same tool), with fewer than maxNewInARow new calls in a
// row between them. When the stretch itself begins with calls that never
// come back in it, the onset moves forward to its first call that does;
// walking back, those of them that went through count as new calls, while
// its failures do not: they are the stretch's own. A call before the
// stretch made under the very thought its first instance was made under,
// that brought nothing new, is an instance too (sameThoughtNothingNew).
func firstInstance(v *Run, a *analysis, p *Policy, first, last int) int {
	lo := sort.SearchInts(a.calls, first)
	hi := sort.Search(len(a.calls), func(k int) bool { return a.calls[k] > last })
	inStretch := a.calls[lo:hi]
	if len(inStretch) == 0 {
		return first
	}
	r := newRepeats(v, a, inStretch)
	// A lone malformed call, the agent's next call going through, is no
	// instance: the agent got past it; nor is a short stall of turns
	// without a call (shortWordlessStall).
	slip := func(i int) bool { return loneInvalidCall(v, a, i) || shortWordlessStall(v, a, p, i) }
	at := slices.IndexFunc(inStretch, func(i int) bool { return r.instance(i) && !slip(i) })
	if at < 0 {
		return first // nothing in it comes back: the finding's own start stands
	}
	start, newInARow := lo+at, 0
	// An edit of the very file the stretch fails in, the same failure
	// coming back after it, changed nothing that fails: the walk goes on
	// past it (an edit that broke the file, or missed what breaks it). The
	// file is the first instance's, or, when its failure names none (a
	// check that caught its error and printed it), that of the stretch's
	// first failure that names one (the same check dying of it later);
	// the next check after the edit must have failed (failedNext).
	failsIn := v.FailFile[inStretch[at]]
	for _, i := range inStretch[at:] {
		if failsIn != 0 {
			break
		}
		if v.Flags[i]&flagError != 0 {
			failsIn = v.FailFile[i]
		}
	}
	for k := start - 1; k >= 0 && newInARow < maxNewInARow; k-- {
		i := a.calls[k]
		if installedAnew(v, a, i) || (editedAnew(v, a, i) && (failsIn == 0 || v.EditFile[i] != failsIn || !failedNext(v, a, k))) {
			break // what came before a change that worked is another attempt
		}
		if r.instance(i) && !slip(i) && !failedOtherwiseNext(v, a, k) {
			start, newInARow = k, 0
			continue
		}
		if k < lo && sameThoughtNothingNew(v, a, i, inStretch[at]) {
			start, newInARow = k, 0
			continue
		}
		if k >= lo && v.Flags[i]&flagError != 0 && !slip(i) {
			// A failure the stretch opens with that never comes back is
			// still one of its failures, not the agent doing something
			// else: it neither starts the onset nor ends the walk.
			continue
		}
		newInARow++ // the calls skipped that went through count as new
	}
	return a.calls[start]
}

// failedOtherwiseNext reports whether the failed call a.calls[k] was run
// again later and then failed with another named error (checkMovedOn):
// its failure did not come back, the agent got past it, so it is no
// instance of the stretch even when its text resembles a later failure's
// (two Django tracebacks through the same settings code).
func failedOtherwiseNext(v *Run, a *analysis, k int) bool {
	i := a.calls[k]
	if v.Flags[i]&flagError == 0 {
		return false
	}
	for _, j := range a.calls[k+1:] {
		if v.call[j] == v.call[i] {
			return v.Flags[j]&flagError != 0 && failedAnew(v, i, j)
		}
	}
	return false
}

// loneInvalidCall reports whether call i is a call the harness refused
// for its arguments (schema.ErrInvalidCall: OpenHands' "Missing required
// parameters") with calls that went through on either side of it: a slip
// the agent's next call got past, not the first of a burst of malformed
// calls. Such a call is no instance of the storm that comes later, even
// when that storm is made of the same refusal: the agent was working
// between them. Between two sends of one call (a read, the refused edit,
// the same read again) it is no slip: the agent went round, not past it.
// A turn the harness could not read as a call (schema.ErrFormatError) is
// not counted so: it carries the text of the call meant, which may be the
// very script the storm resends.
func loneInvalidCall(v *Run, a *analysis, i int) bool {
	if v.Flags[i]&flagError == 0 || v.Names.ErrTypeName(v.ErrType[i]) != schema.ErrInvalidCall {
		return false
	}
	k := sort.SearchInts(a.calls, i)
	if k+1 >= len(a.calls) || !wentThrough(v, a.calls[k+1]) {
		return false
	}
	return k == 0 || (wentThrough(v, a.calls[k-1]) && v.sameCall(a.calls[k-1]) != v.sameCall(a.calls[k+1]))
}

// shortWordlessStall reports whether call i is one of a few turns in a
// row the harness refused as holding no call (schema.ErrFormatError) and
// logged without a word of the turn it refused (mini-swe-agent 2's "No
// tool calls found": the model answered without acting, and its answer
// is not kept), fewer of them than make a streak of failures suspicious
// (Policy.ErrorStreakSuspicious), with calls that went through on either
// side: the agent stalled and went on working. Such a turn attempted
// nothing the stuck stretch could resend, unlike a refused turn that
// carries the call it meant, so it is no instance of the storm that comes
// later, even when that storm is made of the same refusal.
func shortWordlessStall(v *Run, a *analysis, p *Policy, i int) bool {
	if !wordlessRefusal(v, i) {
		return false
	}
	k := sort.SearchInts(a.calls, i)
	lo, hi := k, k
	for lo > 0 && wordlessRefusal(v, a.calls[lo-1]) && hi-lo+1 < p.ErrorStreakSuspicious {
		lo--
	}
	for hi+1 < len(a.calls) && wordlessRefusal(v, a.calls[hi+1]) && hi-lo+1 < p.ErrorStreakSuspicious {
		hi++
	}
	return hi-lo+1 < p.ErrorStreakSuspicious && lo > 0 && hi+1 < len(a.calls) &&
		wentThrough(v, a.calls[lo-1]) && wentThrough(v, a.calls[hi+1])
}

// wordlessRefusal reports whether call j is a turn the harness refused as
// holding no call and that logged no words of its own.
func wordlessRefusal(v *Run, j int) bool {
	return v.Decision[j] == 0 && refusedTurn(v, j)
}

// wentThrough reports whether call j has a result and the harness did
// not refuse it as malformed (a format error, an invalid call), its output
// logged or not: without the output the harness's refusals are still
// there, and a call without one was taken and run.
func wentThrough(v *Run, j int) bool {
	if v.Flags[j]&flagResult == 0 {
		return false
	}
	switch v.Names.ErrTypeName(v.ErrType[j]) {
	case schema.ErrInvalidCall, schema.ErrFormatError:
		return v.Flags[j]&flagError == 0
	}
	return true
}

// editedAnew reports whether call i is an edit that worked and brought
// something new. The stuck stretch a person sees begins after the last
// change that worked (such an edit, a new install), not at an earlier
// instance of what then repeats.
func editedAnew(v *Run, a *analysis, i int) bool {
	return v.Flags[i]&flagError == 0 && a.lasting(i) && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit
}

// installedAnew reports whether call i is the run's first install of what
// it installs, and it worked: what runs next runs with something new.
func installedAnew(v *Run, a *analysis, i int) bool {
	return a.newInstall[i] && v.Flags[i]&flagError == 0
}

// repeats indexes the calls of a stretch by what makes another call an
// instance of one of them: per call identity, and per tool and error type,
// one call of each distinct answer and how many calls gave it; per tool,
// one failed call of each distinct call (likeCall) and how many were alike.
type repeats struct {
	v        *Run
	a        *analysis
	byCall   map[uint64][]answerClass
	byError  map[[2]int32][]answerClass
	failedBy map[int32][]answerClass // per tool, one failed call of each distinct call
}

type answerClass struct{ rep, n int }

// maxClasses bounds the distinct answers kept per call or failure kind, so
// a long stretch of ever-new answers costs no more than a few comparisons.
const maxClasses = 4

func newRepeats(v *Run, a *analysis, calls []int) *repeats {
	r := &repeats{v: v, a: a, byCall: map[uint64][]answerClass{}, byError: map[[2]int32][]answerClass{}, failedBy: map[int32][]answerClass{}}
	likeCall := func(i, j int) bool { return v.likeCall(i, j, a.simBits) }
	sameAnswer := func(i, j int) bool { return v.sameAnswer(i, j, a.simBits) }
	sameError := func(i, j int) bool { return retriedFailure(v, a, i, j) }
	for _, i := range calls {
		k := v.sameCall(i)
		r.byCall[k] = addTo(r.byCall[k], i, sameAnswer)
		if v.Flags[i]&flagError != 0 {
			r.failedBy[v.Tool[i]] = addTo(r.failedBy[v.Tool[i]], i, likeCall)
			ek := [2]int32{v.Tool[i], int32(v.ErrType[i])}
			r.byError[ek] = addTo(r.byError[ek], i, sameError)
		}
	}
	return r
}

func addTo(classes []answerClass, i int, same func(i, j int) bool) []answerClass {
	for c := range classes {
		if same(i, classes[c].rep) {
			classes[c].n++
			return classes
		}
	}
	if len(classes) < maxClasses {
		classes = append(classes, answerClass{rep: i, n: 1})
	}
	return classes
}

// instance reports whether call i is, besides itself, in the stretch: the
// same call with the same answer, the same call failing again (whatever
// the error), or the same failure of the same tool.
func (r *repeats) instance(i int) bool {
	v, a := r.v, r.a
	elsewhere := func(classes []answerClass, same func(i, j int) bool) bool {
		for _, c := range classes {
			if (c.rep != i || c.n > 1) && same(i, c.rep) {
				return true
			}
		}
		return false
	}
	failed := v.Flags[i]&flagError != 0
	if elsewhere(r.byCall[v.sameCall(i)], func(i, j int) bool {
		return v.sameAnswer(i, j, a.simBits) || (failed && v.Flags[j]&flagError != 0)
	}) {
		return true
	}
	if !failed {
		return false
	}
	// A near-identical call (likeCall: a grep re-sent with another head
	// count) failing again is the same call failing again, whatever the
	// error: a search that timed out, then failed to parse.
	if elsewhere(r.failedBy[v.Tool[i]], func(i, j int) bool { return v.likeCall(i, j, a.simBits) }) {
		return true
	}
	return elsewhere(r.byError[[2]int32{v.Tool[i], int32(v.ErrType[i])}], func(i, j int) bool { return retriedFailure(v, a, i, j) })
}

// retriedFailure: failures i and j of one tool and error type are one
// failure coming back when the answers are the same or the calls are
// (near) the same: the same compile error after a different edit is not.
// The goal of a generic tool (a shell, an editor) is in its intent; an
// application's own tool has its goal in its name (goals.go), so its
// failures of one specific error type are one failure coming back, also
// when the harness refused them for their arguments: a mail search
// refused for its argument names, sent again under other guessed names.
// Turns the harness could not read as calls (schema.ErrFormatError) get
// its one nudge whatever they said: they are one failure only when the
// calls they meant are alike.
func retriedFailure(v *Run, a *analysis, i, j int) bool {
	if v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrFormatError && v.Names.ErrTypeName(v.ErrType[j]) == schema.ErrFormatError {
		return v.likeCall(i, j, a.simBits)
	}
	if unparsedAlike(v, i, j) {
		return true
	}
	return sameFailure(v, a, i, j, sameGoal(v, i, j) || sameAppTool(v, i, j)) || v.likeCall(i, j, a.simBits)
}

// unparsedAlike reports whether failures i and j are one tool's programs
// that did not parse, neither with output logged: the adapters type such a
// failure SCRIPT_SYNTAX_ERROR only from the call itself (a research-fork
// action opened by a markup line), the same mistake made again, whatever
// the program meant to do.
func unparsedAlike(v *Run, i, j int) bool {
	return v.Tool[i] == v.Tool[j] && v.ErrType[i] == v.ErrType[j] && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrScriptSyntax &&
		v.Flags[i]&flagPayload == 0 && v.Flags[j]&flagPayload == 0
}

// sameThoughtNothingNew reports whether call i, before the stretch, was
// made under the very thought (Run.Decision, word for word) that the
// stretch's first instance j was made under, and brought nothing that
// lasted (an empty search, an answer it had had before). The agent was
// already doing what it then does again and again, with other args: the
// same "Let's look at the database router implementation" over two empty
// finds and a find answered as before, then the one find it repeats 34
// times. A call under that thought that brought something new is the
// agent's last step forward, not the loop.
func sameThoughtNothingNew(v *Run, a *analysis, i, j int) bool {
	return v.Decision[i] != 0 && v.Decision[i] == v.Decision[j] && !a.lasting(i)
}

// wordsAgain is the onset of a storm of turns the harness refused for
// want of an action (schema.ErrFormatError: a refusal or a plan restated
// at each prompt to act, a re-planning loop) that begins at such a turn
// on. When the agent's next turn called a tool (it acted on the prompt:
// a search tried, refused for its arguments) and from its next refused
// turn to the storm's last the agent answered every prompt with words
// alone, that refused turn begins the loop: the turn at on was followed
// by an attempt at the task, the agent was not yet going round. Turns
// of words and calls taking turns to the end are the agent's plan/act
// oscillation, and on stands.
func wordsAgain(v *Run, a *analysis, on, last int) int {
	if !refusedTurn(v, on) {
		return on
	}
	inStorm := func(k int) bool { return k < len(a.calls) && a.calls[k] <= last }
	k := sort.SearchInts(a.calls, on) + 1
	from := k // the first refused turn after the attempts
	for inStorm(from) && !refusedTurn(v, a.calls[from]) {
		from++
	}
	if from == k || !inStorm(from) {
		return on // no attempt right after on, or no refusal after it
	}
	for j := from; inStorm(j); j++ {
		if !refusedTurn(v, a.calls[j]) {
			return on // words and calls taking turns to the end
		}
	}
	return a.calls[from]
}

// refusedTurn reports whether call i is a turn the harness refused as
// holding no action it could read.
func refusedTurn(v *Run, i int) bool {
	return v.Flags[i]&flagError != 0 && v.Names.ErrTypeName(v.ErrType[i]) == schema.ErrFormatError
}

// failedNext reports whether the first call after a.calls[k] that went
// through and is no edit failed: after an edit, the failure came back.
// An edit after which the next check went through changed something.
func failedNext(v *Run, a *analysis, k int) bool {
	for _, j := range a.calls[k+1:] {
		if !wentThrough(v, j) || v.Names.IntentName(v.Intent[j]) == schema.IntentEdit {
			continue
		}
		return v.Flags[j]&flagError != 0
	}
	return false
}
