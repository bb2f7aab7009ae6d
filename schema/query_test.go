package schema

import "testing"

// A query is a question in words put to a search tool; its word
// signature is that of the question alone, so two rephrasings of one
// question overlap whatever else the args say (the index, a date range).
func TestQuery(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		want       bool
	}{
		{"tavily_search", `{"query":"kv cache sizing","max_results":5}`, true},
		{"Search the internet", `{"search_query":"Tree of Life roots symbolism"}`, true},
		{"serpapi", `{"q":"pricing 2019","num":10}`, true},
		{"web_search", `{"input":"museum opening hours today"}`, true},          // a search tool's one string
		{"route", `{"query":"server: okppt\ntool: create presentation"}`, true}, // a tool picking tools by a question
		{"search_direct_flight", `{"origin":"JFK","destination":"LAX","date":"2024-05-16"}`, false},
		{"bash", `{"command":"grep -rn query src/"}`, false},
		{"bash", `{"command":"echo \"query\""}`, false}, // the word as a value, not a key
		{"web_search", `["kv cache"]`, false},
		{"web_search", `{"query":42}`, false},
		{"lookup_user", `{"user_id":"u-1","fields":"name"}`, false}, // two strings, no query key
	} {
		if got := IsQuery(c.tool, []byte(c.args)); got != c.want {
			t.Errorf("IsQuery(%q, %s) = %v, want %v", c.tool, c.args, got, c.want)
		}
	}
	a, _ := QueryWords("search_logs", []byte(`{"service":"auth-gateway","query":"x509 handshake failure","from":"2026-11-28"}`))
	b, _ := QueryWords("search_logs", []byte(`{"service":"auth-gateway","query":"OOMKilled pods","from":"2026-11-28"}`))
	if WordOverlap(a, b) {
		t.Error("two questions to one service overlap: the service's name counted as a word of the question")
	}
	c, _ := QueryWords("search_logs", []byte(`{"service":"billing","query":"handshake failure x509 errors","from":"2026-11-29"}`))
	if !WordOverlap(a, c) {
		t.Error("one question rephrased does not overlap")
	}
}
