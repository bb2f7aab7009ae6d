package schema

import (
	"strconv"
	"testing"
)

// parseHex64 stands in for strconv.ParseUint(s, 16, 64) on args_hash
// prefixes; it must agree on every input of 16 bytes.
func FuzzParseHex64MatchesParseUint(f *testing.F) {
	for _, s := range []string{"0123456789abcdef", "FFFFFFFFFFFFFFFF", "0123456789abcdeg", "+123456789abcdef", "0x23456789abcdef", "ffffffffffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) != 16 {
			return
		}
		want, err := strconv.ParseUint(s, 16, 64)
		got, ok := parseHex64(s)
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("%q: got %x %v, want %x %v", s, got, ok, want, err)
		}
	})
}
