package main

import (
	"regexp"
	"strings"
	"testing"
)

// The listings whose sources cite guides by letter say what each letter
// stands for: a user of the binary has no other document to look it up in.
func TestListingsSayWhatTheGuidesAre(t *testing.T) {
	cited := regexp.MustCompile(`guide ([A-Z])\b`)
	for _, args := range [][]string{{"detectors"}, {"replay", "--list"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
		table, legend, ok := strings.Cut(stdout, "\nGuides cited in the sources")
		if !ok {
			t.Fatalf("%v: no legend of the guides:\n%s", args, stdout)
		}
		letters := cited.FindAllStringSubmatch(table, -1)
		if len(letters) == 0 {
			t.Fatalf("%v cites no guide: the test checks nothing", args)
		}
		for _, m := range letters {
			if !strings.Contains(legend, "  guide "+m[1]+": ") {
				t.Errorf("%v cites guide %s, which the legend does not name", args, m[1])
			}
		}
	}
}
