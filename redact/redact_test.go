package redact

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

var placeholderRE = regexp.MustCompile(`^[a-zA-Z2-7]{7}$`)

// The same value gets the same placeholder from separate Redactors and
// goroutines (reports and fixtures redacted apart must agree), and another
// key gives other placeholders.
func TestTextIsAKeyedFunctionOfItsInput(t *testing.T) {
	const goal = "Summarize the Q3 incident report for ACME Corp"
	want := New(nil).Text(goal)
	if New([]byte(DefaultKey)).Text(goal) != want || new(Redactor).Text(goal) != want {
		t.Error("New(nil) or a zero Redactor does not use DefaultKey")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	shared := New(nil)
	for range 64 {
		wg.Go(func() {
			if got := shared.Text(goal); got != want {
				errs <- got
			}
		})
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("concurrent Text = %q, want %q", got, want)
	}
	if other := New([]byte("another key")).Text(goal); other == want {
		t.Errorf("another key gave the same text %q", other)
	}
	if strings.Contains(want, "Summarize") || strings.Contains(want, "incident") || strings.Contains(want, "ACME") {
		t.Errorf("words survived: %q", want)
	}
}

func TestTextKeepsShape(t *testing.T) {
	r := New(nil)
	in := "Fetch page 2 of the  ACME report, then Retry!\n(v3.25.0)"
	got := r.Text(in)
	// Everything but the words stays: white space, punctuation, short
	// numbers, stop words.
	nonWord := regexp.MustCompile(`[A-Za-z0-9]+`)
	if a, b := nonWord.ReplaceAllString(in, "_"), nonWord.ReplaceAllString(got, "_"); a != b {
		t.Errorf("layout changed: %q -> %q", in, got)
	}
	if !strings.Contains(got, " 2 of the  ") || !strings.Contains(got, ".25.0)") {
		t.Errorf("numbers or stop words not kept: %q", got)
	}
	fields := strings.Fields(got)
	if len(fields) != 10 {
		t.Fatalf("got %q", got)
	}
	fetch, page, acme := fields[0], fields[1], fields[5]
	if !startsWithDigitTitle(fetch) && !(fetch[:1] == strings.ToUpper(fetch[:1]) && fetch[1:] == strings.ToLower(fetch[1:])) {
		t.Errorf("Fetch -> %q: not in title case", fetch)
	}
	if page != strings.ToLower(page) || len(page) != 7 {
		t.Errorf("page -> %q: want a 7-character lower-case placeholder", page)
	}
	if acme != strings.ToUpper(acme) || len(acme) != 7 {
		t.Errorf("ACME -> %q: want a 7-character upper-case placeholder", acme)
	}
	for _, w := range []string{"Fetch", "page", "ACME", "report", "Retry", "v3"} {
		if strings.Contains(got, w) {
			t.Errorf("%q survived in %q", w, got)
		}
	}
}

// startsWithDigitTitle: a placeholder starting with a digit gets its first
// letter upper-cased.
func startsWithDigitTitle(w string) bool {
	seen := false
	for _, c := range w {
		if c >= 'a' && c <= 'z' {
			return false
		}
		if c >= 'A' && c <= 'Z' {
			if seen {
				return false
			}
			seen = true
		}
	}
	return seen
}

func normalizedString(t *testing.T, s string) string {
	t.Helper()
	raw, _ := json.Marshal(s)
	out, err := schema.NewArgsNormalizer(nil).Normalize(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Two texts are equal, and equal after normalising case and white space
// (near-duplicate args, repeated reasons), exactly when their redactions
// are.
func TestTextPreservesEqualityAndNormalisedEquality(t *testing.T) {
	r := New(nil)
	texts := []string{
		"vector db benchmark", "Vector  DB benchmark ", "VECTOR DB BENCHMARK", "vector db benchmarks",
		"Vector DB Benchmark", "vEctor db benchmark", "veCtor db benchmark", "vector\tdb\nbenchmark",
		"retry the search.", "Retry the  search.", "retry the search!", "검색 결과 없음", "검색  결과 없음",
		"page 2", "page 3", "page 12345", "page 12346", "AutoGPT memory loop", "autogpt memory loop",
		"", " ", "a", "A", "é", "É", "Straße", "STRASSE",
	}
	for _, a := range texts {
		for _, b := range texts {
			ra, rb := r.Text(a), r.Text(b)
			if (a == b) != (ra == rb) {
				t.Errorf("exact equality of %q, %q: %v; of their redactions %q, %q: %v", a, b, a == b, ra, rb, ra == rb)
			}
			na, nb := normalizedString(t, a), normalizedString(t, b)
			nra, nrb := normalizedString(t, ra), normalizedString(t, rb)
			if (na == nb) != (nra == nrb) {
				t.Errorf("normalised equality of %q, %q: %v; of their redactions %q, %q: %v", a, b, na == nb, ra, rb, nra == nrb)
			}
		}
	}
}

func wordsOf(t *testing.T, argsJSON []byte) uint64 {
	t.Helper()
	d, err := schema.NewArgsNormalizer(schema.DefaultVolatileKeys).Digest(argsJSON, true)
	if err != nil {
		t.Fatal(err)
	}
	return d.Words
}

// The empty-result detector groups rephrased queries by their word
// signature: redaction keeps each signature bit for bit.
func TestJSONKeepsTheWordSignature(t *testing.T) {
	r := New(nil)
	queries := []string{
		"AutoGPT memory loop runaway", "autogpt memory loops", "how to stop an agent loop", "Agent loop detection 2026",
		"the best vector db for rag", "Q3 revenue by region (EMEA, APAC)", "flights from ICN to SFO on 2026-12-01",
		"조직 개편 보고서", "what is the capital of Ｆrance", "x y z", "a b", "über cafés", "v1.2.3 release notes",
		"the of and or in on for to an is are with by at from what how which who about vs as be",
	}
	for _, q := range queries {
		args := fmt.Appendf(nil, `{"q": %q, "request_id": "req-%d", "lang": "EN"}`, q, len(q))
		red, err := r.JSON(args)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := wordsOf(t, red), wordsOf(t, args); got != want {
			t.Errorf("%s -> %s: word signature %064b, want %064b", args, red, got, want)
		}
	}
}

// Every stop word of the word signature must stay verbatim: a signature
// stop word that became a placeholder would add a bit the original lacked.
// The list below is schema/normhash.go's; a word the signature ignores has
// signature 0.
func TestStopWordsCoverTheSignatureStopWords(t *testing.T) {
	r := New(nil)
	for _, w := range strings.Fields("the of and or in on for to an is are with by at from what how which who about vs as be") {
		raw := fmt.Appendf(nil, "%q", w)
		if wordsOf(t, raw) != 0 {
			t.Fatalf("%q is not a stop word of the signature any more: update this test and stopWords", w)
		}
		if got := r.Text(w); got != w {
			t.Errorf("stop word %q became %q", w, got)
		}
	}
}

func TestJSONKeepsStructureTypesAndSmallIntegers(t *testing.T) {
	r := New(nil)
	in := `{ "q" : "Vector DB", "top_k": 5, "page": -3, "id": 123456789, "price": 12.5, "big": 1.5e22,
  "ok": true, "none": null, "tags": ["alpha", "beta", 7], "nested": {"deep": [{"x": "y"}]}, "empty": "", "blank": "  ", "list": [] }`
	out, err := r.JSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	var orig map[string]any
	json.Unmarshal([]byte(in), &orig)
	for k := range orig {
		if _, ok := got[k]; !ok {
			t.Errorf("key %q lost", k)
		}
	}
	if got["top_k"] != 5.0 || got["page"] != -3.0 || got["ok"] != true || got["none"] != nil || got["empty"] != "" || got["blank"] != "  " {
		t.Errorf("small integers, booleans, null or blank strings changed: %s", out)
	}
	id := got["id"].(float64)
	if id == 123456789 || id != float64(int64(id)) || id < 1e8 || id >= 1e9 {
		t.Errorf("id 123456789 -> %v: want another 9-digit integer", id)
	}
	if p := got["price"].(float64); p == 12.5 || p == float64(int64(p)) {
		t.Errorf("price 12.5 -> %v: want another non-integer", p)
	}
	if !strings.Contains(string(out), "e+") {
		t.Errorf("exponent notation lost: %s", out)
	}
	if got["q"] == "Vector DB" || got["tags"].([]any)[2] != 7.0 {
		t.Errorf("strings not redacted or array integers changed: %s", out)
	}
	// White space between tokens is kept byte for byte.
	strip := regexp.MustCompile(`"(?:[^"\\]|\\.)*"|[-0-9.eE+]+`)
	if a, b := strip.ReplaceAllString(in, "_"), strip.ReplaceAllString(string(out), "_"); a != b {
		t.Errorf("layout changed:\n%s\n%s", a, b)
	}
	if _, err := r.JSON([]byte(`{"a": `)); err == nil {
		t.Error("invalid JSON accepted")
	}
}

// Numbers are mapped by value, so args equal in canonical form stay equal;
// the notation is kept, so payloads written differently stay different.
func TestJSONNumbersMapByValueKeepingNotation(t *testing.T) {
	r := New(nil)
	canon := func(s string) string {
		out, err := r.JSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		c, err := schema.Canonicalize(nil, out)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		return string(c)
	}
	if a, b := canon(`{"n": 100000}`), canon(`{"n": 1e5}`); a != b {
		t.Errorf("100000 and 1e5 canonicalise apart after redaction: %s vs %s", a, b)
	}
	if a, b := canon(`{"n": 100000}`), canon(`{"n": 100001}`); a == b {
		t.Errorf("100000 and 100001 merged: %s", a)
	}
	x, _ := r.JSON([]byte(`[100000, 1e5, 100000.0, -0.25]`))
	var parts []json.RawMessage
	json.Unmarshal(x, &parts)
	if string(parts[0]) == string(parts[1]) || string(parts[0]) == string(parts[2]) || !strings.Contains(string(parts[1]), "e") || !strings.HasSuffix(string(parts[2]), ".0") {
		t.Errorf("notation not kept: %s", x)
	}
	if !strings.HasPrefix(string(parts[3]), "-0.") {
		t.Errorf("-0.25 -> %s: want a negative fraction", parts[3])
	}
}

// planted holds one secret of each kind and where it hides.
var planted = []struct{ kind, text, secret string }{
	{"apikey", "use key sk-proj-Abc123def456GHI789jkl0 please", "sk-proj-Abc123def456GHI789jkl0"},
	{"aws", "creds AKIAIOSFODNN7EXAMPLE for s3", "AKIAIOSFODNN7EXAMPLE"},
	{"github", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a in env", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
	{"bearer", "Authorization: Bearer tok-9f8e7d6c5b4a3f2e1d0c", "tok-9f8e7d6c5b4a3f2e1d0c"},
	{"jwt", "session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
	{"password", "fetch https://admin:hunter2pass@db.internal.example/x", "hunter2pass"},
	{"email", "mail jane.doe+ops@example.co.uk now", "jane.doe+ops@example.co.uk"},
	{"credential", "login with password=Sup3rS3cret! then", "Sup3rS3cret!"},
	{"slack", "hook xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij"},
	{"google", "maps AIzaSyA1234567890abcdefghijklmnopqrstu", "AIzaSyA1234567890abcdefghijklmnopqrstu"},
	{"privatekey", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"},
}

func TestSecretsNeverSurvive(t *testing.T) {
	r := New(nil)
	for _, p := range planted {
		for name, out := range map[string]string{"Secrets": r.Secrets(p.text), "Text": r.Text(p.text)} {
			if strings.Contains(out, p.secret) {
				t.Errorf("%s(%q) = %q: the %s secret survived", name, p.text, out, p.kind)
			}
			if !strings.Contains(out, "secret-"+p.kind+"-") {
				t.Errorf("%s(%q) = %q: no secret-%s placeholder", name, p.text, out, p.kind)
			}
		}
		raw, _ := json.Marshal(map[string]string{"note": p.text})
		out, err := r.JSON(raw)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), p.secret) {
			t.Errorf("JSON(%s) = %s: the %s secret survived", raw, out, p.kind)
		}
	}
	// The same secret always gets the same placeholder.
	if a, b := r.Secrets("k sk-proj-Abc123def456GHI789jkl0"), r.Secrets("sk-proj-Abc123def456GHI789jkl0 k"); strings.Fields(a)[1] != strings.Fields(b)[0] {
		t.Errorf("one secret, two placeholders: %q %q", a, b)
	}
}

// SecretsIn finds what Secrets replaces, with the same placeholders: a
// caller that replaces the secrets it found in one string elsewhere writes
// what Secrets would have.
func TestSecretsInAgreesWithSecrets(t *testing.T) {
	r := New(nil)
	for _, p := range planted {
		var pairs []string
		found := false
		r.SecretsIn(p.text, func(secret, placeholder string) {
			pairs = append(pairs, secret, placeholder)
			found = found || strings.Contains(secret, p.secret)
		})
		if !found {
			t.Errorf("SecretsIn(%q): %q, without the %s secret", p.text, pairs, p.kind)
			continue
		}
		if got, want := strings.NewReplacer(pairs...).Replace(p.text), r.Secrets(p.text); got != want {
			t.Errorf("SecretsIn(%q) replaced gives %q, Secrets %q", p.text, got, want)
		}
	}
}

func TestCredentialKeysHideTheirValues(t *testing.T) {
	r := New(nil)
	out, err := r.JSON([]byte(`{"api_key": "plainvalue", "pin_password": 1234, "X-Access-Token": ["a1", "b2"], "max_tokens": 500}`))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, leak := range []string{"plainvalue", "1234", `"a1"`, `"b2"`} {
		if strings.Contains(s, leak) {
			t.Errorf("%s survived in %s", leak, s)
		}
	}
	if !strings.Contains(s, `"max_tokens": 500`) {
		t.Errorf("max_tokens is not a credential: %s", s)
	}
}

// Ordinary text is not mistaken for a secret: Secrets leaves it readable.
func TestSecretsLeavesOrdinaryTextAlone(t *testing.T) {
	r := New(nil)
	for _, s := range []string{
		"the bearer of bad news", "max_tokens: 500", "meeting at 12:30 about tokens", "see https://example.com/docs",
		"Need more sources", "error: RATE_LIMIT status=429", "ask@ the desk", "basic information needed",
	} {
		if got := r.Secrets(s); got != s {
			t.Errorf("Secrets(%q) = %q", s, got)
		}
	}
}

func TestPlaceholdersAreShortWords(t *testing.T) {
	r := New(nil)
	for _, w := range []string{"incident", "Summarize", "ACME", "GitHub", "검색", "12345"} {
		p := r.Text(w)
		if !placeholderRE.MatchString(p) {
			t.Errorf("Text(%q) = %q: want 7 letters and digits", w, p)
		}
	}
	// Mixed-case spellings of one word differ from each other and from the
	// lower, upper and title spellings, and all lower-case to one word.
	seen := map[string]string{}
	for _, w := range []string{"github", "GITHUB", "Github", "GitHub", "gitHub", "GiTHub"} {
		p := r.Text(w)
		if prev, dup := seen[p]; dup {
			t.Errorf("%q and %q both became %q", prev, w, p)
		}
		seen[p] = w
		if strings.ToLower(p) != r.Text("github") {
			t.Errorf("%q -> %q does not lower-case to the placeholder of github", w, p)
		}
	}
}

// The JSON key test and the key=value regexp name the same credentials.
func TestCredentialKeysAgree(t *testing.T) {
	re := regexp.MustCompile(`(?i)^` + credentialKey + `$`)
	for _, s := range credentialSuffixes {
		if !re.MatchString(s) || !isCredentialKey("x_"+s) {
			t.Errorf("%q: regexp %v, key %v", s, re.MatchString(s), isCredentialKey("x_"+s))
		}
	}
	for _, k := range []string{"max_tokens", "query", "keyword", "author"} {
		if isCredentialKey(k) {
			t.Errorf("%q taken for a credential", k)
		}
	}
}

// What a turn asks for survives redaction: the words that make a sentence
// a request stay verbatim, so TalkAsks finds the same asks in the redacted
// turn, and an ask said again stays the same ask.
func TestRedactionKeepsAsks(t *testing.T) {
	r := New(nil)
	for _, w := range schema.AskWords() {
		if got := r.Text(w); got != w {
			t.Errorf("request word %q became %q", w, got)
		}
	}
	first := "I'll need your reservation ID to proceed. Kindly provide the booking reference."
	again := "Only one certificate per booking. Please provide the reservation ID."
	orig, red := schema.TalkAsks(first+" "+again), schema.TalkAsks(r.Text(first+" "+again))
	if len(orig) != 3 || len(red) != len(orig) {
		t.Fatalf("asks %q, redacted %q", orig, red)
	}
	for i := range orig {
		if len(red[i]) != len(orig[i]) {
			t.Errorf("ask %d: %q, redacted %q", i, orig[i], red[i])
		}
	}
	if !slices.Equal(red[0], red[2]) {
		t.Errorf("the same ask differs once redacted: %q and %q", red[0], red[2])
	}
}

// ChatDev's conclusion mark stays as it is, the words around it become
// placeholders: RA208 reads the mark as no word of the turn, so a
// redacted "<INFO> Python." must still say the point of "Python.".
func TestTextKeepsTheConclusionMark(t *testing.T) {
	r := New(nil)
	got := r.Text("<INFO> Python.")
	if !strings.HasPrefix(got, schema.ConclusionMark+" ") || strings.Contains(got, "Python") {
		t.Fatalf("%q: want the mark kept and the word replaced", got)
	}
	if want := schema.ConclusionMark + " " + r.Text("Python."); got != want {
		t.Errorf("%q, want %q: the word after the mark redacted as it is alone", got, want)
	}
}
