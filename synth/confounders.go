package synth

import (
	"fmt"
	"strconv"
)

// Healthy behaviours that a naive loop detector mistakes for a loop. Each is
// what a well-behaved agent does (guide E names pagination as the reason
// dedup needs a window; guide B prescribes backoff on RATE_LIMIT and
// "PLAN at most once or twice").

// paginate lists a resource page by page: the same tool 3-8 times with the
// page, offset or cursor advancing; results non-empty until the last page,
// which may be empty.
func (r *run) paginate() {
	ls := r.sc.list
	subject := r.subject()
	if ls.value != "" {
		subject = r.fill(ls.value, subject, "")
	}
	intent := "list " + ls.resource + " for " + subject
	pages := int(r.between(3, 8))
	emptyLast := r.chance(0.35)
	limit := int64(ls.limit)
	cursor := ""
	total := int64(0)
	for p := 0; p < pages; p++ {
		o := object().str("resource", ls.resource).str(ls.filter, subject)
		switch ls.style {
		case pageByCursor:
			if p > 0 {
				o = o.str("cursor", cursor)
			}
			o = o.int("limit", limit)
		case pageByNumber:
			o = o.int("page", int64(p+1)).int("per_page", limit)
		default:
			o = o.int("offset", int64(p)*limit).int("limit", limit)
		}
		last := p == pages-1
		count := limit
		if last {
			count = r.between(1, limit-1)
			if emptyLast {
				count = 0
			}
		}
		total += count
		cursor = r.hex(12)
		more := object()
		switch {
		case ls.style == pageByCursor && !last:
			more = more.str("next_cursor", cursor)
		case ls.style == pageByCursor:
			more = more.raw("next_cursor", []byte("null"))
		default:
			more = more.bool("has_more", !last)
		}
		res := object().bool("ok", true).int("result_count", count).raw("items", r.itemIDs(ls.resource, count)).
			raw("data", more.close()).close()
		c := call{intent: intent, tool: "list_items", args: o.close(), subject: subject, aspect: ls.resource}
		i := r.act(c, res, r.thinkMS(stateAct)/2+r.between(150, 900))
		if p == 0 || last {
			r.observe(i)
		}
		if !last && r.chance(0.2) {
			r.eval(fmt.Sprintf("Page %d of %s has more results; continue", p+1, ls.resource))
		}
	}
	e := r.eval(fmt.Sprintf("Collected %d %s for %s", total, ls.resource, subject))
	r.remember(e, "decision", "model", 0.85)
	if r.chance(0.4) {
		r.artifact(e, "list")
	}
}

func (r *run) itemIDs(resource string, count int64) []byte {
	if count == 0 {
		return []byte("[]")
	}
	prefix := resource[:3] + "_"
	ids := []string{prefix + r.hex(6)}
	if count > 1 {
		ids = append(ids, prefix+r.hex(6))
	}
	return appendStrings(nil, ids)
}

// poll starts an asynchronous job and polls its status: the same call 2-4
// times with the identical "pending" answer and doubling waits, then "done",
// then the output is read.
func (r *run) poll() {
	js := r.sc.job
	start := r.kvCall(js.tool, js.intent, js.args)
	jobID := "job-" + r.hex(8)
	i := r.act(start, object().bool("ok", true).int("status", 202).
		raw("data", object().str("job_id", jobID).str("state", "queued").close()).close(), 0)
	r.observe(i)
	if r.chance(0.5) {
		r.eval("Job " + jobID + " queued; poll until done")
	}
	status := call{intent: "wait for " + js.tool + " " + jobID, tool: "job_status",
		args: object().str("job_id", jobID).close(), subject: jobID}
	state := pick(r, []string{"pending", "running"})
	pending := object().bool("ok", true).int("status", 200).
		raw("data", object().str("job_id", jobID).str("state", state).close()).close()
	polls := int(r.between(2, 4))
	base := r.between(1000, 3000)
	withEval := r.chance(0.3)
	for k := 0; k < polls; k++ {
		wait := base<<k + r.between(0, 250)
		if withEval {
			r.act(status, pending, r.latencyMS("job_status"))
			// A short EVAL that decides to wait: the wait, not the
			// thinking, sets the gap, so the gaps double.
			r.push(step{state: stateEval, reason: fmt.Sprintf("Job %s still %s; wait %ds", jobID, state, (wait+500)/1000),
				durMS: r.between(500, 900) + wait, retrieved: r.recall()})
		} else {
			r.act(status, pending, r.latencyMS("job_status")+wait)
		}
	}
	done := object().bool("ok", true).int("status", 200).
		raw("data", object().str("job_id", jobID).str("state", "done").str("output", r.fill(js.fetch, "", "")).close()).close()
	r.observe(r.act(status, done, 0))
	out := call{intent: "read the output of " + jobID, tool: "read_file",
		args: object().str("path", r.fill(js.fetch, "", "")).close(), subject: r.subjects[0], aspect: pick(r, r.sc.aspects)}
	res := r.okResult(out)
	r.observe(r.act(out, res, 0))
	r.made = append(r.made, madeCall{out, res})
	r.eval(r.progressReason(out))
}

