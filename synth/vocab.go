package synth

import (
	"fmt"
	"strings"
)

// A scenario is a kind of task agents are given: its goal, the things the
// goal is about (subjects), the aspects the agent researches, the tools it
// uses and what they return. Runs draw their calls from one scenario, so a
// run's calls are about one topic, as a real agent's are.
//
// Templates take, by explicit index: %[1]s subject slug, %[2]s aspect slug,
// %[3]s..%[5]s the run's first three subjects, %[6]s subject, %[7]s aspect,
// %[8]d and %[9]d two numbers, %[10]s the run's tag.
type scenario struct {
	name     string
	newGoal  func(r *run) string // sets r.subjects and r.tag
	focus    int                 // calls are about the first focus subjects (0: all)
	codePath string              // search_code path template
	aspects  []string
	tools    []weighted // the tools fresh work uses
	sites    []string   // fetch_url and web result URLs
	kbIndex  string
	queries  []string    // db_query SQL; $1 is the subject, $2 and $3 a date range
	windows  [][2]string // date ranges for queries and log searches
	files    []string    // read_file paths
	apis     []string    // http_get endpoints
	logQuery []string    // search_logs queries
	list     listSpec
	job      jobSpec
	final    finalSpec
	facts    []string // data snippets
	claims   []string // wrong conclusions an agent may store as fact
	planStep []string // items of a plan
}

type weighted struct {
	tool string
	w    int
}

const (
	pageByCursor = iota
	pageByNumber
	pageByOffset
)

// listSpec is the paginated listing of a scenario.
type listSpec struct {
	resource string
	filter   string // name of the filter argument
	value    string // its value template; "" means a subject
	style    int
	limit    int
}

// jobSpec is the asynchronous job a scenario starts and then polls.
type jobSpec struct {
	tool   string
	intent string
	args   []string // key, value template pairs
	fetch  string   // read_file path of the job's output
}

// finalSpec is the call that delivers the result.
type finalSpec struct {
	tool   string
	intent string
	args   []string // key, value template pairs
	kind   string   // artifact kind
}

