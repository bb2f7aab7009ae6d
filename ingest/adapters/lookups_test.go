package adapters

import (
	"slices"
	"testing"
)

// A view looked for what its thought names, in code's spelling; it found
// nothing when the window shows none of the names. A thought that looks
// at something, rather than for it, names nothing sought.
func TestMissedLookup(t *testing.T) {
	for _, c := range []struct {
		thought string
		names   []string
	}{
		{"Let's continue looking for the `_nthroot_mod1` function:", []string{"_nthroot_mod1"}},
		{"Let's continue looking for the changelist_view method", []string{"changelist_view"}},
		{"I need to find where AnnotationBase sets xycoords.", []string{"AnnotationBase"}},
		{"Where is `get_resolver()` defined?", []string{"get_resolver"}},
		{"Let's look at the `parse` function.", nil},
		{"Let's search for the config loader.", nil},
		{"", nil},
	} {
		if got := soughtNames(c.thought); !slices.Equal(got, c.names) {
			t.Errorf("soughtNames(%q) = %q, want %q", c.thought, got, c.names)
		}
	}
	window := "   900\tdef nthroot_mod(a, n, p):\n   901\t    return _nthroot_mod1(a, n, p)"
	if missedLookup("Let's continue looking for the `_nthroot_mod1` function", window) {
		t.Error("a window that shows the name it looked for found it")
	}
	if !missedLookup("Let's continue looking for the `_sqrt_mod_prime_power` function", window) {
		t.Error("a window without the name it looked for found nothing")
	}
	if missedLookup("Let's look at the rest of the file.", window) {
		t.Error("a view that looks for nothing cannot miss")
	}
}
