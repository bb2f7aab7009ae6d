package replay_test

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/replay"
)

func TestParseNamesGuardsByTheirNonDefaultParams(t *testing.T) {
	for spec, want := range map[string]string{
		"loopguard":                         "loopguard",
		"loopguard:max_total_calls=8":       "loopguard:max_total_calls=8",
		"loopguard:max_total_calls=10":      "loopguard",
		"breaker:per_tool=0,threshold=2":    "breaker:threshold=2,per_tool=0",
		"maxturns:n=15":                     "maxturns:n=15",
		"maxturns:n=25":                     "maxturns:n=25",
		"maxturns":                          "maxturns:n=10 maxturns:n=15 maxturns:n=25",
		"toolcallguard:size=5,max_repeat=3": "toolcallguard:size=5,max_repeat=3",
	} {
		gs, err := replay.Parse(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		var names []string
		for _, g := range gs {
			names = append(names, g.Name())
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s: named %q, want %q", spec, got, want)
		}
	}
}

func TestParseIsStrict(t *testing.T) {
	for spec, want := range map[string]string{
		"nosuch":                      "unknown guard \"nosuch\"; valid guards: breaker, crewai, dedup, empty-stop, gemini, loopguard",
		"":                            "unknown guard",
		"loopguard:max_same=3":        "unknown param \"max_same\"; valid params: max_same_call (default 2: identical calls allowed per run), max_total_calls (default 10",
		"loopguard:max_same_call":     "want param=value",
		"loopguard:max_same_call=":    "want an integer >= 1",
		"loopguard:max_same_call=two": "want an integer >= 1",
		"loopguard:max_same_call=0":   "want an integer >= 1",
		"gemini:n=1":                  "want an integer >= 2",
		"maxturns:n=1,n=2":            "param n given twice",
		"crewai:n=2":                  "guard crewai takes no params",
		"dedup:":                      "guard dedup takes no params",
		"maxsteps:n=10,":              "want param=value",
	} {
		_, err := replay.Parse(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to contain %q", spec, err, want)
		}
	}
}

func TestSortFollowsTheRegistryThenTheParams(t *testing.T) {
	var gs []replay.Guard
	for _, s := range []string{"openhands", "maxturns:n=25", "breaker", "maxturns:n=9", "maxturns:n=100"} {
		g, err := replay.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g...)
	}
	replay.Sort(gs)
	var names []string
	for _, g := range gs {
		names = append(names, g.Name())
	}
	if got := strings.Join(names, " "); got != "breaker maxturns:n=9 maxturns:n=25 maxturns:n=100 openhands" {
		t.Fatalf("sorted: %s", got)
	}
}
