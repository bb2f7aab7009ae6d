package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// benchToolCalls are args shaped like the bench corpus's: compact, keys
// often unsorted, some nested, a request id now and then, every one
// distinct so the cache misses as it does on most real calls. Half log
// their args_hash, as half of the corpus's calls do.
func benchToolCalls(n int) []schema.ToolCall {
	shapes := []string{
		`{"sql":"SELECT count(*), sum(amount_usd) FROM refunds WHERE region = $1 AND refunded_at >= $2 AND refunded_at < $3","params":["LATAM","2026-07-%02d","2026-10-01"]}`,
		`{"q":"Keycloak SOC 2 report %d","top_k":10}`,
		`{"path":"finance/fx/q3-%d.csv"}`,
		`{"endpoint":"/repos/acme/cli/issues?labels=contributors&page=%d"}`,
		`{"query":"quotas per project Okta %d","index":"eng-wiki","k":5}`,
		`{"endpoint":"/repos/acme/api-gateway/releases/%d","params":{"expand":"events"}}`,
		`{"repo":"acme/cli","query":"dependency bumps %d","path":"main"}`,
		`{"service":"inventory-svc","query":"level:warn AND pool","from":"2026-11-27T02:00:00Z","to":"2026-11-27T04:00:00Z","limit":%d}`,
		`{"q":"auth-gateway CPU throttling docs","top_k":5,"request_id":"req_643fa256be%06d"}`,
		`{"resource":"reviews","product":"Honeycomb","page":%d,"per_page":25}`,
	}
	calls := make([]schema.ToolCall, n)
	for i := range calls {
		calls[i] = schema.ToolCall{Name: "tool", Args: fmt.Appendf(nil, shapes[i%len(shapes)], i)}
		if i%2 == 0 {
			calls[i].ArgsHash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
		}
	}
	return calls
}

