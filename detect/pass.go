package detect

import (
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// analysis is what the indicator pass derives for one run, shared by the
// detectors so each reads columns instead of re-deriving them.
type analysis struct {
	ind Indicators
	// progress marks steps with a progress event (docs/indicators.md).
	progress []bool
	// lastingBefore[i] counts the steps before step i whose progress lasted:
	// a progress event that is not the first instance of a call repeated
	// with the same answer within Window calls (the first lap of a cycle
	// looks new, and is not). Whether anything lasting happened between two
	// steps is a subtraction.
	lastingBefore []int32
	nextSame      map[uint64][2]int // scratch of lastingPass: identity -> (step index, call ordinal)
	// comesBack marks the calls made again within the window with the same
	// answer (lastingPass): the first lap of a cycle, whatever it brought.
	comesBack []bool
	// calls lists the indices of steps that made a tool call, in order.
	calls []int
	// newInstall marks the answered calls with an install intent that no
	// call before them in the run had (installPass); anyInstall says one is
	// marked. installed marks the first call of each install intent that
	// worked: a progress event. installsSeen, installsWorked and
	// notInstalls are installPass's scratch.
	newInstall     []bool
	anyInstall     bool
	installed      []bool
	installsSeen   []int32
	installsWorked []int32
	notInstalls    []int32
	// newEdit marks the edits that worked (schema.IntentEdit) with a call
	// no edit before them in the run made (editPass): a change, where the
	// same edit made again is edits going in circles. anyEdit says one is
	// marked; editsSeen is editPass's scratch.
	newEdit   []bool
	anyEdit   bool
	editsSeen map[uint64]bool
	// otherCopyEdit is, for a failure raised in a copy of a file, the last
	// edit of another copy of it before, none of the copy that failed
	// (copyEditPass); -1 otherwise. lastCopyEdit and copyEdited are its
	// scratch.
	otherCopyEdit []int32
	lastCopyEdit  map[copyKey]int32
	copyEdited    map[copyKey]bool
	// rowFlags is the union of the run's row flags (an estimated cost).
	rowFlags uint16
	// budgetCross is the index of the first step past a budget limit, -1 if none.
	budgetCross int
	// budgetWorst is the largest usage/limit ratio over the limits in force.
	budgetWorst float64
	// budgetWhat names the limit crossed first ("max_steps 20").
	budgetWhat string

	lastOf  map[uint64]int   // sameCall identity -> index of its last call with a result, -1 if none had one
	norms   map[uint64]int64 // (tool, normalised args) -> calls
	answers map[uint64]bool  // (tool, result) pairs seen, for results with a payload
	// simAnswers holds, per tool, the SimHashes of its last text answers,
	// so an answer near-identical to one given before is not new.
	simAnswers map[int32][]uint64
	simBits    int
	counts     map[uint64]int64
	winCnt     map[uint64]int64

	// longestChain's chains and each key's open one (an index into chains),
	// kept from run to run so a run's calls allocate no chains.
	chains  []callChain
	chainOf map[uint64]int32
	// editedFiles and writtenFiles are filesWrittenWhole's scratch: the
	// files edited so far, and of those the ones written whole.
	editedFiles  []uint32
	writtenFiles []uint32
	// actedScratch is sameErrorActedBetween's scratch.
	actedScratch []int
	// goalStorm and inGoalStorm are goalStorms' scratch.
	goalStorm   []int
	inGoalStorm []bool
	// restated is runRestatedTurn's scratch: per step index of a turn that
	// first made a point, the turns that made it again.
	restated []chain
	// restatedBack is its scratch too: per such turn, the step index of
	// its point's first return.
	restatedBack []int
}

func newAnalysis() *analysis {
	return &analysis{
		lastOf:     map[uint64]int{},
		norms:      map[uint64]int64{},
		answers:    map[uint64]bool{},
		simAnswers: map[int32][]uint64{},
		counts:     map[uint64]int64{},
		winCnt:     map[uint64]int64{},
		chainOf:    map[uint64]int32{},
	}
}

// indicatorPass computes every indicator of v in a few linear passes over
// its columns.
func indicatorPass(v *Run, p *Policy, a *analysis) {
	n := v.Len()
	clear(a.lastOf)
	clear(a.norms)
	clear(a.answers)
	for t, s := range a.simAnswers {
		a.simAnswers[t] = s[:0]
	}
	a.simBits = p.simBits()
	a.rowFlags = 0
	clear(a.counts)
	clear(a.winCnt)
	a.progress = resize(a.progress, n)
	a.calls = a.calls[:0]
	installPass(v, a)
	a.budgetCross, a.budgetWorst, a.budgetWhat = -1, 0, ""
	ind := Indicators{Steps: int64(n), DurationMS: -1, ToolErrorsByType: map[string]int64{}}

	// Calls, errors, results, progress.
	var errStreak, noProg int64
	var lastCall uint64
	var streak int64
	for i := 0; i < n; i++ {
		f := v.Flags[i]
		prog := v.NewArtifact[i] || f&flagMemProgress != 0 || v.State[i] == schema.StateStop
		if f&flagCall != 0 {
			k := v.call[i]
			a.calls = append(a.calls, i)
			ind.ToolCalls++
			a.counts[k]++
			ind.SameCallMax = max(ind.SameCallMax, a.counts[k])
			if k == lastCall {
				streak++
			} else {
				streak = 1
			}
			lastCall = k
			ind.SameCallMaxStreak = max(ind.SameCallMaxStreak, streak)
			if v.Norm[i] != 0 {
				nk := callIdentity(v.Tool[i], uint64(v.Norm[i]))
				a.norms[nk]++
				ind.SameNormArgsMax = max(ind.SameNormArgsMax, a.norms[nk])
			}
			sk := v.sameCall(i)
			prev, seenBefore := a.lastOf[sk]
			okData := f&flagResult != 0 && f&(flagError|flagEmpty) == 0
			if okData && f&flagSeen == 0 && (!seenBefore || prev < 0 || !v.sameAnswer(prev, i, a.simBits)) {
				// New information: a first call, or the same call answering
				// differently; and, when the result shows what it returned,
				// an answer this tool has not given before in the run (a call
				// whose args differ only by a trace id learns nothing).
				if f&flagPayload == 0 || !a.answeredBefore(v, i) {
					prog = true
				}
			}
			if v.Intent[i] != 0 && v.Names.IntentName(v.Intent[i]) == schema.IntentRestart {
				// A tool restarted tells nothing of the task.
				prog = false
			}
			if a.installed[i] {
				// A package installed that nothing before installed changes
				// what runs next, whatever its output says: an install
				// printing only a warning line is not the same answer as
				// the install before it.
				prog = true
			}
			if okData && f&flagPayload != 0 {
				a.rememberAnswer(v, i)
			}
			if f&flagResult != 0 {
				a.lastOf[sk] = i
				if f&flagError != 0 {
					ind.ToolErrors++
					ind.ToolErrorsByType[v.Names.ErrTypeName(v.ErrType[i])]++
					errStreak++
					ind.MaxErrorStreak = max(ind.MaxErrorStreak, errStreak)
				} else {
					errStreak = 0
				}
				if f&flagEmpty != 0 {
					ind.EmptyResults++
				}
			} else if !seenBefore {
				a.lastOf[sk] = -1
			}
		}
		a.progress[i] = prog
		if prog {
			ind.ProgressEvents++
			noProg = 0
		} else {
			noProg++
			ind.NoProgressSteps = max(ind.NoProgressSteps, noProg)
		}
		ind.CostUSD += v.Cost[i]
		a.rowFlags |= v.Flags[i]
	}
	ind.CostUSD = roundCost(ind.CostUSD)
	ind.DistinctCalls = int64(len(a.counts))
	ind.SameCallMaxWindow = maxInWindow(v, a, p.Window)
	lastingPass(v, a, p.Window, max(ind.SameCallMax, ind.SameNormArgsMax) >= 2)
	editPass(v, a)
	statePass(v, a, &ind)
	ind.MaxRepeatedDecision = int64(repeatedDecisions(v).n)
	usagePass(v, &ind)
	budgetPass(v, p, a, &ind)
	if n > 0 {
		ind.EndedWithStop = v.State[n-1] == schema.StateStop
	}
	a.ind = ind
}

// installPass fills newInstall: the answered calls with an install intent
// (schema.IsInstall; the adapters name what is installed, so another
// package is another intent) that no call before them in the run had.
// Installing the same thing again changes nothing. It fills installed
// too: of each install intent, the first call that worked. Each intent is
// named once (notInstalls).
func installPass(v *Run, a *analysis) {
	n := v.Len()
	a.newInstall = resize(a.newInstall, n)
	clear(a.newInstall)
	a.installed = resize(a.installed, n)
	clear(a.installed)
	a.anyInstall = false
	a.installsSeen, a.installsWorked, a.notInstalls = a.installsSeen[:0], a.installsWorked[:0], a.notInstalls[:0]
	for i := 0; i < n; i++ {
		in := v.Intent[i]
		if in == 0 || v.Flags[i]&(flagCall|flagResult) != flagCall|flagResult || slices.Contains(a.notInstalls, in) {
			continue
		}
		if !slices.Contains(a.installsSeen, in) {
			if !schema.IsInstall(v.Names.IntentName(in)) {
				a.notInstalls = append(a.notInstalls, in)
				continue
			}
			a.newInstall[i], a.anyInstall = true, true
			a.installsSeen = append(a.installsSeen, in)
		}
		if v.Flags[i]&flagError == 0 && !slices.Contains(a.installsWorked, in) {
			a.installed[i] = true
			a.installsWorked = append(a.installsWorked, in)
		}
	}
}

// editPass fills newEdit: the edits that worked whose call (tool and
// normalised args, Run.sameCall) no edit before them in the run made.
func editPass(v *Run, a *analysis) {
	a.newEdit = resize(a.newEdit, v.Len())
	clear(a.newEdit)
	if a.editsSeen == nil {
		a.editsSeen = map[uint64]bool{}
	}
	clear(a.editsSeen)
	a.anyEdit = false
	for _, i := range a.calls {
		if v.Flags[i]&(flagResult|flagError) != flagResult || v.Names.IntentName(v.Intent[i]) != schema.IntentEdit {
			continue
		}
		if k := v.sameCall(i); !a.editsSeen[k] {
			a.newEdit[i], a.editsSeen[k], a.anyEdit = true, true, true
		}
	}
}

// changedAnew reports whether step i is an edit that applied and changed
// the code anew: a call no edit before it made (newEdit), whose answer does
// not only repeat lines shown before (tool_result.seen), and that is not
// made again with the same answer within the window (the first lap of
// edits going in circles). It is a change that worked even when it brought
// no progress by its answer: an editor that shows the file around each
// edit (SWE-agent's window of numbered lines) answers two edits of one
// region nearly alike, and the tool's answer counts as given before.
func (a *analysis) changedAnew(v *Run, i int) bool {
	return a.newEdit[i] && v.Flags[i]&flagSeen == 0 && !a.comesBack[i]
}

// lastingPass fills lastingBefore and comesBack: it walks the calls
// backwards, remembering the next call of each identity and its call
// ordinal. repeats says some call was made twice; without one, every
// progress event lasts and no call comes back.
func lastingPass(v *Run, a *analysis, window int, repeats bool) {
	n := v.Len()
	a.lastingBefore = resize(a.lastingBefore, n+1)
	a.comesBack = resize(a.comesBack, n)
	clear(a.comesBack)
	if a.nextSame == nil {
		a.nextSame = map[uint64][2]int{}
	}
	clear(a.nextSame)
	if !repeats {
		// No call was made twice: every progress event lasts.
		a.lastingBefore[0] = 0
		for i := 0; i < n; i++ {
			a.lastingBefore[i+1] = a.lastingBefore[i]
			if a.progress[i] {
				a.lastingBefore[i+1]++
			}
		}
		return
	}
	ord := len(a.calls)
	a.lastingBefore[n] = 0 // filled forwards below; this walk marks lasting steps by count
	lasting := 0
	for i := n - 1; i >= 0; i-- {
		last := a.progress[i]
		if v.Flags[i]&flagCall != 0 {
			ord--
			k := v.sameCall(i)
			if next, ok := a.nextSame[k]; ok && next[1]-ord <= window && v.sameAnswer(i, next[0], a.simBits) {
				last, a.comesBack[i] = false, true
			}
			a.nextSame[k] = [2]int{i, ord}
		}
		if last {
			lasting++
		}
		a.lastingBefore[i] = int32(lasting) // for now: lasting steps at i or after
	}
	// Turn "at or after" counts into "before" counts.
	for i := 0; i <= n; i++ {
		a.lastingBefore[i] = int32(lasting) - a.lastingBefore[i]
	}
}

// lasting reports whether step i made progress that lasted.
func (a *analysis) lasting(i int) bool { return a.lastingBefore[i+1] > a.lastingBefore[i] }

// progressedBetween reports whether a step strictly between steps i and j
// (i < j) made progress that lasted.
func (a *analysis) progressedBetween(i, j int) bool {
	return j > i+1 && a.lastingBefore[j]-a.lastingBefore[i+1] > 0
}

// learnedBetween reports whether the agent learned something between steps
// i and j (i < j): more than maxStormPause steps whose progress lasted. A
// file read between two empty searches is a pause; two are work.
func (a *analysis) learnedBetween(i, j int) bool {
	return j > i+1 && int(a.lastingBefore[j]-a.lastingBefore[i+1]) > maxStormPause
}

// maxToolAnswers is how many text answers of one tool answeredBefore
// compares with: the most recent ones, which a loop repeats.
const maxToolAnswers = 64

// answeredBefore reports whether the tool of call i gave this answer
// before in the run: an equal fingerprint, or a near-identical text.
func (a *analysis) answeredBefore(v *Run, i int) bool {
	if a.answers[uint64(uint32(v.Tool[i]))<<32|uint64(v.Result[i])] {
		return true
	}
	if v.Sim[i] == 0 {
		return false
	}
	for _, s := range a.simAnswers[v.Tool[i]] {
		if schema.SimHashSimilar(s, v.Sim[i], a.simBits) {
			return true
		}
	}
	return false
}

func (a *analysis) rememberAnswer(v *Run, i int) {
	a.answers[uint64(uint32(v.Tool[i]))<<32|uint64(v.Result[i])] = true
	if v.Sim[i] == 0 {
		return
	}
	s := a.simAnswers[v.Tool[i]]
	if len(s) == maxToolAnswers {
		copy(s, s[1:])
		s = s[:len(s)-1]
	}
	a.simAnswers[v.Tool[i]] = append(s, v.Sim[i])
}

// maxInWindow is the most calls of one key among any Window consecutive calls.
func maxInWindow(v *Run, a *analysis, window int) int64 {
	clear(a.winCnt)
	var best int64
	for j, i := range a.calls {
		k := v.call[i]
		a.winCnt[k]++
		best = max(best, a.winCnt[k])
		if j >= window-1 {
			old := v.call[a.calls[j-window+1]]
			a.winCnt[old]--
		}
	}
	return best
}

// statePass counts X->Y->X returns between consecutive logged states and the
// PLAN<->ACT round trips: a PLAN that follows an ACT since the previous PLAN.
func statePass(v *Run, a *analysis, ind *Indicators) {
	var prev2, prev1 schema.State
	actSincePlan, progSincePlan, strongSincePlan, inPlan := false, false, false, false
	plans := map[uint32]bool{}
	for i := 0; i < v.Len(); i++ {
		s := v.State[i]
		if s == schema.StateNone {
			continue
		}
		if prev2 != schema.StateNone && s == prev2 && s != prev1 {
			ind.StateOscillation++
		}
		prev2, prev1 = prev1, s
		if s == schema.StatePlan {
			if !inPlan {
				ind.Plans++
				repeated := v.Plan[i] != 0 && plans[v.Plan[i]]
				if repeated {
					ind.PlansRepeated++
				}
				plans[v.Plan[i]] = true
				if ind.Plans > 1 && actSincePlan {
					ind.PlanActRoundTrips++
					if unproductiveRoundTrip(progSincePlan, strongSincePlan, repeated) {
						ind.UnproductivePlanRoundTrip++
					}
				}
				actSincePlan, progSincePlan, strongSincePlan = false, false, false
			}
			inPlan = true
		} else {
			inPlan = false
		}
		if s == schema.StateAct {
			actSincePlan = true
		}
		if a.progress[i] {
			progSincePlan = true
			strongSincePlan = strongSincePlan || strongProgress(v, i)
		}
	}
}

// strongProgress: step i produced something that lasts (a new artifact,
// memory written as an observation or decision, STOP), not only a call
// result.
func strongProgress(v *Run, i int) bool {
	return v.NewArtifact[i] || v.Flags[i]&flagMemProgress != 0 || v.State[i] == schema.StateStop
}

// unproductiveRoundTrip: a PLAN<->ACT round trip learned nothing when
// nothing progressed since the previous PLAN, or when the agent made a plan
// it had made before and only call results came in since: re-making the
// same plan shows it did not use them.
func unproductiveRoundTrip(progress, strongProgress, repeatedPlan bool) bool {
	return !progress || (repeatedPlan && !strongProgress)
}

func usagePass(v *Run, ind *Indicators) {
	first, last := NoTS, NoTS
	for i := 0; i < v.Len(); i++ {
		ind.Tokens += v.Tokens[i]
		if v.TS[i] != NoTS {
			if first == NoTS || v.TS[i] < first {
				first = v.TS[i]
			}
			if last == NoTS || v.TS[i] > last {
				last = v.TS[i]
			}
		}
	}
	if first != NoTS {
		ind.DurationMS = last - first
	}
}
