package redact

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"sync"
	"sync/atomic"
)

// DefaultKey is the key of New(nil): fixed and public, so that redacted
// output is the same on every machine (fixtures are reviewed as diffs).
const DefaultKey = "runaway-redact-v1"

// Redactor turns text and JSON values into equality-preserving placeholders
// (see the package documentation). Its output depends on its key and input
// alone; it is safe for concurrent use.
type Redactor struct {
	key []byte
	// words caches word placeholders (word as written -> placeholder in its
	// case), up to maxCachedWords of them: finding one costs about a
	// hundred hashes, and the logs of a loop repeat their words. It only
	// saves time: a placeholder depends on the key and the word alone.
	words  sync.Map
	cached atomic.Int64
	permState
}

// maxCachedWords bounds the cache (about 5 MiB at most).
const maxCachedWords = 1 << 16

// New returns a Redactor keyed with key; a nil or empty key means
// DefaultKey. The key is copied.
func New(key []byte) *Redactor {
	if len(key) == 0 {
		key = []byte(DefaultKey)
	}
	return &Redactor{key: append([]byte(nil), key...)}
}

// Domains keep the hashes of words, secrets, numbers and case patterns
// apart: the same bytes in two roles get unrelated placeholders.
const (
	domainWord   = 'w'
	domainSecret = 's'
	domainNumber = 'n'
	domainCase   = 'c'
)

// sum is HMAC-SHA256(key, domain || 0 || data).
func (r *Redactor) sum(domain byte, data string) [sha256.Size]byte {
	key := r.key
	if len(key) == 0 { // a zero Redactor is New(nil)
		key = []byte(DefaultKey)
	}
	var mac hash.Hash = hmac.New(sha256.New, key)
	mac.Write([]byte{domain, 0})
	mac.Write([]byte(data))
	var out [sha256.Size]byte
	mac.Sum(out[:0])
	return out
}

// seed is the first 64 bits of sum, for deriving placeholders.
func (r *Redactor) seed(domain byte, data string) uint64 {
	s := r.sum(domain, data)
	return binary.LittleEndian.Uint64(s[:8])
}
