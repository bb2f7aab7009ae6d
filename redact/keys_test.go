package redact

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// A keyed SimHash keeps every Hamming distance, and a keyed fingerprint
// every equality; neither is the input, both depend on the key, and 0
// ("none") stays 0.
func TestKeyedKeysKeepWhatTheyAreComparedBy(t *testing.T) {
	r, other := New(nil), New([]byte("another key"))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := rng.Uint64()|1, rng.Uint64()|1
		if got, want := bits.OnesCount64(r.SimHash(a)^r.SimHash(b)), bits.OnesCount64(a^b); got != want {
			t.Fatalf("SimHash: distance %d, want %d (%x, %x)", got, want, a, b)
		}
		// Near ones stay near: a flipped bit is one bit away.
		c := a ^ 1<<(rng.Uint64()%64)
		if d := bits.OnesCount64(r.SimHash(a) ^ r.SimHash(c)); d != 1 {
			t.Fatalf("one bit apart became %d apart", d)
		}
		if r.Fingerprint(a) == r.Fingerprint(b) || r.Fingerprint(a) != r.Fingerprint(a) {
			t.Fatalf("fingerprint equality not kept for %x, %x", a, b)
		}
		if r.SimHash(a) == a || r.Fingerprint(a) == a || r.SimHash(a) == other.SimHash(a) || r.Fingerprint(a) == other.Fingerprint(a) {
			t.Fatalf("%x: a key's output is the input, or the same under another key", a)
		}
	}
	if r.SimHash(0) != 0 || r.Fingerprint(0) != 0 {
		t.Error("0 is not kept")
	}
}