// transientRetry is a call that fails with RATE_LIMIT or TIMEOUT once or
// twice and succeeds after a growing backoff (guide B).
func (r *run) transientRetry() {
	c := r.fresh()
	kind := errRateLimit
	if r.chance(0.4) {
		kind = errTimeout
	}
	fails := 1
	if r.chance(0.35) {
		fails = 2
	}
	base := r.between(1000, 2500)
	withRecover := r.chance(0.6)
	// A 429 comes back at once; a timeout after the client's fixed
	// timeout. The backoff, doubling, dominates the gap between attempts.
	failMS := r.between(60, 300)
	if kind == errTimeout {
		failMS = pick(r, []int64{10_000, 15_000, 30_000})
	}
	for k := 0; k < fails; k++ {
		dur := failMS + r.between(0, 100)
		backoff := base<<k + r.between(0, 200)
		res := r.errResult(c, kind)
		if !withRecover {
			r.act(c, res, dur+r.between(300, 700)+backoff)
			continue
		}
		i := r.act(c, res, dur)
		if r.chance(0.6) {
			r.pinned, r.pinnedLeft = r.remember(i, "tool_error", "tool:"+c.tool, 0.9), 1
		}
		r.push(step{state: stateRecover, durMS: r.between(300, 700) + backoff, retrieved: r.recall(),
			reason: fmt.Sprintf("%s from %s: back off %.1fs and retry (attempt %d of 3)",
				errName(kind), c.tool, float64(backoff)/1000, k+2)})
	}
	res := r.okResult(c)
	r.observe(r.act(c, res, 0))
	r.made = append(r.made, madeCall{c, res})
	r.eval(r.progressReason(c))
}

func errName(kind int) string {
	switch kind {
	case errRateLimit:
		return "RATE_LIMIT"
	case errTimeout:
		return "TIMEOUT"
	case errSchema:
		return "SCHEMA_ERROR"
	case errNotFound:
		return "NOT_FOUND"
	case errForbidden:
		return "PERMISSION_DENIED"
	default:
		return "5xx"
	}
}

// rephraseUntilFound is a search that comes back empty once or twice and
// finds something after rephrasing: within guide A's "two empties per
// intent" rule.
func (r *run) rephraseUntilFound() {
	subject, aspect := r.subject(), pick(r, r.sc.aspects)
	tool := r.searchTool()
	intent := "find " + aspect + " for " + subject
	empties := 1
	if r.chance(0.25) {
		empties = 2
	}
	qs := r.rephrasings(subject, aspect, empties+1)
	for k := 0; k < empties; k++ {
		c := r.searchCall(tool, intent, qs[k], subject, aspect)
		r.act(c, r.emptyResult(c), 0)
		if r.chance(0.6) {
			r.eval(fmt.Sprintf("No results for %q; broaden the query", qs[k]))
		}
	}
	c := r.searchCall(tool, intent, qs[empties], subject, aspect)
	res := r.okResult(c)
	r.observe(r.act(c, res, 0))
	r.made = append(r.made, madeCall{c, res})
	r.eval(r.progressReason(c))
}

func (r *run) searchTool() string {
	for _, t := range r.sc.tools {
		if t.tool == "web_search" && r.chance(0.7) {
			return "web_search"
		}
	}
	if r.chance(0.5) {
		return "search_docs"
	}
	return "web_search"
}

// hypothesis writes an inference to memory and consults it for the next few
// steps while work goes on: a guess that is used, not a contaminating one.
func (r *run) hypothesis() {
	c := r.fresh()
	claim := r.fill(pick(r, hypotheses), c.subject, c.aspect)
	e := r.eval("Hypothesis: " + claim + "; verify next")
	id := r.remember(e, "inference", "model", float64(r.between(50, 70))/100)
	r.pinned, r.pinnedLeft = id, int(r.between(2, 4))
	res := r.okResult(c)
	r.observe(r.act(c, res, 0))
	r.made = append(r.made, madeCall{c, res})
	e = r.eval("Hypothesis checked against " + c.tool + " result")
	r.remember(e, "decision", "model", 0.8)
}

var hypotheses = []string{
	"%[7]s of %[6]s probably explains the difference",
	"%[6]s likely changed %[7]s recently",
	"%[7]s may matter more than expected for %[6]s",
}

// replanAfterFailure is a legitimate re-plan: an approach fails (permission,
// not found, a query the schema rejects, or nothing found), the agent
// re-plans once, and work goes on.
func (r *run) replanAfterFailure() {
	c := r.fresh()
	var res []byte
	var what string
	switch c.tool {
	case "db_query":
		res, what = r.errResult(c, errSchema), "query rejected"
	case "http_get", "fetch_url", "read_file":
		kind := errNotFound
		if r.chance(0.4) {
			kind = errForbidden
		}
		res, what = r.errResult(c, kind), errName(kind)
	default:
		res, what = r.emptyResult(c), "no results"
	}
	i := r.act(c, res, 0)
	if r.chance(0.4) && what != "no results" {
		r.remember(i, "tool_error", "tool:"+c.tool, 0.9)
	}
	r.eval(fmt.Sprintf("%s for %s: %s; change approach", c.tool, c.subject, what))
	r.plan(r.planReason("without " + c.tool + " " + strconv.Quote(c.aspect)))
}
