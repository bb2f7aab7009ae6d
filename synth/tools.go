package synth

import (
	"strconv"
	"strings"
)

// Tool calls and what tools return. Arguments and results follow the shapes
// the guides show (guide A's {found, items, confidence, retryable, reason},
// guide B's {ok, error_type, status}, guide D's {ok, retryable, reason,
// data}); the data are short snippets, as loggers truncate them.

// fresh returns a call the run has not made yet, on one of its subjects.
func (r *run) fresh() call { return r.freshAbout("") }

// freshAbout is fresh about one subject ("" for any).
func (r *run) freshAbout(subject string) call {
	var c call
	for try := 0; try < 32; try++ {
		s := subject
		if s == "" {
			s = r.subject()
		}
		c = r.newCall(r.pickTool(), s, pick(r, r.sc.aspects))
		if !r.seen[c.key()] {
			break
		}
	}
	r.seen[c.key()] = true // reserved: fresh never hands it out twice
	return c
}

// subject picks what a call is about.
func (r *run) subject() string {
	if f := r.sc.focus; f > 0 {
		return pick(r, r.subjects[:f])
	}
	return pick(r, r.subjects)
}

func (r *run) pickTool() string {
	total := 0
	for _, t := range r.sc.tools {
		total += t.w
	}
	n := r.rng.IntN(total)
	for _, t := range r.sc.tools {
		if n < t.w {
			return t.tool
		}
		n -= t.w
	}
	return r.sc.tools[0].tool
}

var searchSuffixes = []string{"", "", "", " 2026", " docs", " comparison", " best practices", " issue", " explained"}

// newCall builds a call of tool about subject and aspect.
func (r *run) newCall(tool, subject, aspect string) call {
	sc := r.sc
	c := call{tool: tool, subject: subject, aspect: aspect}
	switch tool {
	case "web_search":
		q := subject + " " + aspect + pick(r, searchSuffixes)
		return r.searchCall(tool, "research "+aspect+" of "+subject, q, subject, aspect)
	case "search_docs":
		return r.searchCall(tool, "find internal notes on "+aspect+" for "+subject, aspect+" "+subject, subject, aspect)
	case "fetch_url":
		c.intent = "read " + aspect + " page for " + subject
		c.args = object().str("url", r.fill(pick(r, r.sites()), subject, aspect)).close()
	case "db_query":
		w := r.window()
		c.intent = "query " + aspect + " for " + subject
		params := appendStrings(nil, []string{subject, w[0], w[1]})
		c.args = object().str("sql", pick(r, sc.queries)).raw("params", params).close()
	case "read_file":
		path := r.fill(pick(r, sc.files), subject, aspect)
		c.intent = "check " + aspect + " in " + path
		c.args = object().str("path", path).close()
	case "http_get":
		c.intent = "get " + aspect + " for " + subject
		o := object().str("endpoint", r.fill(pick(r, sc.apis), subject, aspect))
		if r.chance(0.3) {
			o = o.raw("params", object().str("expand", pick(r, []string{"events", "items", "history", "links"})).close())
		}
		c.args = o.close()
	case "search_logs":
		w := r.window()
		c.intent = "pull " + aspect + " logs for " + subject
		c.args = object().str("service", subject).str("query", r.fill(pick(r, sc.logQuery), subject, aspect)).
			str("from", w[0]).str("to", w[1]).int("limit", 200).close()
	case "search_code":
		c.intent = "locate " + aspect + " in code"
		o := object().str("repo", r.repo()).str("query", pick(r, []string{subject, aspect, subject + " " + aspect}))
		if r.sc.codePath != "" {
			o = o.str("path", r.fill(r.sc.codePath, subject, aspect))
		}
		c.args = o.close()
	case "run_tests":
		c.intent = "run " + r.subjects[0]
		c.args = object().str("pkg", "./"+r.subjects[len(r.subjects)-1]+"/...").str("run", r.subjects[0]).
			int("count", pick(r, []int64{1, 1, 5, 20})).close()
	default:
		c.intent = "use " + tool + " for " + subject
		c.args = object().str("subject", subject).str("aspect", aspect).close()
	}
	return c
}

