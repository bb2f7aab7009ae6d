package schema

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

func canon(t *testing.T, in string) string {
	t.Helper()
	out, err := Canonicalize(nil, []byte(in))
	if err != nil {
		t.Fatalf("Canonicalize(%s): %v", in, err)
	}
	return string(out)
}

// The example of RFC 8785 section 3.2.2.
func TestCanonicalizeRFC8785Example(t *testing.T) {
	in := `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	if got := canon(t, in); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// RFC 8785 section 3.2.3: keys sort by UTF-16 code units, so the emoji
// (a surrogate pair starting 0xD83D) sorts before U+FB33.
func TestCanonicalizeSortsByUTF16(t *testing.T) {
	in := `{"\u20ac":"Euro","\r":"CR","\ufb33":"Dalet","1":"One","\ud83d\ude00":"Emoji","\u0080":"Ctl","\u00f6":"o"}`
	got := canon(t, in)
	want := "{\"\\r\":\"CR\",\"1\":\"One\",\"\u0080\":\"Ctl\",\"ö\":\"o\",\"€\":\"Euro\",\"😀\":\"Emoji\",\"\ufb33\":\"Dalet\"}"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestCanonicalizeNumbers(t *testing.T) {
	cases := map[string]string{
		"-0": "0", "1.0": "1", "1e21": "1e+21", "1e20": "100000000000000000000",
		"0.000001": "0.000001", "0.0000001": "1e-7", "-1.5E-10": "-1.5e-10",
		"123456789012345680000": "123456789012345680000", "9007199254740993": "9007199254740992",
	}
	for in, want := range cases {
		if got := canon(t, in); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

func TestCanonicalizeNoHTMLEscapingAndLastKeyWins(t *testing.T) {
	if got, want := canon(t, `{"q":"<a href='x'>&</a>","q":"<b>"}`), `{"q":"<b>"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got, want := canon(t, `{"q":"<a>&"}`), `{"q":"<a>&"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestCanonicalizeRejectsBadJSON(t *testing.T) {
	for _, in := range []string{`{`, `{"a"}`, `[1,]`, `01`, `"x`, `{"a":1}x`, `nul`, "\"a\x01\"", `1e999`} {
		if _, err := Canonicalize(nil, []byte(in)); err == nil {
			t.Errorf("Canonicalize(%q) accepted invalid JSON", in)
		}
	}
}

// Canonical output must be valid JSON that decodes to the same value.
func TestCanonicalizeRoundTrips(t *testing.T) {
	in := `{"b":[1,{"z":null,"y":"\u00e9\ud83d\ude00"}],"a":{"nested":{"k":true}},"c":"tab\there"}`
	out := canon(t, in)
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatalf("canonical output is not JSON: %v: %s", err, out)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("value changed:\n%s\n%s", ja, jb)
	}
}

// seedStableStringify reproduces guides A and C:
// JSON.stringify(obj, Object.keys(obj).sort()). An array replacer is an
// allow-list of property names applied at every depth, so nested keys that
// are not also top-level keys vanish.
func seedStableStringify(v any) string {
	top, _ := v.(map[string]any)
	allow := map[string]bool{}
	for k := range top {
		allow[k] = true
	}
	var enc func(v any) string
	enc = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			var keys []string
			for k := range top { // order of the replacer array: sorted top-level keys
				if _, ok := x[k]; ok {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				if allow[k] {
					kb, _ := json.Marshal(k)
					parts = append(parts, string(kb)+":"+enc(x[k]))
				}
			}
			return "{" + strings.Join(parts, ",") + "}"
		case []any:
			var parts []string
			for _, e := range x {
				parts = append(parts, enc(e))
			}
			return "[" + strings.Join(parts, ",") + "]"
		default:
			b, _ := json.Marshal(x)
			return string(b)
		}
	}
	return enc(v)
}

func mustHash(t *testing.T, args string) string {
	t.Helper()
	h, err := ArgsHash([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Seed defect 1: different nested args collide under stableStringify.
func TestArgsHashKeepsNestedKeys(t *testing.T) {
	a := `{"filter":{"user":"alice"},"limit":10}`
	b := `{"filter":{"user":"mallory"},"limit":10}`
	var va, vb any
	_ = json.Unmarshal([]byte(a), &va)
	_ = json.Unmarshal([]byte(b), &vb)
	if seedStableStringify(va) != seedStableStringify(vb) {
		t.Fatalf("the guides' emulation should collide: %s vs %s", seedStableStringify(va), seedStableStringify(vb))
	}
	if seedStableStringify(va) != `{"filter":{},"limit":10}` {
		t.Fatalf("seed emulation drifted: %s", seedStableStringify(va))
	}
	if mustHash(t, a) == mustHash(t, b) {
		t.Fatal("ArgsHash collides on different nested args, as the guides' stableStringify does")
	}
}

// Seed defect 2: guide B's hashArgs = sha256(JSON.stringify(args)) depends
// on key order, so the same call hashes two ways.
func TestArgsHashIgnoresKeyOrder(t *testing.T) {
	a := `{"q":"AutoGPT memory loop","opts":{"lang":"en","top_k":5}}`
	b := `{"opts":{"top_k":5,"lang":"en"},"q":"AutoGPT memory loop"}`
	if seedStyle(a) == seedStyle(b) {
		t.Fatal("key order should change the guide B hash input")
	}
	if mustHash(t, a) != mustHash(t, b) {
		t.Fatal("ArgsHash depends on key order")
	}
	if mustHash(t, `{"q":1}`) != mustHash(t, "{ \"q\" : 1.0 }") {
		t.Fatal("ArgsHash depends on white space or number spelling")
	}
}

// seedStyle is JSON.stringify without sorting: the bytes as written, minus space.
func seedStyle(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	_ = enc.Encode(json.RawMessage(s))
	return b.String()
}

func TestArgsHashFormat(t *testing.T) {
	h := mustHash(t, `{}`)
	// sha256("{}")
	if h != "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" {
		t.Fatalf("got %s", h)
	}
	if mustHash(t, "") != HashCanonical([]byte("null")) {
		t.Fatal("absent args should hash as null")
	}
}

// strView, the copy-free reader of plain strings, reads what str reads.
func FuzzStrViewMatchesStr(f *testing.F) {
	for _, s := range []string{`"abc"`, `""`, `"a\"b"`, `"é"`, "\"a\x01\"", `"unterminated`, `"a\u0041"`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 || in[0] != '"' {
			return
		}
		a, b := refParser{in: in}, refParser{in: in}
		want, werr := a.str()
		got, gerr := b.strView()
		if want != got || (werr == nil) != (gerr == nil) || a.pos != b.pos {
			t.Fatalf("%q: str %q %v at %d, strView %q %v at %d", in, want, werr, a.pos, got, gerr, b.pos)
		}
	})
}
