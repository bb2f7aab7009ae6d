package replay_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/runtest"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/runstore"
)

// collect runs the real read path over JSONL texts (runtest).
func collect(t *testing.T, texts ...string) *runstore.Collector {
	t.Helper()
	return runtest.Collect(t, detect.DefaultPolicy(), texts...)
}

// replayText replays guards (specs, as --guard takes them) over JSONL
// texts. labels nil: runaway's verdicts are the truth.
func replayText(t *testing.T, specs []string, labels map[string]replay.Label, texts ...string) *replay.Report {
	t.Helper()
	rp := replay.New(guards(t, specs...), labels)
	collect(t, texts...).Visit(detect.DefaultPolicy(), 4, rp.Visit)
	return rp.Report()
}

func guards(t *testing.T, specs ...string) []replay.Guard {
	t.Helper()
	var gs []replay.Guard
	for _, s := range specs {
		g, err := replay.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g...)
	}
	return gs
}

// outcome finds where the guard stopped the run: its stop, the class it was
// reported under ("" if not stopped).
func outcome(t *testing.T, rep *replay.Report, guard, run string) (replay.Stop, string) {
	t.Helper()
	for _, g := range rep.Guards {
		if g.Name != guard {
			continue
		}
		for _, s := range g.Runaway.Stops {
			if s.RunID == run {
				return s.Stop, "runaway"
			}
		}
		for _, s := range g.Suspicious.Stops {
			if s.RunID == run {
				return s, "suspicious"
			}
		}
		for _, s := range g.Healthy.Stops {
			if s.RunID == run {
				return s, "healthy"
			}
		}
		return replay.Stop{}, ""
	}
	t.Fatalf("no guard %q in the report", guard)
	return replay.Stop{}, ""
}

// runBuilder writes one run's JSONL, numbering steps from 0.
type runBuilder struct {
	id    string
	lines []string
}

func newRun(id string) *runBuilder { return &runBuilder{id: id} }

// add appends a step; body is the JSON members after run_id and step.
func (r *runBuilder) add(body string) *runBuilder {
	line := fmt.Sprintf(`{"run_id":%q,"step":%d`, r.id, len(r.lines))
	if body != "" {
		line += "," + body
	}
	r.lines = append(r.lines, line+"}")
	return r
}

// call appends an ACT step calling tool with args, returning result (a
// tool_result object).
func (r *runBuilder) call(tool, args, result string) *runBuilder {
	return r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":%q,"args":%s},"tool_result":%s`, tool, args, result))
}

func (r *runBuilder) eval() *runBuilder { return r.add(`"state":"EVAL"`) }

func (r *runBuilder) text() string { return strings.Join(r.lines, "\n") + "\n" }

// Results used by the tests.
const (
	okA    = `{"ok":true,"data":{"answer":"a"}}`
	okB    = `{"ok":true,"data":{"answer":"b"}}`
	fail   = `{"ok":false,"error_type":"TIMEOUT","status":504}`
	empty  = `{"ok":true,"items":[],"result_count":0}`
	argsA  = `{"q":"a"}`
	argsB  = `{"q":"b"}`
	argsC  = `{"q":"c"}`
	search = "search"
)

// healthy labels every run id given as healthy, so a test decides the truth
// and does not depend on the detectors' thresholds.
func healthy(ids ...string) map[string]replay.Label {
	m := map[string]replay.Label{}
	for _, id := range ids {
		m[id] = replay.Label{}
	}
	return m
}

func jsonOf(t *testing.T, rep *replay.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := replay.WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
