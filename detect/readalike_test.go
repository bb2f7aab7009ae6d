package detect_test

import (
	"fmt"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// The same command run five times in a row with its output not logged,
// the agent's words saying only the last two failed ("It seems there was a
// misunderstanding, let me try again"): nothing but the words tells the
// five answers apart, and a command sent again unchanged gets what it got
// before, so the five are one call retried from the first. With the output
// logged, the answers themselves differ, and the words change nothing.
func TestSameCallReadAlikeWithoutOutput(t *testing.T) {
	run := `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python reproduce.py"}},"tool_result":%s`
	for _, c := range []struct {
		name      string
		ok, said  string
		want      detect.Verdict
		wantOnset int64
	}{
		{"output not logged", `{"ok":true}`, `{"ok":false,"error_type":"SAID_FAILED","reason":"the agent's next words: there was a misunderstanding"}`, detect.Runaway, 1},
		{"output logged", `{"ok":true,"data":"len(pipe) = 2"}`, `{"ok":false,"error_type":"SAID_FAILED","data":"TypeError: object of type 'Pipeline' has no len()"}`, detect.Suspicious, 1},
	} {
		r := newRun(c.name)
		r.add(`"state":"ACT","tool_call":{"name":"open","args":{"path":"sklearn/pipeline.py"}},"tool_result":{"ok":true,"data":"class Pipeline"}`)
		r.repeat(3, fmt.Sprintf(run, c.ok))
		r.repeat(2, fmt.Sprintf(run, c.said))
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || res.OnsetStep != c.wantOnset {
			t.Errorf("%s: %v %v onset %d, want %v onset %d (%v)", c.name, res.Verdict, res.RootCause, res.OnsetStep, c.want, c.wantOnset, detectors(res))
		}
	}
}
