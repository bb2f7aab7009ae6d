package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func simHash(s string) (uint64, int) { return TextSimHash([]byte(s)) }

// pythonListing is a generated Python file of n lines, numbered from
// first as an editor or `cat -n` shows them; seed picks its statements and
// identifiers.
func pythonListing(seed uint64, n, first int) []string {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ident := func() string {
		syl := []string{"ka", "lo", "mer", "tan", "vis", "op", "ul", "dre", "qua", "zen", "fi", "rox", "pel", "gam", "sur", "bex"}
		var b strings.Builder
		for range 2 + rng.IntN(2) {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		return b.String()
	}
	lines := make([]string, n)
	for i := range lines {
		var code string
		switch rng.IntN(5) {
		case 0:
			code = fmt.Sprintf("def %s(%s, %s):", ident(), ident(), ident())
		case 1:
			code = fmt.Sprintf("    %s = %s.%s(%s, %d)", ident(), ident(), ident(), ident(), rng.IntN(100))
		case 2:
			code = fmt.Sprintf("    if %s > %s: %s += %s", ident(), ident(), ident(), ident())
		case 3:
			code = fmt.Sprintf("    %s.append(%s[%s])", ident(), ident(), ident())
		default:
			code = fmt.Sprintf("    return %s(%s)", ident(), ident())
		}
		lines[i] = fmt.Sprintf("%4d  %s", first+i, code)
	}
	return lines
}

func listingHash(lines []string) uint64 {
	h, _ := simHash(strings.Join(lines, "\n"))
	return h
}

func TestTextSimHashIdentical(t *testing.T) {
	text := strings.Join(pythonListing(1, 100, 1), "\n")
	a, wa := simHash(text)
	b, wb := TextSimHash([]byte(strings.Clone(text)))
	if SimHashDistance(a, b) != 0 || wa != wb || a == 0 {
		t.Errorf("identical texts: %x (%d words) and %x (%d words)", a, wa, b, wb)
	}
}

func TestTextSimHashNearDuplicateListing(t *testing.T) {
	before := pythonListing(1, 100, 1)
	after := pythonListing(1, 100, 6) // every line-number prefix shifted by 5
	after[40] = "  46      result = compute_total(items, discount)"
	d := SimHashDistance(listingHash(before), listingHash(after))
	if limit := SimilarityBits(0.9); d > limit {
		t.Errorf("a listing with one line changed and line numbers shifted is %d bits away, want <= %d", d, limit)
	}
	t.Logf("one-line edit: %d bits", d)
}

func TestTextSimHashDifferentListings(t *testing.T) {
	for seed := uint64(2); seed < 7; seed++ {
		d := SimHashDistance(listingHash(pythonListing(1, 100, 1)), listingHash(pythonListing(seed, 100, 1)))
		if d <= 20 {
			t.Errorf("two different generated Python files (seeds 1 and %d) are only %d bits apart, want > 20", seed, d)
		}
		t.Logf("seeds 1 and %d: %d bits", seed, d)
	}
}

func TestTextSimHashOrderMatters(t *testing.T) {
	lines := pythonListing(1, 100, 1)
	for i := range lines {
		lines[i] = lines[i][6:] // no line numbers: only the order differs
	}
	edited := append([]string(nil), lines...)
	edited[40] = "    result = compute_total(items, discount)"
	shuffled := append([]string(nil), lines...)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	})
	orig := listingHash(lines)
	dEdit := SimHashDistance(orig, listingHash(edited))
	dShuffle := SimHashDistance(orig, listingHash(shuffled))
	if dShuffle <= dEdit {
		t.Errorf("shuffled lines are %d bits away, a one-line edit %d: order must count for more", dShuffle, dEdit)
	}
	t.Logf("one-line edit %d bits, shuffled %d bits", dEdit, dShuffle)
}

func TestTextSimHashWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		words int
	}{
		{"", 0},
		{" \n\t--- ... ###", 0},
		{"hello", 1},
		{"hello world", 2},
		{"Hello, world! 42 x_y", 5},
		{"naïve café Größe", 3},
		{"日本語 テキスト", 2},
	} {
		h, n := simHash(c.text)
		if n != c.words {
			t.Errorf("TextSimHash(%q) counts %d words, want %d", c.text, n, c.words)
		}
		if (h == 0) != (n == 0) {
			t.Errorf("TextSimHash(%q) = %x for %d words: 0 must mean no words", c.text, h, n)
		}
	}
}

func TestTextSimHashShortTexts(t *testing.T) {
	a, n := simHash("hello world")
	if n != 2 || a == 0 {
		t.Fatalf("two words: (%x, %d)", a, n)
	}
	if b, _ := simHash("Hello,   WORLD!"); b != a {
		t.Errorf("case and punctuation change a two-word hash: %x != %x", b, a)
	}
	if c, _ := simHash("goodbye world"); c == a {
		t.Errorf("different two-word texts hash alike")
	}
}

