package redact

import (
	"encoding/binary"
	"sync"
)

// Keys that stand for redacted text (a result's fingerprint, a SimHash)
// cannot go out as computed: anyone could compute them for a guessed text
// and confirm the guess without the key. They are mapped through the key,
// keeping what they are compared by: a fingerprint its equality, a SimHash
// the number of bits in which two of them differ.

const (
	domainFingerprint = 'f'
	domainSimHash     = 'h'
)

// Fingerprint maps a 64-bit fingerprint to a keyed one: equal inputs give
// equal outputs, and distinct ones (all but a 2^-64 chance) distinct ones.
// 0, which stands for "none", stays 0.
func (r *Redactor) Fingerprint(v uint64) uint64 {
	if v == 0 {
		return 0
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return r.seed(domainFingerprint, string(b[:])) | 1
}

// SimHash maps a 64-bit SimHash through a keyed permutation of its bits and
// a keyed mask, so that the Hamming distance between any two is the same
// after as before. 0, which stands for "too little text", stays 0.
func (r *Redactor) SimHash(v uint64) uint64 {
	if v == 0 {
		return 0
	}
	p := r.simPermutation()
	var out uint64
	for i := range 64 {
		out |= (v >> i & 1) << p.to[i]
	}
	if out ^= p.mask; out == 0 {
		// 0 is reserved: the one input that lands there goes to p.mask,
		// which no other input reaches (only 0 would).
		out = p.mask
	}
	return out
}

// simPerm is a keyed permutation of 64 bit positions and a mask.
type simPerm struct {
	to   [64]uint8
	mask uint64
}

// simPermutation derives the redactor's permutation once.
func (r *Redactor) simPermutation() *simPerm {
	r.permOnce.Do(func() {
		p := &simPerm{mask: r.seed(domainSimHash, "mask")}
		for i := range p.to {
			p.to[i] = uint8(i)
		}
		// Fisher-Yates, each swap drawn from the key.
		for i := 63; i > 0; i-- {
			j := r.seed(domainSimHash, string([]byte{'p', byte(i)})) % uint64(i+1)
			p.to[i], p.to[j] = p.to[j], p.to[i]
		}
		r.perm = p
	})
	return r.perm
}

// permState is embedded in Redactor.
type permState struct {
	permOnce sync.Once
	perm     *simPerm
}