// BenchmarkArgsResolve measures what a call's args cost a row when the
// cache misses: digest, short rendering and, without args_hash, the
// canonical form and its hash. One call in ten came back empty.
func BenchmarkArgsResolve(b *testing.B) {
	calls := benchToolCalls(1 << 14) // many more than the cache holds
	var c argsCache
	bytes := 0
	for _, tc := range calls {
		bytes += len(tc.Args)
	}
	b.SetBytes(int64(bytes / len(calls)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tc := &calls[i%len(calls)]
		if _, lerr := c.resolve(tc, false, i%10 == 0); lerr != nil {
			b.Fatal(lerr)
		}
		i++
	}
}

// resolveUncached is what resolve answers, computed with the functions
// ArgsPass stands for and no cache.
func resolveUncached(n *schema.ArgsNormalizer, tc *schema.ToolCall, keepText, empty bool) (derivedArgs, *LineError) {
	// The key comes from the hash's text, as a logged one's does.
	keyOf := func(hash string) derivedArgs {
		key, canonical := schema.ArgsKey(hash)
		if canonical {
			return derivedArgs{key: key}
		}
		return derivedArgs{key: key, other: hash}
	}
	if len(tc.Args) == 0 {
		hash := tc.ArgsHash
		if hash == "" {
			hash, _ = schema.ArgsHash(nil)
		}
		return keyOf(hash), nil
	}
	queryWords, query := schema.ReadQueryArgs(tc.Args).Words(tc.Name)
	digest, _, err := n.DigestScratch(tc.Args, empty && !query, nil)
	if err != nil {
		digest = schema.ArgsDigest{}
	}
	if query {
		digest.Words = queryWords // a query's words are its question's
	}
	out := derivedArgs{digest: digest, short: schema.AppendShortArgs(nil, tc.Args, schema.ShortArgsBytes), query: query}
	if tc.ArgsHash != "" {
		logged := keyOf(tc.ArgsHash)
		out.key, out.other = logged.key, logged.other
	}
	if tc.ArgsHash != "" && !keepText {
		return out, nil
	}
	canon, err := schema.Canonicalize(nil, tc.Args)
	if err != nil {
		if tc.ArgsHash == "" {
			return derivedArgs{}, lineError(KindInvalidValue, "tool_call."+err.Error())
		}
		return out, nil
	}
	if keepText {
		out.text = canon
	}
	if tc.ArgsHash == "" {
		out.key = keyOf(schema.HashCanonical(canon)).key
	}
	return out, nil
}

// FuzzArgsCacheMatchesUncached: whatever order calls with two args come in,
// with or without args_hash, text or an empty result, the cache answers
// each as if it had never seen the args (entries made for one call and
// completed for another included).
func FuzzArgsCacheMatchesUncached(f *testing.F) {
	f.Add([]byte(`{"q":"Vector DB","k":5,"request_id":"r1"}`), []byte(`{ "q" : "vector  db" }`), uint16(0x5a5a))
	f.Add([]byte(`{"input":"museum hours 2026"}`), []byte(`{"input":"museum opening hours"}`), uint16(0x0f0f))
	f.Add([]byte(`{"a":1,"a":2}`), []byte(`[1e400]`), uint16(0x0ff0))
	f.Add([]byte(strings.Repeat("[", 520)+strings.Repeat("]", 520)), []byte(`"x"`), uint16(0x1234))
	f.Add([]byte(`{"big":"`+strings.Repeat("x", 5000)+`"}`), []byte(`{"z":1,"y":"\u00e9"}`), uint16(0xa5c3))
	f.Add([]byte(``), []byte(`  `), uint16(0xffff))
	n := schema.NewArgsNormalizer(schema.DefaultVolatileKeys)
	f.Fuzz(func(t *testing.T, a, b []byte, plan uint16) {
		c := argsCache{norm: n}
		for i := range 16 {
			tc := schema.ToolCall{Args: a}
			if plan>>i&1 == 1 {
				tc.Args = b
			}
			if (int(plan)>>(i%16)+i)%5 == 0 {
				tc.Name = "web_search" // a search tool's one string is a query
			}
			if (int(plan)+i)%3 == 0 {
				tc.ArgsHash = "sha256:logged"
			}
			keepText, empty := i%2 == 1, (int(plan)>>(i%8)+i)%4 == 0
			got, gerr := c.resolve(&tc, keepText, empty)
			want, werr := resolveUncached(n, &tc, keepText, empty)
			if (gerr == nil) != (werr == nil) || (gerr != nil && *gerr != *werr) {
				t.Fatalf("call %d %q: error %v, uncached %v", i, tc.Args, gerr, werr)
			}
			if got.key != want.key || got.other != want.other || got.digest != want.digest || got.query != want.query || !bytes.Equal(got.text, want.text) || !bytes.Equal(got.short, want.short) {
				t.Fatalf("call %d %q keepText=%v empty=%v:\n got %+v\nwant %+v", i, tc.Args, keepText, empty, got, want)
			}
		}
	})
}

// TestArgsCacheMatchesUncachedAcrossEvictions runs many more distinct args
// than the cache holds, so entries are replaced, their buffers reused, and
// old args come back after that: every answer must still be the uncached one.
func TestArgsCacheMatchesUncachedAcrossEvictions(t *testing.T) {
	n := schema.NewArgsNormalizer(schema.DefaultVolatileKeys)
	c := argsCache{norm: n}
	rng := rand.New(rand.NewPCG(7, 7))
	pool := make([][]byte, 6*argsCacheSets)
	for i := range pool {
		switch i % 97 {
		case 0:
			pool[i] = []byte(`{"n":1e400,"i":` + strconv.Itoa(i) + `}`) // no canonical form
		case 1:
			pool[i] = []byte(`{"blob":"` + strings.Repeat("x", argsCacheMaxBytes) + strconv.Itoa(i) + `"}`) // not cached
		default:
			pool[i] = fmt.Appendf(nil, `{"q":"Query %d %s","k":%d,"filters":{"z":%d,"a":"\u00e9"}}`, i, strings.Repeat("w ", i%40), i%7, i)
		}
	}
	for call := range 60000 {
		// Mostly recent args, sometimes old ones: hits, misses and
		// evicted entries.
		i := rng.IntN(len(pool))
		if call%3 != 0 {
			i = (call/3 + rng.IntN(64)) % len(pool)
		}
		tc := schema.ToolCall{Args: pool[i]}
		if rng.IntN(3) == 0 {
			tc.ArgsHash = "logged-" + strconv.Itoa(i)
		}
		keepText, empty := rng.IntN(8) == 0, rng.IntN(4) == 0
		got, gerr := c.resolve(&tc, keepText, empty)
		want, werr := resolveUncached(n, &tc, keepText, empty)
		if (gerr == nil) != (werr == nil) || (gerr != nil && *gerr != *werr) {
			t.Fatalf("call %d args %d: error %v, uncached %v", call, i, gerr, werr)
		}
		if got.key != want.key || got.other != want.other || got.digest != want.digest || got.query != want.query || !bytes.Equal(got.text, want.text) ||
			!bytes.Equal(got.short, want.short) || (got.short == nil) != (want.short == nil) {
			t.Fatalf("call %d args %d keepText=%v empty=%v:\n got %+v\nwant %+v", call, i, keepText, empty, got, want)
		}
	}
}