func TestTextSimHashNormalisation(t *testing.T) {
	same := [][2]string{
		{"test_api.py line 12 of 40 FAILED", "TEST_API.py line 7 of 3 failed"},
		{"retry 1 of 3: timeout", "retry 2 of 3: timeout"},
		// case and digits are folded alike in words longer than a hash chunk
		{strings.Repeat("Ab", 50) + "123 tail end", strings.Repeat("aB", 50) + "9 tail end"},
	}
	for _, p := range same {
		if a, b := listingHash(p[:1]), listingHash(p[1:]); a != b {
			t.Errorf("%q and %q hash apart", p[0], p[1])
		}
	}
	apart := [][2]string{
		{"ab c d", "a bc d"}, // word boundaries count
		{"one two three", "three two one"},
		{"café au lait", "CAFÉ au lait"}, // only ASCII is lower-cased
	}
	for _, p := range apart {
		if a, b := listingHash(p[:1]), listingHash(p[1:]); a == b {
			t.Errorf("%q and %q hash alike", p[0], p[1])
		}
	}
}

func TestSimHashSimilar(t *testing.T) {
	a, _ := simHash("the quick brown fox jumps over the lazy dog")
	if !SimHashSimilar(a, a, 0) {
		t.Errorf("a hash is not similar to itself")
	}
	if SimHashSimilar(0, 0, 64) || SimHashSimilar(a, 0, 64) {
		t.Errorf("a text without words is similar to something")
	}
	if SimHashDistance(0x0f, 0xf0) != 8 {
		t.Errorf("SimHashDistance(0x0f, 0xf0) = %d, want 8", SimHashDistance(0x0f, 0xf0))
	}
}

func TestSimilarityBits(t *testing.T) {
	for _, c := range []struct {
		sim  float64
		bits int
	}{
		{1, 0}, {1.5, 0}, {0.99, 2}, {0.95, 6}, {0.9, 9}, {0.8, 13}, {0.5, 21}, {0, 32}, {-1, 64}, {-2, 64},
	} {
		if got := SimilarityBits(c.sim); got != c.bits {
			t.Errorf("SimilarityBits(%v) = %d, want %d", c.sim, got, c.bits)
		}
	}
}

func TestTextSimHashNoAllocs(t *testing.T) {
	log := []byte(pytestLog(8 << 10))
	if n := testing.AllocsPerRun(20, func() { TextSimHash(log) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// referenceSimHash is TextSimHash written plainly: the words collected
// into strings, the shingles hashed from them, the votes summed as ints.
func referenceSimHash(text []byte) (uint64, int) {
	var words []uint64
	var w []byte
	inWord, inDigits := false, false
	flush := func() {
		if inWord {
			words = append(words, hashWordChunks(w))
		}
		w, inWord, inDigits = w[:0], false, false
	}
	for _, r := range string(text) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		inWord = true
		switch {
		case '0' <= r && r <= '9':
			if !inDigits {
				w = append(w, '0')
			}
			inDigits = true
			continue
		case r < utf8.RuneSelf:
			r = unicode.ToLower(r)
		}
		inDigits = false
		w = utf8.AppendRune(w, r)
	}
	flush()
	features := words
	if len(words) >= 3 {
		features = nil
		for i := 2; i < len(words); i++ {
			features = append(features, shingleHash(words[i-2], words[i-1], words[i]))
		}
	}
	if len(words) == 0 {
		return 0, 0
	}
	var votes [64]int
	for _, f := range features {
		for bit := range 64 {
			if f>>bit&1 != 0 {
				votes[bit]++
			} else {
				votes[bit]--
			}
		}
	}
	var h uint64
	for bit, v := range votes {
		if v > 0 {
			h |= 1 << bit
		}
	}
	if h == 0 {
		h = 1
	}
	return h, len(words)
}

// FuzzTextSimHash: hashing never panics, is deterministic, agrees with the
// plain reference (which checks the byte lanes and the word fast path),
// and 0 means exactly "no words".
func FuzzTextSimHash(f *testing.F) {
	f.Add([]byte("hello world"))
	f.Add([]byte("Hello, WORLD 42 x_y naïve " + strings.Repeat("Ab1", 40)))
	f.Add([]byte(strings.Join(pythonListing(1, 30, 1), "\n")))
	f.Add([]byte(pytestLog(4 << 10)))
	f.Fuzz(func(t *testing.T, text []byte) {
		h, n := TextSimHash(text)
		h2, n2 := TextSimHash(bytes.Clone(text))
		if h != h2 || n != n2 {
			t.Fatalf("not deterministic: (%x, %d) then (%x, %d)", h, n, h2, n2)
		}
		if rh, rn := referenceSimHash(text); h != rh || n != rn {
			t.Fatalf("TextSimHash(%q) = (%x, %d), reference (%x, %d)", text, h, n, rh, rn)
		}
		if (h == 0) != (n == 0) {
			t.Fatalf("TextSimHash(%q) = (%x, %d)", text, h, n)
		}
	})
}

func BenchmarkTextSimHash(b *testing.B) {
	log := []byte(pytestLog(8 << 10))
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		TextSimHash(log)
	}
}

// encodings are the same text as Go's encoder writes it ('<', '>' and '&'
// as \u003c, \u003e, \u0026) and as most others do (them as they are).
func encodings(t *testing.T, text string) (goJSON, plainJSON []byte) {
	t.Helper()
	goJSON, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(text); err != nil {
		t.Fatal(err)
	}
	return goJSON, bytes.TrimSpace(b.Bytes())
}

// A result's or a call's similarity is of what it says, not of how its
// writer escaped it: a Go logger's \u003c and a Python logger's '<' hash
// alike, and a line break does not join the words around it.
func TestSimHashIgnoresJSONEscaping(t *testing.T) {
	text := "presto-main/src/Test.java:153: (k, v) -> CAST(k AS VARCHAR) || substr(v, 1, 1) && x < y\n" +
		"presto-tests/src/Abstract.java:3228: ON (substr(cast(a.ds AS VARCHAR), 6, 2) = o.orderkey) <b>é</b>"
	goJSON, plainJSON := encodings(t, text)
	if bytes.Equal(goJSON, plainJSON) {
		t.Fatal("the two encodings are equal: the test needs characters Go escapes")
	}
	hGo, _ := (&ToolResult{Data: goJSON}).ResultSimHash(nil)
	hPlain, _ := (&ToolResult{Data: plainJSON}).ResultSimHash(nil)
	if hGo == 0 || hGo != hPlain {
		t.Errorf("result SimHash %016x (Go's escapes) vs %016x (plain): want equal and non-zero", hGo, hPlain)
	}

	argsGo, _ := json.Marshal(map[string]string{"command": "cd /w && python3 - <<'PY'\nfrom django.forms.models import model_to_dict\nprint(model_to_dict(m, fields=['a', 'b']))\nPY"})
	argsPlain := bytes.NewBufferString("")
	enc := json.NewEncoder(argsPlain)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]string{"command": "cd /w && python3 - <<'PY'\nfrom django.forms.models import model_to_dict\nprint(model_to_dict(m, fields=['a', 'b']))\nPY"})
	aGo, _ := ArgsSimHash(argsGo, nil)
	aPlain, _ := ArgsSimHash(bytes.TrimSpace(argsPlain.Bytes()), nil)
	if aGo == 0 || aGo != aPlain {
		t.Errorf("args SimHash %016x (Go's escapes) vs %016x (plain): want equal and non-zero", aGo, aPlain)
	}

	// A line break separates words as a space does.
	nl, _ := (&ToolResult{Data: []byte(`"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\nnu xi omicron pi rho sigma tau upsilon phi chi psi omega"`)}).ResultSimHash(nil)
	sp, _ := (&ToolResult{Data: []byte(`"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega"`)}).ResultSimHash(nil)
	if nl != sp {
		t.Errorf("a line break hashes apart from a space: %016x vs %016x", nl, sp)
	}
}

