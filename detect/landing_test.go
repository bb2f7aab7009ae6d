package detect_test

import (
	"strconv"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// An edit that applied and left its file broken did not land, also when
// the agent looked at the file before running the check that shows it:
// a read of the file says nothing of whether it compiles. Four such
// edits in a row are one change retried, an error storm from the first;
// when the check after the read passes, the edit landed, and four rounds
// of edit, read and passing check are work.
func TestAReadBeforeTheCheckOfABrokenEdit(t *testing.T) {
	const file = "sphinx/environment/adapters/toctree.py"
	edit := func(k int) string {
		return `"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"sed -i '17` + strconv.Itoa(k) + `a\\tif ref in (\"genindex\", \"search\"): continue' ` + file + `"}},"tool_result":{"ok":true,"data":""}`
	}
	read := func(k int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"nl -ba ` + file + ` | sed -n '16` + strconv.Itoa(k) + `,180p'"}},"tool_result":{"ok":true,"data":"17` + strconv.Itoa(k) + `\t\tif ref in (\"genindex\", \"search\"): continue"}`
	}
	broken := func(k int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -m pytest -q tests/test_toctree.py -k genindex"}},"tool_result":{"ok":false,"error_type":"IndentationError","data":"Traceback (most recent call last):\n  File \"/repo/tests/test_toctree.py\", line 3, in <module>\n    from sphinx.environment.adapters import toctree\n  File \"/repo/` + file + `\", line 17` + strconv.Itoa(k) + `\n    if ref in ('genindex', 'search'): continue\nIndentationError: unexpected indent"}`
	}
	passed := func(k int) string {
		return `"state":"ACT","tool_call":{"name":"bash","args":{"command":"python -m pytest -q tests/test_toctree.py -k genindex"}},"tool_result":{"ok":true,"data":"` + strconv.Itoa(k+1) + ` passed in 0.4` + strconv.Itoa(k) + `s"}`
	}
	for _, c := range []struct {
		name  string
		check func(int) string
		want  detect.Verdict
	}{
		{"each check shows the file broken", broken, detect.Runaway},
		{"each check passes", passed, detect.Healthy},
	} {
		r := newRun(c.name)
		for k := range 4 {
			r.add(edit(k))
			r.add(read(k))
			r.add(c.check(k))
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// A patch script that died in its own code made no change: four of them,
// each dying its own way, with the file read between, are one change
// failing to land, an error storm from the first. The same four failures
// read as exceptions a check raised are four experiments' answers.
func TestEditScriptsThatCrashDidNotLand(t *testing.T) {
	crashes := []string{
		`re.error: missing ), unterminated subpattern at position 0`,
		`UnicodeDecodeError: 'ascii' codec can't decode byte 0xe2 in position 11857: ordinal not in range(128)`,
		`ValueError: substring not found`,
		`AttributeError: 'NoneType' object has no attribute 'group'`,
	}
	for _, c := range []struct {
		name    string
		errType func(k int) string
		want    detect.Verdict
	}{
		{"read as crashed edits", func(int) string { return "EDIT_CRASHED" }, detect.Runaway},
		{"read as a check's exceptions", func(k int) string {
			return []string{"EXCEPTION", "UnicodeDecodeError", "ValueError", "AttributeError"}[k]
		}, detect.Healthy},
	} {
		r := newRun(c.name)
		for k, crash := range crashes {
			r.add(`"state":"ACT","intent":"edit","tool_call":{"name":"bash","args":{"command":"python - <<'PY'\nimport re\nfrom pathlib import Path\np = Path('pkg/domain.py')\ns = p.read_text()\np.write_text(re.sub(r'` + strconv.Itoa(k) + `', 'x', s))\nPY"}},"tool_result":{"ok":false,"error_type":"` + c.errType(k) + `","data":"Traceback (most recent call last):\n  File \"<stdin>\", line 5, in <module>\n` + crash + `"}`)
			r.add(`"state":"ACT","tool_call":{"name":"bash","args":{"command":"nl -ba pkg/domain.py | sed -n '` + strconv.Itoa(40+k) + `,60p'"}},"tool_result":{"ok":true,"data":"` + strconv.Itoa(40+k) + `\tdef get_index_text(self, name):"}`)
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 0)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}

// The same call answered the same way three times is suspicious; when a
// stretch of calls three times as long lies between them and changes
// nothing (a team's review prompt, the same comment back, the change
// asked for, an empty hand-over, three cycles over), it is runaway.
func TestThreeRepeatsThroughAStuckStretch(t *testing.T) {
	prompt := `"state":"PLAN","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","text":"Review the code of main.py and give the one comment with the highest priority."}},"tool_result":{"ok":true,"data":"main.py imports app from itself, so no FastAPI app exists; create it in app.py."}`
	for _, c := range []struct {
		name    string
		between bool
		want    detect.Verdict
	}{
		{"with the cycle between", true, detect.Runaway},
		{"in a row", false, detect.Suspicious},
	} {
		r := newRun(c.name)
		for range 3 {
			r.add(prompt)
			if c.between {
				r.add(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","text":"main.py imports app from itself, so no FastAPI app exists; create it in app.py."}},"tool_result":{"ok":true}`)
				r.add(`"state":"PLAN","tool_call":{"name":"message","args":{"from":"Code Reviewer","to":"Programmer","text":"Modify the code by the comment: main.py imports app from itself, so no FastAPI app exists."}},"tool_result":{"ok":true,"data":""}`)
				r.add(`"state":"ACT","tool_call":{"name":"message","args":{"from":"Programmer","to":"Code Reviewer","text":""}},"tool_result":{"ok":true}`)
			}
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}
