package schema

import (
	"bytes"
	"strings"
	"testing"
)

var argsPassSeeds = []string{
	`{"q":"Keycloak SOC 2 report","top_k":10}`,
	`{"sql":"SELECT 1 WHERE a = $1","params":["EMEA","2026-07-01"],"request_id":"req_1"}`,
	`{"endpoint":"/v1/x","params":{"expand":"events"},"Trace_ID":"ab"}`,
	`{ "q" : "Vector  DB\tbenchmark ", "k" : [ 1 , 2e0 , -0 , 0.5 ] }`,
	`{"b":1,"a":{"d":[true,false,null],"c":{}},"":[]}`,
	`{"a":1,"a":2}`,
	`{"x":{"k":1,"k":2}}`,
	`{"\u20ac":"Euro","\r":"CR","\ufb33":"Dalet","1":"One","\ud83d\ude00":"Emoji","\u0080":"Ctl","\u00f6":"o"}`,
	"{\"\U0001F600\":1,\"\uFB33\":2,\"é\":3,\"e\":4}",
	`{"s":"a\"b \\ \/ \b\f\n\r\t \u0001 \ud800 \ud83d\ude00","t":"CAFÉ"}`,
	`[1e21,1e20,0.000001,1e-7,-1.5E-10,123456789012345,1234567890123456,12345678901234567890123,1e400,1e-400,-0.0]`,
	`{"n":01}`, `{"n":1.}`, `{"n":1e}`, `{"n":-}`, `[1,]`, `{"a"}`, `{"a":1}x`, `tru`, ``, `  `, "\"a\x01\"",
	"\"\xff\xfe\"", "{\"q\":\"caf\xc3\"}",
	`{"q":"` + strings.Repeat("x", 70) + `é한😀","k":1}`,
	`{"q":"` + strings.Repeat("한", 40) + `"}`,
	strings.Repeat("[", 513) + strings.Repeat("]", 513),
	strings.Repeat("[", 512) + strings.Repeat("]", 512),
	`{"page":1,"cursor":"abc","nonce":"x","TS":5,"time":{"q":"hidden words"}}`,
	`"just a String"`, `42`, `null`, `{"a":[{"z":1,"y":2},{"b":{"d":1,"c":2}}]}`,
}

// FuzzArgsPassMatchesReferences: the one-pass forms are those of the
// reference walkers and AppendShortArgs, whatever the bytes, errors
// included; Canonicalize, Normalize and Digest, which run the pass, are the
// references' too; and one pass reused across calls carries nothing from
// one to the next.
func FuzzArgsPassMatchesReferences(f *testing.F) {
	for _, s := range argsPassSeeds {
		f.Add([]byte(s))
	}
	n := NewArgsNormalizer(DefaultVolatileKeys)
	pass := NewArgsPass(n)
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkArgsPass(t, n, pass, raw)
	})
}

func checkArgsPass(t *testing.T, n *ArgsNormalizer, pass *ArgsPass, raw []byte) {
	t.Helper()
	prefix := []byte("pre")
	for _, withWords := range []bool{false, true} {
		for _, withCanon := range []bool{false, true} {
			got := pass.Derive(raw, withWords, withCanon, append([]byte(nil), prefix...), append([]byte(nil), prefix...))
			wantDigest, _, digestErr := refDigestScratch(n, raw, withWords, nil)
			if got.Digest != wantDigest || (got.DigestErr == nil) != (digestErr == nil) {
				t.Fatalf("%q words=%v: digest %+v (%v), reference %+v (%v)", raw, withWords, got.Digest, got.DigestErr, wantDigest, digestErr)
			}
			if d, err := n.Digest(raw, withWords); d != wantDigest || (err == nil) != (digestErr == nil) {
				t.Fatalf("%q words=%v: Digest %+v (%v), reference %+v (%v)", raw, withWords, d, err, wantDigest, digestErr)
			}
			if want := AppendShortArgs(append([]byte(nil), prefix...), raw, ShortArgsBytes); !bytes.Equal(got.Short, want) {
				t.Fatalf("%q: short %q, AppendShortArgs %q", raw, got.Short, want)
			}
			if !withCanon {
				if got.Canon != nil || got.CanonErr != nil {
					t.Fatalf("%q: canonical form %q (%v) not asked for", raw, got.Canon, got.CanonErr)
				}
				continue
			}
			want, err := refCanonicalize(append([]byte(nil), prefix...), raw)
			if (got.CanonErr == nil) != (err == nil) || (err != nil && got.CanonErr.Error() != err.Error()) {
				t.Fatalf("%q: canonical error %v, reference %v", raw, got.CanonErr, err)
			}
			if err == nil && !bytes.Equal(got.Canon, want) {
				t.Fatalf("%q: canonical %q, reference %q", raw, got.Canon, want)
			}
		}
	}
	for _, c := range []struct {
		name string
		f    func(dst, raw []byte) ([]byte, error)
		ref  func(dst, raw []byte) ([]byte, error)
	}{
		{"Canonicalize", Canonicalize, refCanonicalize},
		{"Normalize", n.Normalize, func(dst, raw []byte) ([]byte, error) { return refNormalize(n, dst, raw) }},
	} {
		got, err := c.f(append([]byte(nil), prefix...), raw)
		want, werr := c.ref(append([]byte(nil), prefix...), raw)
		if !bytes.Equal(got, want) || (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("%q: %s %q (%v), reference %q (%v)", raw, c.name, got, err, want, werr)
		}
	}
}

func TestArgsPassMatchesReferencesOnSeeds(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	pass := NewArgsPass(n)
	for _, s := range argsPassSeeds {
		checkArgsPass(t, n, pass, []byte(s))
	}
}

// Compact args, the usual kind, take the one pass: it allocates nothing
// once its buffers have grown, where the slow path would.
func TestArgsPassReadsCompactArgsItself(t *testing.T) {
	pass := NewArgsPass(NewArgsNormalizer(DefaultVolatileKeys))
	var short, canon []byte
	for _, s := range []string{
		`{"sql":"SELECT 1 WHERE a = $1","params":["EMEA","2026-07-01"],"request_id":"req_1","limit":50}`,
		`{"q":"Pricing sheet for 2019","top_k":5,"filters":{"lang":"en","after":1.5e3}}`,
		`{"q":"` + strings.Repeat("x", 100) + `"}`,
	} {
		raw := []byte(s)
		if allocs := testing.AllocsPerRun(10, func() {
			f := pass.Derive(raw, true, true, short[:0], canon[:0])
			short, canon = f.Short, f.Canon
		}); allocs != 0 {
			t.Errorf("%s: %v allocations", s, allocs)
		}
	}
}

// BenchmarkArgsPass compares the one pass with the three reference walkers,
// on typical args: keys out of order, a nested object, a number.
func BenchmarkArgsPass(b *testing.B) {
	raw := []byte(`{"query":"quotas per project Okta","index":"eng-wiki","k":5,"params":{"expand":"events"}}`)
	n := NewArgsNormalizer(DefaultVolatileKeys)
	var short, canon, scratch []byte
	b.Run("one", func(b *testing.B) {
		pass := NewArgsPass(n)
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			f := pass.Derive(raw, false, true, short[:0], canon[:0])
			short, canon = f.Short, f.Canon
		}
	})
	b.Run("three", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			_, scratch, _ = refDigestScratch(n, raw, false, scratch)
			short = AppendShortArgs(short[:0], raw, ShortArgsBytes)
			canon, _ = refCanonicalize(canon[:0], raw)
		}
	})
}