// searchCall is a search for q with one of the search tools.
func (r *run) searchCall(tool, intent, q, subject, aspect string) call {
	c := call{tool: tool, intent: intent, subject: subject, aspect: aspect}
	switch tool {
	case "search_docs":
		c.args = object().str("query", q).str("index", r.kbIndex()).int("k", 5).close()
	case "db_query":
		c.args = object().str("sql", "SELECT id, title FROM documents WHERE title ILIKE $1 ORDER BY updated_at DESC LIMIT 20").
			raw("params", appendStrings(nil, []string{"%" + q + "%"})).close()
	default:
		c.tool = "web_search"
		c.args = object().str("q", q).int("top_k", int64(5+5*(len(q)%2))).close()
	}
	return c
}

func (r *run) sites() []string {
	if len(r.sc.sites) > 0 {
		return r.sc.sites
	}
	return []string{"https://docs.example.com/%[1]s/%[2]s", "https://stackoverflow.com/questions/7%[9]d/%[2]s"}
}

func (r *run) kbIndex() string {
	if r.sc.kbIndex != "" {
		return r.sc.kbIndex
	}
	return "eng-wiki"
}

func (r *run) window() [2]string {
	if len(r.sc.windows) > 0 {
		return pick(r, r.sc.windows)
	}
	return [2]string{"2026-11-01", "2026-11-29"}
}

func (r *run) repo() string {
	for _, s := range r.subjects {
		if strings.HasPrefix(s, "acme/") {
			return s
		}
	}
	return "acme/monorepo"
}

// kvCall builds a call from key/value template pairs (jobs, deliverables).
func (r *run) kvCall(tool, intent string, kv []string) call {
	o := object()
	for i := 0; i+1 < len(kv); i += 2 {
		o = o.str(kv[i], r.fill(kv[i+1], r.subjects[0], ""))
	}
	return call{tool: tool, intent: intent, args: o.close(), subject: r.subjects[0]}
}

func (r *run) fact(c call) string { return r.fill(pick(r, r.sc.facts), c.subject, c.aspect) }

var siteNames = []string{"Docs", "Blog", "Hacker News", "Stack Overflow", "GitHub", "G2", "Reddit", "Medium"}

// okResult is a successful, non-empty result for c.
func (r *run) okResult(c call) []byte {
	o := object().bool("ok", true)
	switch c.tool {
	case "web_search":
		n := r.between(3, 10)
		items := make([][]byte, 1+r.rng.IntN(2))
		for i := range items {
			items[i] = object().str("title", c.subject+" "+c.aspect+": "+pick(r, []string{"overview", "what changed", "FAQ", "deep dive", "notes"})+" | "+pick(r, siteNames)).
				str("url", r.fill(pick(r, r.sites()), c.subject, c.aspect)).close()
		}
		return o.int("status", 200).int("result_count", n).raw("items", array(items...)).close()
	case "search_docs":
		item := object().str("doc_id", "kb-"+strconv.FormatInt(r.between(1000, 9999), 10)).str("title", c.aspect+" - "+c.subject).close()
		return o.bool("found", true).int("result_count", r.between(1, 6)).raw("items", array(item)).
			num("confidence", float64(r.between(70, 95))/100, 2).close()
	case "db_query":
		rows := make([][]byte, 2)
		for i := range rows {
			rows[i] = appendFloat(append(appendString([]byte{'['}, c.subject), ','), float64(r.between(1000, 9_000_000))/100, 2)
			rows[i] = append(rows[i], ']')
		}
		return o.int("result_count", r.between(2, 40)).raw("items", array(rows...)).close()
	case "search_logs":
		item := object().str("ts", "2026-11-28T02:"+twoDigits(r.between(0, 59))+":"+twoDigits(r.between(0, 59))+"Z").
			str("level", "error").str("msg", pick(r, logMessages)).close()
		return o.int("result_count", r.between(12, 4000)).raw("items", array(item)).close()
	case "search_code":
		item := object().str("path", r.subjects[len(r.subjects)-1]+"/"+pick(r, []string{"round.go", "convert.go", "retry.go", "tax.go"})).
			int("line", r.between(10, 400)).close()
		return o.int("result_count", r.between(1, 12)).raw("items", array(item)).close()
	case "run_tests":
		return o.raw("data", object().int("passed", r.between(20, 300)).int("failed", 1).strs("failing", r.subjects[0]).close()).close()
	case "http_get":
		return o.int("status", 200).raw("data", object().str("id", c.subject).str("summary", r.fact(c)).close()).close()
	case "write_file":
		return o.int("status", 201).raw("data", object().str("path", argString(c.args, "path")).int("bytes", r.between(1800, 14000)).close()).close()
	case "create_pr", "send_reply":
		id := strconv.FormatInt(r.between(100, 9999), 10)
		return o.int("status", 201).raw("data", object().str("id", id).str("state", "open").close()).close()
	default: // fetch_url, read_file and the rest return text
		return o.int("status", 200).str("data", r.fact(c)).close()
	}
}

