package schema

import (
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

func norm(t *testing.T, n *ArgsNormalizer, in string) string {
	t.Helper()
	out, err := n.Normalize(nil, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return string(out)
}

func TestNormalizeMakesNearDuplicatesEqual(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	a := norm(t, n, `{"q":"Vector  DB benchmark ","request_id":"r-1","opts":{"Trace_ID":"x1","k":5}}`)
	b := norm(t, n, `{"opts":{"k":5,"trace_id":"y2"},"q":"vector db benchmark","request_id":"r-2"}`)
	if a != b || a != `{"opts":{"k":5},"q":"vector db benchmark"}` {
		t.Fatalf("near-duplicates differ:\n%s\n%s", a, b)
	}
}

// A shell command line that ends in an echo of a marker (`&& echo OK`)
// asks what the line without it asks; an echo that prints a status, or a
// line that is only an echo, is kept.
func TestNormalizeDropsAnEchoedMarker(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	bare := norm(t, n, `{"command":"python -m py_compile django/db/models/deletion.py"}`)
	for _, in := range []string{
		`{"command":"python -m py_compile django/db/models/deletion.py && echo OK"}`,
		`{"command":"python -m py_compile django/db/models/deletion.py;  echo \"syntax ok\""}`,
	} {
		if got := norm(t, n, in); got != bare {
			t.Errorf("%s: %s, want %s", in, got, bare)
		}
	}
	if got := norm(t, n, `{"cmd":"make && echo done"}`); got != `{"cmd":"make"}` {
		t.Errorf("cmd: %s", got)
	}
	for _, pair := range [][2]string{
		{`{"command":"make && echo $?"}`, `{"command":"make"}`},
		{`{"command":"make || echo failed > log"}`, `{"command":"make"}`},
		{`{"command":"echo OK"}`, `{"command":"echo"}`},
		{`{"command":"make | echo x"}`, `{"command":"make"}`},
		{`{"query":"docs && echo OK"}`, `{"query":"docs"}`},
	} {
		if norm(t, n, pair[0]) == norm(t, n, pair[1]) {
			t.Errorf("%s and %s must stay different", pair[0], pair[1])
		}
	}
}

func TestNormalizeKeepsWhatChangesTheQuestion(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	for _, pair := range [][2]string{
		{`{"q":"x","page":1}`, `{"q":"x","page":2}`},
		{`{"q":"x","cursor":"abc"}`, `{"q":"x","cursor":"abd"}`},
		{`{"q":"x"}`, `{"q":"y"}`},
		{`{"path":"/a/b"}`, `{"path":"/a/c"}`},
	} {
		if norm(t, n, pair[0]) == norm(t, n, pair[1]) {
			t.Errorf("%s and %s must stay different", pair[0], pair[1])
		}
	}
}

func TestNormalizeTextIsIdempotent(t *testing.T) {
	for _, s := range []string{"", "a", " A  b\t\nC ", "ÉCOLE  Ü", "already clean"} {
		once := normalizeText(s)
		if normalizeText(once) != once {
			t.Errorf("%q: %q is not stable", s, once)
		}
	}
	if got := normalizeText(" A  b\t\nC "); got != "a b c" {
		t.Fatalf("got %q", got)
	}
}

// volatileHashed skips the map for most keys; it must agree with volatile
// on every key, volatile or not, in any case.
func TestVolatileHashedAgreesWithVolatile(t *testing.T) {
	n := NewArgsNormalizer(append([]string{"Idempotency_KEY", "ÉTAT"}, DefaultVolatileKeys...))
	var keys []string
	for _, k := range append(DefaultVolatileKeys, "idempotency_key", "état", "q", "top_k", "", "k", "request", "timestamps") {
		keys = append(keys, k, strings.ToUpper(k), strings.ToUpper(k[:len(k)/2])+k[len(k)/2:])
	}
	keys = append(keys, "idempotency_\u212aey", "ÉTAT", "État", "Ts", "tS")
	for _, k := range keys {
		if got, want := n.volatileHashed(k, xxhash.Sum64String(k)), n.volatile(k); got != want {
			t.Errorf("%q: volatileHashed %v, volatile %v", k, got, want)
		}
	}
	if !n.volatileHashed("ts", xxhash.Sum64String("ts")) || !n.volatileHashed("TS", xxhash.Sum64String("TS")) {
		t.Error("ts is volatile in any case")
	}
}

// The marker a command's trailing echo printed is not part of its answer;
// any other last line is.
func TestTrimEchoedMarker(t *testing.T) {
	cases := []struct {
		data, args, want string
		ok               bool
	}{
		{`"OK\n"`, `{"command":"python -m py_compile a.py && echo OK"}`, "", true},
		{`"a.py:3: warning\nsyntax ok"`, `{"command":"python -m py_compile a.py; echo \"syntax ok\""}`, `"a.py:3: warning\n"`, true},
		{`"OK"`, `{"cmd":"make && echo 'OK'"}`, "", true},
		{`"Traceback ...\nValueError: x"`, `{"command":"python t.py && echo OK"}`, "", false},
		{`"0"`, `{"command":"make; echo $?"}`, "", false},
		{`"OK"`, `{"command":"echo OK"}`, "", false},
		{`"OK"`, `{"query":"x && echo OK"}`, "", false},
	}
	for _, c := range cases {
		got, ok := TrimEchoedMarker([]byte(c.data), []byte(c.args))
		if ok != c.ok || string(got) != c.want {
			t.Errorf("%s after %s: %q %v, want %q %v", c.data, c.args, got, ok, c.want, c.ok)
		}
	}
}