// FuzzUnescapeForWords: rewriting escapes never panics, never grows the
// text, and leaves text without a backslash as it is.
func FuzzUnescapeForWords(f *testing.F) {
	for _, s := range []string{`a\nb`, `\u003c\u003e`, `\ud83d\ude00`, `\u12`, `x\`, `\\\\n`, `\u00e9t\u00e9`, "plain"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		buf := append([]byte("pre"), in...)
		out := unescapeForWords(bytes.Clone(buf), 3)
		if len(out) > len(buf) || !bytes.Equal(out[:3], []byte("pre")) {
			t.Fatalf("unescapeForWords(%q) = %q: grew or touched what came before", in, out)
		}
		if !bytes.Contains(in, []byte{'\\'}) && !bytes.Equal(out[3:], in) {
			t.Fatalf("unescapeForWords(%q) = %q, want it unchanged", in, out[3:])
		}
	})
}

// A failure's short text is compared by similarity, digits folded: the
// same failure with another build id is the same answer; a success's
// short text, and a failure that says something else, are not.
func TestShortFailuresCompareBySimilarity(t *testing.T) {
	sim := func(data string, failed bool) uint64 {
		ok := !failed
		r := &ToolResult{OK: &ok, Data: []byte(strconv.Quote(data))}
		if failed {
			r.ErrorType = "ERROR"
		}
		h, _ := r.ResultSimHash(nil)
		return h
	}
	a, b := sim("Deployment failed: image build exited with code 1 (build bld_04113)", true), sim("Deployment failed: image build exited with code 1 (build bld_04150)", true)
	if a == 0 || !SimHashSimilar(a, b, SimilarityBits(0.9)) {
		t.Errorf("two failures differing in a build id: %016x, %016x, want similar", a, b)
	}
	if h := sim("Deployment failed: image build exited with code 1 (build bld_04113)", false); h != 0 {
		t.Errorf("a short success has SimHash %016x, want none: it is compared exactly", h)
	}
	c := sim("Deployment failed: registry refused the push (quota exceeded)", true)
	if SimHashSimilar(a, c, SimilarityBits(0.9)) {
		t.Errorf("two different failures are similar: %016x, %016x", a, c)
	}
	if h := sim("failed", true); h != 0 {
		t.Errorf("a one-word failure has SimHash %016x, want none", h)
	}
}
