package synth

import (
	"math/rand/v2"
	"strconv"
)

// generate fills r with run number index: healthy, or runaway with cause.
// r's slices and maps are reused from the previous run it held.
func (r *run) generate(rng *rand.Rand, index, idWidth int, startMS int64, runaway bool, cause string) {
	r.reset(rng, index)
	r.id = runID(index, idWidth, rng.Uint32()&0xffffff)
	r.sc = pick(r, scenarios)
	r.goal = r.sc.newGoal(r)
	// Runs start about every 2.6 s: with 16 open at once that is what a
	// busy agent service's log looks like.
	r.nowMS = startMS + int64(index)*2600 + r.between(0, 2599)
	r.hashArgs = r.chance(0.5)
	r.entries = r.chance(0.3)
	r.actReasons = r.chance(0.5)
	r.emptyFlag = r.chance(0.4)
	r.budgetOn = r.chance(0.3)
	r.model = pick(r, models)
	r.sysTokens = r.between(800, 3200)
	if runaway {
		r.runaway(cause)
	} else {
		r.healthy()
	}
	r.label.RunID = r.id
	r.chooseBudget()
	r.linkDecisions()
}

// reset clears r for the next run, keeping the capacity of its buffers.
func (r *run) reset(rng *rand.Rand, index int) {
	if r.seen == nil {
		r.seen = map[uint64]bool{}
		r.hashes = map[string]string{}
	}
	clear(r.seen)
	clear(r.hashes)
	*r = run{
		rng: rng, index: index, seen: r.seen, hashes: r.hashes,
		steps: r.steps[:0], memTags: r.memTags[:0], recent: r.recent[:0], made: r.made[:0],
	}
}

// runID is "run-<index>-<6 hex>". The index is zero-padded to a width fixed
// for the whole corpus, so ids sort in generation order and labels can be
// written as runs open.
func runID(index, width int, salt uint32) string {
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 0, 24)
	b = append(b, "run-"...)
	s := strconv.Itoa(index)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	b = append(b, s...)
	b = append(b, '-')
	for shift := 20; shift >= 0; shift -= 4 {
		b = append(b, hexDigits[(salt>>shift)&0xf])
	}
	return string(b)
}

// linkDecisions sets each step's decision.next_state to the state that
// actually followed. The last step of a finished run has none; a killed
// run's last step names the state the loop was about to enter.
func (r *run) linkDecisions() {
	for i := range r.steps {
		if i+1 < len(r.steps) {
			r.steps[i].next = r.steps[i+1].state
		}
	}
	if last := &r.steps[len(r.steps)-1]; last.state != stateStop {
		last.next = r.killedNext
	}
}
