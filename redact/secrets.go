package redact

import (
	"regexp"
	"slices"
	"strings"
)

// secretPattern finds one kind of secret. group is the submatch that is the
// secret itself (0: the whole match), so "Bearer " or "password=" stay
// readable; trigger is a cheap test that the text may hold one, so most
// text is never searched with the regexp.
type secretPattern struct {
	kind    string
	re      *regexp.Regexp
	group   int
	trigger func(string) bool
	valid   func(string) bool // nil: every match
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

func containsFold(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(strings.ToLower(s), sub) }
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// credentialKey is a key name whose value is a secret, in key=value text and
// in JSON objects: a name ending in one of these (access_token, db_password,
// X-Api-Key, clientSecret). "tokens" does not end in "token": max_tokens
// is a number, not a secret.
const credentialKey = `(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|authorization|auth|credentials?|cookie|session[_-]?id|sessionid)`

// isCredentialKey reports whether a JSON key names a credential: it ends
// in one of credentialKey's names.
func isCredentialKey(key string) bool {
	if len(key) < 3 {
		return false
	}
	lower := strings.ToLower(key)
	for _, suffix := range credentialSuffixes {
		if strings.HasSuffix(lower, suffix) {
			return true
		}
	}
	return false
}

// credentialSuffixes spell out credentialKey.
var credentialSuffixes = []string{"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "api_key", "api-key",
	"accesskey", "access_key", "access-key", "privatekey", "private_key", "private-key", "authorization", "auth",
	"credential", "credentials", "cookie", "sessionid", "session_id", "session-id"}

// patterns are tried in this order; of two secrets that start at the same
// place, the earlier pattern wins.
var patterns = []secretPattern{
	{kind: "privatekey", re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`),
		trigger: contains("PRIVATE KEY")},
	{kind: "password", re: regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*:([^\s/@]+)@`), group: 1,
		trigger: contains("://")},
	{kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`),
		trigger: contains("eyJ")},
	{kind: "bearer", re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`), group: 1,
		trigger: containsFold("bearer"), valid: func(s string) bool { return len(s) >= 16 || hasDigit(s) }},
	{kind: "basic", re: regexp.MustCompile(`(?i)\bauthorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})`), group: 1,
		trigger: containsFold("basic")},
	{kind: "apikey", re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`), trigger: contains("sk-")},
	{kind: "apikey", re: regexp.MustCompile(`\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}`), trigger: contains("k_")},
	{kind: "aws", re: regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`), trigger: func(s string) bool {
		for _, p := range []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"} {
			if strings.Contains(s, p) {
				return true
			}
		}
		return false
	}},
	{kind: "github", re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`), trigger: func(s string) bool {
		return strings.Contains(s, "gh") || strings.Contains(s, "github_pat_")
	}},
	{kind: "slack", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), trigger: contains("xox")},
	{kind: "google", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{30,}`), trigger: contains("AIza")},
	{kind: "credential", re: regexp.MustCompile(`(?i)` + credentialKey + `["']?\s*[:=]\s*["']?([^\s"'&,;]{4,})`), group: 1,
		trigger: mayHoldCredential,
		valid:   func(s string) bool { return !strings.HasPrefix(s, "secret-") }},
	{kind: "email", re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`),
		trigger: contains("@")},
}

// credentialWords are the stems of credentialKey, lower case: a text
// without any of them holds no key=value credential, and most text is
// spared the regexp.
var credentialWords = []string{"pass", "pwd", "secret", "token", "key", "auth", "credential", "cookie", "session"}

func mayHoldCredential(s string) bool {
	if !strings.ContainsAny(s, "=:") {
		return false
	}
	lower := strings.ToLower(s)
	for _, w := range credentialWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

type span struct {
	start, end int
	kind       string
	order      int
}

// secretSpans returns the secrets of s, sorted and not overlapping.
func secretSpans(s string) []span {
	var found []span
	for order, p := range patterns {
		if !p.trigger(s) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*p.group], m[2*p.group+1]
			if start < 0 || (p.valid != nil && !p.valid(s[start:end])) {
				continue
			}
			found = append(found, span{start: start, end: end, kind: p.kind, order: order})
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.order - b.order
	})
	out := found[:0]
	end := 0
	for _, f := range found {
		if f.start >= end {
			out = append(out, f)
			end = f.end
		}
	}
	return out
}

// secretPlaceholder is "secret-<kind>-<hash>": the hash is keyed on the
// lower-cased secret and takes its capitalisation pattern, like a word.
func (r *Redactor) secretPlaceholder(kind, secret string) string {
	h := r.applyCase(r.secretHash(strings.ToLower(secret)), secret)
	return "secret-" + kind + "-" + string(h)
}

// SecretsIn calls fn with each secret of s, as Secrets finds it, and its
// placeholder. A caller that holds a secret found in one string (a run id)
// can replace it wherever else it appears, even where its neighbours would
// hide it from the patterns (a tool name glued to "error_" by a word
// character, say).
func (r *Redactor) SecretsIn(s string, fn func(secret, placeholder string)) {
	for _, sp := range secretSpans(s) {
		secret := s[sp.start:sp.end]
		fn(secret, r.secretPlaceholder(sp.kind, secret))
	}
}

// Secrets replaces only the secrets of s by their placeholders, for text
// that stays readable (messages, evidence, ids).
func (r *Redactor) Secrets(s string) string {
	spans := secretSpans(s)
	if spans == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, sp := range spans {
		b.WriteString(s[prev:sp.start])
		b.WriteString(r.secretPlaceholder(sp.kind, s[sp.start:sp.end]))
		prev = sp.end
	}
	b.WriteString(s[prev:])
	return b.String()
}