func (r *run) fill(t, subject, aspect string) string {
	if !strings.Contains(t, "%") {
		return t
	}
	s := r.subjects
	return fmt.Sprintf(t, slug(subject), slug(aspect), s[0], s[1%len(s)], s[2%len(s)], subject, aspect,
		r.between(2, 97), r.between(100, 9000), r.tag)
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

var scenarios = []*scenario{
	vendorResearch, incidentReview, revenueReport, supportTicket, testFix, releaseNotes,
}

var vendorCategories = []struct {
	vendors []string
	use     string
	tag     string
}{
	{[]string{"Pinecone", "Weaviate", "Qdrant", "Milvus", "pgvector"}, "storing 50M embeddings with metadata filters", "vector-db"},
	{[]string{"Datadog", "Grafana Cloud", "Honeycomb", "New Relic"}, "tracing 2B spans per month", "observability"},
	{[]string{"Amazon SQS", "Google Pub/Sub", "Confluent Cloud", "Redpanda"}, "an order-events pipeline at 20k msg/s", "queues"},
	{[]string{"Auth0", "Okta", "Clerk", "Keycloak"}, "SSO for 40k B2B users", "auth"},
}

var vendorResearch = &scenario{
	name: "vendor-research",
	newGoal: func(r *run) string {
		c := pick(r, vendorCategories)
		v := append([]string(nil), c.vendors...)
		r.rng.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
		r.subjects = v[:3]
		r.tag = c.tag
		return fmt.Sprintf("Compare %s, %s and %s for %s and recommend one", v[0], v[1], v[2], c.use)
	},
	aspects: []string{"pricing", "rate limits", "SLA uptime", "EU data residency", "SOC 2 report",
		"backup and restore", "max payload size", "p99 latency benchmark", "SSO and RBAC", "egress costs",
		"free tier limits", "migration guide", "support plans", "quotas per project"},
	tools: []weighted{{"web_search", 5}, {"fetch_url", 4}, {"search_docs", 1}},
	sites: []string{"https://%[1]s.com/pricing", "https://docs.%[1]s.io/%[2]s", "https://%[1]s.com/blog/%[2]s",
		"https://news.ycombinator.com/item?id=4%[9]d1", "https://www.g2.com/products/%[1]s/reviews",
		"https://github.com/%[1]s/%[1]s/discussions/%[9]d"},
	kbIndex: "eng-wiki",
	files:   []string{"notes/%[10]s/%[1]s.md", "notes/%[10]s/requirements.md"},
	list:    listSpec{resource: "reviews", filter: "product", style: pageByNumber, limit: 25},
	job: jobSpec{tool: "render_report", intent: "render the comparison as PDF",
		args: []string{"doc", "reports/%[10]s-comparison.md", "format", "pdf"}, fetch: "reports/%[10]s-comparison.pdf"},
	final: finalSpec{tool: "write_file", intent: "write the recommendation",
		args: []string{"path", "reports/%[10]s-comparison.md"}, kind: "report"},
	facts: []string{
		"%[6]s %[7]s: plans start at $%[8]d/month, overage billed per %[9]d units",
		"%[6]s docs, %[7]s: limit of %[9]d requests/min per project, burst %[8]d",
		"%[6]s %[7]s: %[8]d.9%% monthly uptime on the enterprise tier",
		"%[6]s %[7]s: available in %[8]d regions; eu-central since 2025",
		"Benchmark (%[7]s): %[6]s p99 %[8]dms at %[9]d QPS",
		"%[6]s FAQ: %[7]s is configurable per workspace; default %[8]d",
	},
	claims: []string{"%[6]s has no EU region", "%[6]s %[7]s is only on the enterprise plan",
		"%[6]s pricing page needs a login; use the cached table"},
	planStep: []string{"collect pricing for each vendor", "check limits and SLA", "check EU residency and compliance",
		"compare against requirements", "write recommendation"},
}

var incidentReview = &scenario{
	name: "incident-review",
	newGoal: func(r *run) string {
		svc := pick(r, []string{"checkout-api", "payments-worker", "inventory-svc", "auth-gateway", "search-indexer", "notification-worker"})
		dep := pick(r, []string{"postgres-main", "redis-cache", "kafka-orders", "envoy-edge"})
		r.subjects = []string{svc, dep, svc + "-canary"}
		r.tag = fmt.Sprintf("INC-%d", r.between(2100, 9800))
		symptom := pick(r, []string{"elevated 5xx", "p99 latency spike", "consumer lag", "login failures", "timeouts"})
		return fmt.Sprintf("Summarize incident %s (%s on %s) and propose a fix", r.tag, symptom, svc)
	},
	aspects: []string{"5xx errors", "connection pool exhaustion", "p99 latency", "OOM kills", "recent deploys",
		"retry storm", "TLS handshake failures", "queue backlog", "config changes", "GC pauses", "CPU throttling",
		"DNS resolution errors"},
	tools: []weighted{{"search_logs", 3}, {"db_query", 2}, {"read_file", 2}, {"web_search", 1}, {"search_docs", 1}, {"http_get", 1}},
	sites: []string{"https://status.aws.amazon.com/#%[1]s", "https://github.com/brettwooldridge/HikariCP/issues/%[9]d",
		"https://stackoverflow.com/questions/7%[9]d/%[2]s", "https://docs.%[1]s.dev/troubleshooting/%[2]s"},
	kbIndex: "postmortems",
	queries: []string{
		"SELECT date_trunc('minute', ts) AS m, count(*) FILTER (WHERE status >= 500) FROM http_requests WHERE service = $1 AND ts BETWEEN $2 AND $3 GROUP BY 1 ORDER BY 1",
		"SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) FROM http_requests WHERE service = $1 AND ts BETWEEN $2 AND $3",
		"SELECT pod, max(rss_mb) FROM pod_metrics WHERE service = $1 AND ts BETWEEN $2 AND $3 GROUP BY pod",
		"SELECT sum(active), max(waiting) FROM db_pool_stats WHERE service = $1 AND ts BETWEEN $2 AND $3",
	},
	windows: [][2]string{{"2026-11-28T01:30:00Z", "2026-11-28T03:30:00Z"}, {"2026-11-28T02:00:00Z", "2026-11-28T02:30:00Z"},
		{"2026-11-27T02:00:00Z", "2026-11-27T04:00:00Z"}, {"2026-11-21T00:00:00Z", "2026-11-28T00:00:00Z"}},
	files: []string{"deploy/%[1]s/values.yaml", "runbooks/%[1]s.md", "config/%[1]s/pool.yaml", "deploy/%[1]s/hpa.yaml"},
	apis:  []string{"/v1/deploys?service=%[1]s&since=2026-11-27", "/v1/alerts/%[10]s", "/v1/services/%[1]s/dependencies"},
	logQuery: []string{"level:error AND %[2]s", "status:>=500", "msg:\"timeout\"", "level:warn AND pool", "OOMKilled",
		"x509 OR handshake", "retry AND attempt:>3"},
	list: listSpec{resource: "alerts", filter: "service", style: pageByCursor, limit: 50},
	job: jobSpec{tool: "start_trace_export", intent: "export traces around the incident",
		args: []string{"service", "%[3]s", "window", "2h"}, fetch: "exports/%[10]s/traces.json"},
	final: finalSpec{tool: "write_file", intent: "write the postmortem",
		args: []string{"path", "postmortems/%[10]s.md"}, kind: "postmortem"},
	facts: []string{
		"%[6]s %[7]s: %[9]d errors/min at peak, baseline %[8]d",
		"%[6]s: pool max_connections %[8]d, waiting peaked at %[9]d",
		"%[6]s %[7]s started 02:%[8]d UTC, 4 min after deploy",
		"%[6]s: %[8]d pods restarted, last state OOMKilled (limit 512Mi)",
		"runbook %[6]s: on %[7]s, scale to %[8]d replicas and drain the queue",
	},
	claims: []string{"%[6]s outage was caused by the %[5]s deploy", "%[6]s logs for the window were purged",
		"%[6]s metrics table is %[2]s_v1"},
	planStep: []string{"pull error logs for the window", "check deploys and config changes", "correlate with dependency metrics",
		"find similar past incidents", "write timeline and fix"},
}

var revenueReport = &scenario{
	name: "revenue-report",
	newGoal: func(r *run) string {
		regions := []string{"EMEA", "AMER", "APAC", "LATAM"}
		r.rng.Shuffle(len(regions), func(i, j int) { regions[i], regions[j] = regions[j], regions[i] })
		r.subjects = regions[:3]
		r.tag = "q3-2026"
		return fmt.Sprintf("Build the Q3 2026 revenue summary by region for the %s review",
			pick(r, []string{"board", "finance", "sales leadership"}))
	},
	aspects: []string{"gross revenue", "refunds", "net revenue", "top customers", "churned accounts", "FX adjustments",
		"discounts", "new logos", "ARR movement", "invoice backlog", "credit notes", "tax adjustments"},
	tools:   []weighted{{"db_query", 6}, {"read_file", 1}, {"search_docs", 1}, {"http_get", 1}},
	kbIndex: "finance-wiki",
	queries: []string{
		"SELECT region, sum(amount_usd) FROM orders WHERE region = $1 AND created_at >= $2 AND created_at < $3 GROUP BY region",
		"SELECT customer_id, sum(amount_usd) AS total FROM orders WHERE region = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY total DESC LIMIT 10",
		"SELECT count(*), sum(amount_usd) FROM refunds WHERE region = $1 AND refunded_at >= $2 AND refunded_at < $3",
		"SELECT currency, avg(rate) FROM fx_rates WHERE region = $1 AND day >= $2 AND day < $3 GROUP BY currency",
		"SELECT status, count(*) FROM invoices WHERE region = $1 AND issued_at >= $2 AND issued_at < $3 GROUP BY status",
	},
	windows: [][2]string{{"2026-07-01", "2026-10-01"}, {"2026-07-01", "2026-08-01"}, {"2026-08-01", "2026-09-01"},
		{"2026-09-01", "2026-10-01"}, {"2026-04-01", "2026-07-01"}},
	files: []string{"finance/definitions.md", "finance/fx/%[10]s.csv", "finance/%[1]s/adjustments-%[10]s.csv"},
	apis:  []string{"/v1/fx/rates?base=USD&date=2026-09-30", "/v1/accounts?region=%[1]s&status=churned"},
	list:  listSpec{resource: "invoices", filter: "region", style: pageByOffset, limit: 100},
	job: jobSpec{tool: "start_export", intent: "export orders for the quarter",
		args: []string{"dataset", "orders_%[10]s", "region", "%[3]s", "format", "parquet"}, fetch: "exports/orders_%[10]s.parquet"},
	final: finalSpec{tool: "write_file", intent: "write the revenue summary",
		args: []string{"path", "finance/%[10]s-revenue-summary.md"}, kind: "summary"},
	facts: []string{
		"%[6]s %[7]s: $%[8]d.%[9]dM for the quarter",
		"%[6]s: %[8]d accounts, %[7]s down %[8]d%% QoQ",
		"definitions: %[7]s excludes intra-company transfers; %[8]d adjustments",
		"%[6]s %[7]s: EUR/USD avg 1.0%[8]d",
	},
	claims: []string{"%[6]s revenue table is orders_archive", "%[6]s %[7]s is already net of refunds",
		"%[6]s data for the quarter is not loaded yet"},
	planStep: []string{"query revenue per region", "subtract refunds and credit notes", "apply FX adjustments",
		"list top customers", "write the summary"},
}

var supportTicket = &scenario{
	name: "support-ticket",
	newGoal: func(r *run) string {
		order := fmt.Sprintf("ORD-%d", r.between(10000, 99999))
		r.subjects = []string{order, "cus_" + r.hex(6), "pay_" + r.hex(8)}
		r.tag = fmt.Sprintf("%d", r.between(80000, 99999))
		return fmt.Sprintf("Answer ticket #%s: customer asks why the refund for order %s has not arrived", r.tag, order)
	},
	aspects: []string{"order status", "refund status", "payment events", "shipping status", "refund policy", "refund SLA",
		"previous tickets", "chargeback risk", "account tier", "bank processing times"},
	tools:   []weighted{{"http_get", 5}, {"search_docs", 2}, {"db_query", 1}},
	kbIndex: "kb-support",
	queries: []string{
		"SELECT id, subject, status FROM tickets WHERE customer_ref = $1 AND created_at BETWEEN $2 AND $3",
		"SELECT event, created_at FROM payment_events WHERE ref = $1 AND created_at BETWEEN $2 AND $3 ORDER BY created_at",
	},
	windows: [][2]string{{"2026-10-01", "2026-11-29"}, {"2026-11-01", "2026-11-29"}},
	apis: []string{"/v2/orders/%[3]s", "/v2/orders/%[3]s/refunds", "/v1/customers/%[4]s", "/v1/payments/%[5]s/events",
		"/v1/shipments?order=%[3]s", "/v1/customers/%[4]s/tickets", "/v2/refunds/%[5]s"},
	list: listSpec{resource: "ticket_messages", filter: "ticket_id", value: "%[10]s", style: pageByCursor, limit: 20},
	job: jobSpec{tool: "request_provider_report", intent: "ask the payment provider for the refund trace",
		args: []string{"payment_id", "%[5]s", "report", "refund_trace"}, fetch: "reports/provider-%[5]s.json"},
	final: finalSpec{tool: "send_reply", intent: "reply to the customer",
		args: []string{"ticket_id", "%[10]s", "template", "refund_in_transit", "locale", "en"}, kind: "reply"},
	facts: []string{
		"%[6]s: %[7]s = refund_pending since %[8]d days",
		"%[6]s %[7]s: refund issued, bank reference RF%[9]d",
		"KB: %[7]s - card refunds take 5-%[8]d business days",
		"%[6]s: %[8]d prior tickets, tier gold",
	},
	claims: []string{"order %[3]s was never charged", "refund for %[3]s failed at the bank",
		"customer %[4]s has a second account"},
	planStep: []string{"look up the order and refund", "check payment provider events", "check refund policy",
		"reply with status and ETA"},
}

var testFix = &scenario{
	name: "test-fix",
	newGoal: func(r *run) string {
		repo := pick(r, []string{"acme/billing", "acme/checkout", "acme/ledger", "acme/pricing-engine"})
		test := pick(r, []string{"TestInvoiceRounding", "TestTaxForEUReverseCharge", "TestRetryBackoff",
			"TestCurrencyConversion", "TestProrationOnDowngrade"})
		r.subjects = []string{test, repo, "internal/" + pick(r, []string{"invoice", "tax", "retry", "fx", "proration"})}
		r.tag = slug(repo)
		return fmt.Sprintf("Fix the failing test %s in %s", test, repo)
	},
	focus:    1,
	codePath: "%[5]s",
	aspects: []string{"test source", "function under test", "recent commits", "CI logs", "rounding rules", "fixture data",
		"dependency changes", "flaky history", "error message", "related issues"},
	tools: []weighted{{"read_file", 4}, {"search_code", 3}, {"run_tests", 1}, {"web_search", 1}, {"http_get", 1}},
	sites: []string{"https://pkg.go.dev/%[1]s", "https://github.com/%[4]s/issues/%[9]d",
		"https://stackoverflow.com/questions/7%[9]d/%[2]s"},
	files: []string{"%[5]s/round.go", "%[5]s/round_test.go", "%[5]s/testdata/cases.json", "%[5]s/doc.go", "go.mod",
		"CHANGELOG.md", ".github/workflows/ci.yml"},
	apis: []string{"/api/v4/projects/%[10]s/jobs?scope=failed", "/api/v4/projects/%[10]s/pipelines/%[9]d",
		"/api/v4/projects/%[10]s/repository/commits?path=%[5]s"},
	list: listSpec{resource: "ci_runs", filter: "branch", value: "main", style: pageByNumber, limit: 20},
	job: jobSpec{tool: "trigger_ci", intent: "run CI on the fix branch",
		args: []string{"repo", "%[4]s", "ref", "fix/%[1]s"}, fetch: "ci/%[1]s/junit.xml"},
	final: finalSpec{tool: "create_pr", intent: "open a pull request with the fix",
		args: []string{"repo", "%[4]s", "head", "fix/%[1]s", "title", "Fix %[3]s"}, kind: "pr"},
	facts: []string{
		"--- FAIL: %[3]s: got %[8]d.%[9]d, want %[8]d.%[8]d",
		"func Round(v float64, places int) float64 { // %[7]s, line %[9]d",
		"%[7]s: commit %[9]d changed rounding mode to HalfEven",
		"%[7]s: failed %[8]d of last 50 runs on main",
	},
	claims: []string{"%[3]s fails because of the Go toolchain version", "%[3]s fixture file is generated, do not edit",
		"%[3]s is flaky; rerun until green"},
	planStep: []string{"reproduce the failure", "read the test and the code", "find the commit that broke it",
		"fix and run tests", "open a PR"},
}

var releaseNotes = &scenario{
	name: "release-notes",
	newGoal: func(r *run) string {
		repo := pick(r, []string{"acme/sdk-go", "acme/api-gateway", "acme/console", "acme/cli"})
		ver := fmt.Sprintf("%d.%d.0", r.between(1, 4), r.between(0, 30))
		r.subjects = []string{repo, "v" + ver, "main"}
		r.tag = slug(repo) + "-" + ver
		return fmt.Sprintf("Draft release notes for %s v%s from merged pull requests", repo, ver)
	},
	focus: 1,
	aspects: []string{"breaking changes", "new features", "bug fixes", "deprecations", "security fixes", "performance",
		"migration steps", "contributors", "docs changes", "dependency bumps"},
	tools: []weighted{{"http_get", 4}, {"read_file", 2}, {"search_code", 1}, {"search_docs", 1}},
	files: []string{"CHANGELOG.md", "docs/migration/%[4]s.md", "docs/%[2]s.md", "SECURITY.md"},
	apis: []string{"/repos/%[3]s/pulls/%[9]d", "/repos/%[3]s/compare/%[4]s...main", "/repos/%[3]s/issues?labels=%[2]s",
		"/repos/%[3]s/releases/latest"},
	kbIndex: "eng-wiki",
	list:    listSpec{resource: "pull_requests", filter: "repo", value: "%[3]s", style: pageByCursor, limit: 30},
	job: jobSpec{tool: "build_docs_preview", intent: "build the docs preview",
		args: []string{"repo", "%[3]s", "ref", "release/%[4]s"}, fetch: "preview/%[10]s/index.html"},
	final: finalSpec{tool: "write_file", intent: "write the release notes",
		args: []string{"path", "RELEASE_NOTES.md"}, kind: "notes"},
	facts: []string{
		"#%[9]d %[7]s: drop Go 1.2%[8]d support (label: breaking)",
		"#%[9]d: fix retry jitter in client (%[7]s)",
		"%[7]s: %[8]d PRs merged since the last tag",
		"#%[9]d %[7]s: new Paginate() helper, thanks @dev%[8]d",
	},
	claims: []string{"%[6]s has no breaking changes", "%[6]s release branch is release/%[2]s", "%[6]s changelog is generated by CI"},
	planStep: []string{"list merged PRs since the last tag", "group PRs by label", "check migration notes",
		"draft the notes", "link docs"},
}
