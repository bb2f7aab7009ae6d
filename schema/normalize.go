package schema

import (
	"strings"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// DefaultVolatileKeys are args keys whose values change on every call
// without changing what is asked: request and trace ids, timestamps, nonces,
// idempotency keys, and the agent's own words about the call that coding
// agents' tools ask for beside it (Claude Code's and Gemini CLI's
// `description` of a shell command or a sub-agent's task, Cursor's
// `explanation`): the same command said in other words is the same command.
// Pagination cursors are not among them: a cursor that advances asks for
// something new.
var DefaultVolatileKeys = []string{
	"request_id", "requestid", "trace_id", "traceid", "span_id", "correlation_id", "idempotency_key",
	"nonce", "timestamp", "ts", "time", "now", "client_ts", "uuid", "description", "explanation",
}

// ArgsNormalizer turns args into the form in which near-duplicate calls are
// equal: volatile keys dropped at every depth, strings lower-cased with runs
// of white space collapsed, keys sorted (RFC 8785 canonical form otherwise).
type ArgsNormalizer struct {
	keys map[string]bool
	// hashBits has bit xxhash(k)%64 set for every key: most keys are lower
	// case ASCII, and for them a clear bit answers volatileHashed without
	// the map.
	hashBits uint64
}

// NewArgsNormalizer matches volatile keys ignoring case.
func NewArgsNormalizer(volatileKeys []string) *ArgsNormalizer {
	n := &ArgsNormalizer{keys: make(map[string]bool, len(volatileKeys))}
	for _, k := range volatileKeys {
		k = strings.ToLower(k)
		n.keys[k] = true
		n.hashBits |= 1 << (xxhash.Sum64String(k) & 63)
	}
	return n
}

func (n *ArgsNormalizer) volatile(key string) bool {
	if n.keys[key] {
		return true
	}
	return n.keys[strings.ToLower(key)]
}

// volatileHashed is volatile for a key whose xxhash is kh.
func (n *ArgsNormalizer) volatileHashed(key string, kh uint64) bool {
	if n.hashBits&(1<<(kh&63)) == 0 && isLowerASCII(key) {
		return false // key is its own lower case, and not among the keys
	}
	return n.volatile(key)
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// Normalize appends the normalised form of the JSON value raw to dst.
func (n *ArgsNormalizer) Normalize(dst, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return append(dst, "null"...), nil
	}
	a := ArgsPass{norm: n}
	if _, ok := a.run(raw, false, true, true, dst); !ok {
		return dst, a.err
	}
	return a.out, nil
}
