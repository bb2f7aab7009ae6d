package schema

import (
	"bytes"
	"encoding/json"
	"testing"
)

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
	a, _ := ReadQueryArgs([]byte(`{"service":"auth-gateway","query":"x509 handshake failure","from":"2026-11-28"}`)).Words("search_logs")
	b, _ := ReadQueryArgs([]byte(`{"service":"auth-gateway","query":"OOMKilled pods","from":"2026-11-28"}`)).Words("search_logs")
	if WordOverlap(a, b) {
		t.Error("two questions to one service overlap: the service's name counted as a word of the question")
	}
	c, _ := ReadQueryArgs([]byte(`{"service":"billing","query":"handshake failure x509 errors","from":"2026-11-29"}`)).Words("search_logs")
	if !WordOverlap(a, c) {
		t.Error("one question rephrased does not overlap")
	}
}

// A query asks again what was asked when it shares half the words of the
// query before and brings fewer than half new ones; in a query of two or
// three words, one new word is another question.
func TestRephrasesQuery(t *testing.T) {
	w := func(q string) uint64 {
		s, _ := ReadQueryArgs([]byte(`{"query":"` + q + `"}`)).Words("web_search")
		return s
	}
	for _, c := range []struct {
		prev, q string
		want    bool
	}{
		{"Tree of Life roots symbolism heritage", "symbolism of roots in Tree of Life identity", true},
		{"Tree of Life roots symbolism heritage", "roots heritage Tree of Life symbolism", true},
		{"Grafana Cloud SLA uptime", "Grafana Cloud EU data residency", false},
		{"AI regulation EU", "AI regulation US", false},
		{"AI regulation EU", "EU AI regulation", true},
	} {
		if got := RephrasesQuery(w(c.q), w(c.prev), w(c.prev)); got != c.want {
			t.Errorf("%q after %q: %v, want %v", c.q, c.prev, got, c.want)
		}
	}
}

// FuzzReadQueryArgs: whatever the args, ReadQueryArgs answers what
// encoding/json reads of them: a query by key exactly when the args are an
// object with a string under one of queryKeys, one string exactly when
// they are an object of one member that is a string, and the words of
// that string. (With a key repeated, encoding/json keeps its last value
// and ReadQueryArgs reads both: such args are only read, without panic.)
func FuzzReadQueryArgs(f *testing.F) {
	for _, s := range []string{
		`{"query":"kv cache sizing","k":5}`, `{"q":"pricing 2019"}`, `{"input":"museum hours"}`,
		`{"query":42}`, `["query"]`, `{"a":{"query":"nested"}}`, `{"query":"a","query":"b"}`,
		`{"search_query":"x y","q":"z w"}`, `{"query":"\u00e9t\u00e9 plage"}`, `{"query":"x"} trailing`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		got := ReadQueryArgs(args)
		var m map[string]json.RawMessage
		if !json.Valid(args) || json.Unmarshal(args, &m) != nil {
			if got != (QueryArgs{}) {
				t.Fatalf("%q is no JSON object, read as %+v", args, got)
			}
			return
		}
		var want QueryArgs
		for _, k := range queryKeys {
			var s string
			if v, ok := m[k]; ok && len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
				want.ByKey, want.KeyWords = true, questionWords(v)
				break
			}
		}
		if len(m) == 1 {
			for _, v := range m {
				if len(v) > 0 && v[0] == '"' {
					want.OneString, want.OneWords = true, questionWords(v)
				}
			}
		}
		if hasRepeatedKey(args) {
			return // encoding/json keeps the last of a repeated key; ReadQueryArgs reads both
		}
		if got != want {
			t.Fatalf("%q: %+v, want %+v", args, got, want)
		}
	})
}

// hasRepeatedKey says whether a top-level key of the JSON object args
// comes twice: encoding/json keeps the last, ReadQueryArgs the first.
func hasRepeatedKey(args []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(args))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		k, _ := t.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return false
		}
	}
	return false
}
