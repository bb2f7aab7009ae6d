package synth

import (
	"math/rand/v2"
	"strconv"
)

const (
	statePlan    = "PLAN"
	stateAct     = "ACT"
	stateEval    = "EVAL"
	stateRecover = "RECOVER"
	stateStop    = "STOP"
)

// step is one generated step, before it is encoded as a line.
type step struct {
	tsMS       int64
	durMS      int64 // time until the next step starts
	state      string
	intent     string
	tool       string
	args       []byte // JSON object as logged (volatile ids included)
	result     []byte // tool_result JSON object
	retrieved  []int
	written    []memWrite
	next       string // decision.next_state; filled from the following step
	reason     string
	artifacts  []string
	prompt     int64
	completion int64
}

// memWrite is one memory the step wrote.
type memWrite struct {
	id     int
	tag    string
	source string
	conf   float64
}

// call is a tool call before volatile ids are stamped on it. Two calls with
// the same tool and args are the same call.
type call struct {
	intent  string
	tool    string
	args    []byte
	subject string // what the call is about, for result text
	aspect  string
}

// key identifies the call: FNV-1a of tool and args. A fixed hash, not
// maphash, so that a collision (never seen at 64 bits) could not make the
// output depend on a random seed.
func (c call) key() uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(c.tool); i++ {
		h = (h ^ uint64(c.tool[i])) * 1099511628211
	}
	h = (h ^ 0xff) * 1099511628211
	for _, b := range c.args {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

// run is one run being generated: the steps so far and the agent's state.
type run struct {
	rng      *rand.Rand
	index    int
	id       string
	sc       *scenario
	goal     string
	subjects []string
	tag      string // goal-specific name used in file paths (incident id, repo, ...)

	nowMS int64
	steps []step

	memTags    []string // memTags[id-1] is the tag memory id was written with
	planMem    int      // the latest plan memory, retrieved while acting on it
	recent     []int    // latest observation and decision memories
	pinned     int      // a memory retrieved at every step while pinnedLeft > 0
	pinnedLeft int
	artifactN  int
	seen       map[uint64]bool   // keys of the calls made so far
	hashes     map[string]string // args_hash by args, computed once per run
	made       []madeCall        // productive calls made so far, with their results

	// How the agent framework that wrote the run logs things.
	hashArgs    bool   // log args_hash
	entries     bool   // log memory entries with type, source, confidence
	actReasons  bool   // log a reason on ACT steps too, not only next_state
	emptyFlag   bool   // tools that report "empty": true on empty results
	volatileKey string // stamp this changing id on every call's args ("" = none)
	budgetOn    bool   // log a budget on every line
	model       model
	sysTokens   int64
	ctxTokens   int64

	budget budget
	// killedNext is decision.next_state of the last step of a run that was
	// killed mid-loop (it has no STOP).
	killedNext string

	label       Label
	confounders []string
}

type madeCall struct {
	c   call
	res []byte
}

func (r *run) between(lo, hi int64) int64 { return lo + r.rng.Int64N(hi-lo+1) }

func (r *run) chance(p float64) bool { return r.rng.Float64() < p }

func pick[T any](r *run, xs []T) T { return xs[r.rng.IntN(len(xs))] }

// push appends s at the run's clock and returns its index. The step's
// prompt is the system prompt plus the context so far; the context then
// grows by what the step added, trimmed to the model's window as agent
// frameworks do.
func (r *run) push(s step) int {
	s.tsMS = r.nowMS
	r.nowMS += s.durMS
	if s.completion == 0 {
		s.completion = r.completionTokens(s.state)
	}
	s.prompt = r.sysTokens + r.ctxTokens
	r.ctxTokens += r.contextGrowth(&s)
	if limit := r.model.contextWindow*7/10 - r.sysTokens; r.ctxTokens > limit {
		r.ctxTokens = limit - r.between(0, 4000)
	}
	r.steps = append(r.steps, s)
	return len(r.steps) - 1
}

// Step durations. LLM steps take seconds; tool calls add their latency.
func (r *run) thinkMS(state string) int64 {
	switch state {
	case statePlan:
		return r.between(2500, 8000)
	case stateEval:
		return r.between(1200, 5000)
	case stateRecover:
		return r.between(500, 2500)
	case stateStop:
		return r.between(500, 2000)
	default:
		return r.between(400, 2200)
	}
}

func (r *run) latencyMS(tool string) int64 {
	switch tool {
	case "web_search":
		return r.between(400, 1800)
	case "fetch_url":
		return r.between(300, 2500)
	case "db_query":
		return r.between(80, 3000)
	case "search_logs":
		return r.between(500, 4000)
	case "run_tests":
		return r.between(3000, 20000)
	case "read_file", "write_file":
		return r.between(20, 250)
	default:
		return r.between(100, 1200)
	}
}

// plan logs a PLAN step that writes the plan to memory.
func (r *run) plan(reason string) int {
	i := r.push(step{state: statePlan, reason: reason, durMS: r.thinkMS(statePlan), retrieved: r.recallForPlan()})
	r.planMem = r.remember(i, "plan", "model", 0.9)
	return i
}

// act logs an ACT step calling c with result res; dur 0 means the usual
// think time plus the tool's latency.
func (r *run) act(c call, res []byte, dur int64) int {
	if dur == 0 {
		dur = r.thinkMS(stateAct) + r.latencyMS(c.tool)
	}
	r.seen[c.key()] = true
	return r.push(step{
		state:  stateAct,
		intent: c.intent,
		tool:   c.tool,
		args:   r.stamp(c.args),
		result: res,
		reason: r.actReason(c),

		durMS:     dur,
		retrieved: r.recall(),
	})
}

func (r *run) eval(reason string) int {
	return r.push(step{state: stateEval, reason: reason, durMS: r.thinkMS(stateEval), retrieved: r.recall()})
}

// recoverStep logs a RECOVER step that waits waitMS before the next step.
func (r *run) recoverStep(reason string, waitMS int64) int {
	return r.push(step{state: stateRecover, reason: reason, durMS: r.thinkMS(stateRecover) + waitMS, retrieved: r.recall()})
}

func (r *run) stop(reason string) int {
	return r.push(step{state: stateStop, reason: reason, durMS: r.thinkMS(stateStop), retrieved: r.recall()})
}

// remember records that step i wrote a memory and returns its id.
func (r *run) remember(i int, tag, source string, conf float64) int {
	r.memTags = append(r.memTags, tag)
	id := len(r.memTags)
	s := &r.steps[i]
	s.written = append(s.written, memWrite{id: id, tag: tag, source: source, conf: conf})
	if tag == "observation" || tag == "decision" {
		r.recent = append(r.recent, id)
		if len(r.recent) > 6 {
			r.recent = r.recent[1:]
		}
	}
	return id
}

// observe records the result of the call at step i as an observation.
func (r *run) observe(i int) int {
	return r.remember(i, "observation", "tool:"+r.steps[i].tool, float64(r.between(80, 95))/100)
}

// artifact records a new artifact produced at step i.
func (r *run) artifact(i int, kind string) string {
	r.artifactN++
	id := "art-" + strconv.Itoa(r.artifactN) + "-" + kind
	r.steps[i].artifacts = append(r.steps[i].artifacts, id)
	return id
}

// recall is what a top-k memory lookup returns at a step: often the plan
// being followed, a pinned memory the agent keeps consulting, and one or two
// of the latest observations.
func (r *run) recall() []int {
	var ids []int
	if r.pinnedLeft > 0 {
		ids = append(ids, r.pinned)
		r.pinnedLeft--
	}
	if r.planMem > 0 && r.chance(0.6) {
		ids = append(ids, r.planMem)
	}
	k := r.rng.IntN(3)
	for i := len(r.recent) - 1; i >= 0 && k > 0; i-- {
		ids = append(ids, r.recent[i])
		k--
	}
	return ids
}

func (r *run) recallForPlan() []int {
	var ids []int
	if r.planMem > 0 {
		ids = append(ids, r.planMem)
	}
	if n := len(r.recent); n > 0 && r.chance(0.5) {
		ids = append(ids, r.recent[n-1])
	}
	return ids
}

// stamp adds the run's volatile id field, different at every call, as
// clients that tag each request do.
func (r *run) stamp(args []byte) []byte {
	if r.volatileKey == "" {
		return args
	}
	out := make([]byte, 0, len(args)+60)
	out = append(out, args[:len(args)-1]...)
	if len(args) > 2 {
		out = append(out, ',')
	}
	out = appendString(out, r.volatileKey)
	out = append(out, ':')
	switch r.volatileKey {
	case "timestamp":
		out = append(out, '"')
		out = appendTS(out, r.nowMS+r.between(5, 400))
		out = append(out, '"')
	case "trace_id":
		out = append(out, '"')
		out = r.appendHex(out, 32)
		out = append(out, '"')
	default:
		out = append(out, `"req_`...)
		out = r.appendHex(out, 16)
		out = append(out, '"')
	}
	return append(out, '}')
}

func (r *run) appendHex(b []byte, n int) []byte {
	const hexDigits = "0123456789abcdef"
	for ; n > 0; n -= 16 {
		v := r.rng.Uint64()
		for j := 0; j < 16 && j < n; j++ {
			b = append(b, hexDigits[v&0xf])
			v >>= 4
		}
	}
	return b
}

func (r *run) hex(n int) string { return string(r.appendHex(nil, n)) }