var logMessages = []string{
	"upstream connect error or disconnect/reset before headers",
	"pq: sorry, too many clients already",
	"context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
	"container killed: OOMKilled",
	"x509: certificate has expired or is not yet valid",
	"dial tcp 10.0.3.14:6379: i/o timeout",
	"retry attempt 5 of 5 failed: 503 Service Unavailable",
}

// emptyResult is a successful call that found nothing, in the shape each tool
// reports it.
func (r *run) emptyResult(c call) []byte {
	o := object().bool("ok", true)
	if r.emptyFlag {
		o = o.bool("empty", true)
	}
	switch c.tool {
	case "search_docs":
		// Guide A's structured "not found".
		return o.bool("found", false).raw("items", []byte("[]")).num("confidence", float64(r.between(10, 30))/100, 2).
			bool("retryable", false).str("reason", "Index has no documents matching the query").close()
	case "fetch_url", "read_file":
		return o.int("status", 200).str("data", "").close()
	case "http_get":
		return o.int("status", 200).raw("data", []byte("null")).close()
	default:
		return o.int("status", 200).int("result_count", 0).raw("items", []byte("[]")).close()
	}
}

// Error kinds a tool can fail with.
const (
	errRateLimit = iota
	errTimeout
	errUnavailable // 502/503, logged as UNKNOWN
	errSchema
	errNotFound
	errForbidden
)

func (r *run) errResult(c call, kind int) []byte {
	o := object().bool("ok", false)
	switch kind {
	case errRateLimit:
		return o.str("error_type", "RATE_LIMIT").int("status", 429).bool("retryable", true).
			str("reason", "rate limit exceeded, retry after "+strconv.FormatInt(r.between(1, 5), 10)+"s").close()
	case errTimeout:
		return o.str("error_type", "TIMEOUT").int("status", 504).bool("retryable", true).
			str("reason", "upstream request timed out").close()
	case errUnavailable:
		if r.chance(0.5) {
			return o.str("error_type", "UNKNOWN").int("status", 502).bool("retryable", true).str("reason", "502 Bad Gateway").close()
		}
		return o.str("error_type", "UNKNOWN").int("status", 503).bool("retryable", true).str("reason", "503 Service Unavailable").close()
	case errSchema:
		return o.str("error_type", "SCHEMA_ERROR").int("status", 400).bool("retryable", false).str("reason", schemaReason(c)).close()
	case errNotFound:
		return o.str("error_type", "NOT_FOUND").int("status", 404).bool("retryable", false).str("reason", "resource not found").close()
	default:
		return o.str("error_type", "PERMISSION_DENIED").int("status", 403).bool("retryable", false).
			str("reason", "token lacks the required scope").close()
	}
}

func schemaReason(c call) string {
	switch c.tool {
	case "db_query":
		return `column "amount" does not exist`
	case "web_search":
		return "invalid argument: top_k must be between 1 and 10"
	case "search_docs":
		return "invalid argument: index is required"
	case "http_get":
		return "invalid request: unknown query parameter"
	default:
		return "arguments do not match the tool schema"
	}
}

// argString reads a string argument back from JSON args built by obj.
func argString(args []byte, key string) string {
	k := `"` + key + `":"`
	i := strings.Index(string(args), k)
	if i < 0 {
		return ""
	}
	rest := string(args[i+len(k):])
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return ""
}

func twoDigits(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
