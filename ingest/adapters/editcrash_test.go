package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A patch script that dies of an exception in its own code or in the
// standard library it called stopped before it made its change: its
// result is EDIT_CRASHED. One whose traceback runs through the code under
// work, or that fails on an assertion, a harness's NameError, an import,
// is what a check in the same call found, and keeps its class.
func TestEditScriptCrashes(t *testing.T) {
	const patch = "THOUGHT: patch it\n\n```bash\npython - <<'PY'\nfrom pathlib import Path\nimport re\np = Path('pkg/domain.py')\ns = p.read_text()\ns = re.sub(r'def get_index_text\\(self', 'def get_index_text(self', s)\np.write_text(s)\nfrom pkg import domain\nassert domain.get_index_text('a') == 'a()'\nPY\n```"
	reply := func(tb string) string { return "<returncode>1</returncode>\n<output>\n" + tb + "\n</output>" }
	const stdlib = "  File \"/opt/miniconda3/envs/testbed/lib/python3.9/re.py\", line 210, in sub\n    return _compile(pattern, flags).sub(repl, string, count)\n  File \"/opt/miniconda3/envs/testbed/lib/python3.9/sre_parse.py\", line 843, in _parse\n    raise source.error(\"missing ), unterminated subpattern\",\n"
	for _, c := range []struct {
		name, out, want string
	}{
		{"a regular expression that does not compile", "Traceback (most recent call last):\n  File \"<stdin>\", line 5, in <module>\n" + stdlib + "re.error: missing ), unterminated subpattern at position 0", "error " + schema.ErrEditCrashed},
		{"the file read as ASCII", "Traceback (most recent call last):\n  File \"<stdin>\", line 4, in <module>\n  File \"/usr/lib/python3.6/encodings/ascii.py\", line 26, in decode\n    return codecs.ascii_decode(input, self.errors)[0]\nUnicodeDecodeError: 'ascii' codec can't decode byte 0xe2 in position 11857: ordinal not in range(128)", "error " + schema.ErrEditCrashed},
		{"the text to change not there", "Traceback (most recent call last):\n  File \"<stdin>\", line 5, in <module>\nValueError: substring not found", "error " + schema.ErrEditCrashed},
		{"a match that found nothing", "Traceback (most recent call last):\n  File \"<stdin>\", line 6, in <module>\nAttributeError: 'NoneType' object has no attribute 'group'", "error " + schema.ErrEditCrashed},
		{"the check's failure in the code", "Traceback (most recent call last):\n  File \"<stdin>\", line 8, in <module>\n  File \"/testbed/pkg/domain.py\", line 40, in get_index_text\n    return name + suffix\nValueError: bad suffix", "error ValueError"},
		{"the check's assertion", "Traceback (most recent call last):\n  File \"<stdin>\", line 9, in <module>\nAssertionError", "error AssertionError"},
		{"the check's import", "Traceback (most recent call last):\n  File \"<stdin>\", line 8, in <module>\nImportError: cannot import name 'domain'", "error ImportError"},
		{"an installed package's failure", "Traceback (most recent call last):\n  File \"<stdin>\", line 8, in <module>\n  File \"/opt/miniconda3/envs/testbed/lib/python3.9/site-packages/docutils/nodes.py\", line 12, in f\nValueError: bad node", "error ValueError"},
		{"a subprocess's failure", "Traceback (most recent call last):\n  File \"<stdin>\", line 10, in <module>\n  File \"/usr/lib/python3.9/subprocess.py\", line 528, in run\n    raise CalledProcessError(retcode, process.args,\nsubprocess.CalledProcessError: Command '['pytest', '-q']' returned non-zero exit status 1.", "error subprocess.CalledProcessError"},
	} {
		conv, run := convertOne(t, MiniSWEAgent, miniV1(t, patch, reply(c.out)))
		s := conv.step(t, run, 2)
		if s.Intent != schema.IntentEdit {
			t.Fatalf("%s: intent %q, want edit", c.name, s.Intent)
		}
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
