package adapters

import (
	"slices"
	"testing"

	"github.com/runawayhq/runaway/schema"
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
		// A name in a file's path says where the agent looks, not what for.
		{"I'll print the top of sphinx/ext/autodoc/__init__.py to find the duplicated block.", nil},
		{"Let me read more of the BRING_ONLINE.sh to find where the build happens:", nil},
		{"I'll look in tests/test_build_latex.py to find the test's name.", nil},
		{"Let me find `Model.__init__` in base.py.", []string{"__init__"}},
		{"I'll open directive.py to find the DocumenterBridge/Documenter classes.", []string{"DocumenterBridge"}},
		// An error's name says what went wrong; the code need not name it.
		{"A SyntaxError occurred after my edit; let me find the mistake in `parse_args`.", []string{"parse_args"}},
		{"Let me find where the BytesWarning comes from.", nil},
		// "find" begins words of its own ("finding"), not names (findpaths.py).
		{"Let's also check the findpaths.py file, since `_importconftest` uses it:", nil},
		{"Finding where `get_urls` is defined.", []string{"get_urls"}},
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

// A view of a directory lists files, not what they hold: the agent that
// looks there for a function learns which file to open, and the listing
// answers it. A view of a file without the name it looked for still found
// nothing.
func TestMissedLookupNotInDirectoryListing(t *testing.T) {
	thought := "Now let's look at the template directory to find the `floatformat` filter:"
	for _, c := range []struct {
		action, observation, want string
	}{
		{"str_replace_editor view /testbed/django/template",
			"Here's the files and directories up to 2 levels deep in /testbed/django/template, excluding hidden items:\n" +
				"/testbed/django/template\n/testbed/django/template/defaulttags.py\n/testbed/django/template/defaultfilters.py\n", "ok"},
		{"str_replace_editor view /testbed/django/template/defaulttags.py  --view_range 1 3",
			"Here's the result of running `cat -n` on /testbed/django/template/defaulttags.py:\n" +
				"     1\t\"\"\"Default tags used by the template system.\"\"\"\n     2\timport re\n     3\tfrom itertools import cycle\n", "ok empty"},
	} {
		raw := mustMarshal(t, map[string]any{
			"trajectory": []map[string]any{{"action": c.action, "observation": c.observation, "thought": thought, "state": map[string]string{}}},
			"info":       map[string]any{"exit_status": "submitted"}, "environment": "main",
		})
		conv, run := convertOne(t, SWEAgent, raw)
		if got := result(conv.step(t, run, 0)); got != c.want {
			t.Errorf("%s: %s, want %s", c.action, got, c.want)
		}
	}
	for _, out := range []string{
		"django/:\n\ndjango/template/:\n__init__.py\ndefaultfilters.py\ndefaulttags.py...\n", // Rovo Dev's expand_folder
		"├── setup.py\n├── src/\n│   └── pkg/\n",
	} {
		if !listsDirectory(out) {
			t.Errorf("%q is a listing", out)
		}
	}
	for _, out := range []string{"   900\tdef f():\n   901\t    pass\n", "import os\nimport re\n", "pass\nelse:\n"} {
		if listsDirectory(out) {
			t.Errorf("%q is no listing", out)
		}
	}
}

// A view read as empty because it missed what it looked for says so, and
// names what it looked for: the reader of `explain` sees why.
func TestMissedLookupReason(t *testing.T) {
	r := &run{id: "r"}
	s := r.add(0, schema.StateAct.String())
	s.Decision = &schema.Decision{Reason: "Let's continue looking for the `set_cmap` method:"}
	r.setResult(s, "   460\t    if alpha is None:\n   461\t        alpha = 1\n", "", false)
	r.noteView(s, true)
	r.markMissedLookups()
	tr := s.ToolResult
	if tr.Empty == nil || !*tr.Empty {
		t.Fatalf("a window without `set_cmap` not read as empty")
	}
	if want := "a view looking for `set_cmap` that does not show it"; tr.Reason != want {
		t.Errorf("reason %q, want %q", tr.Reason, want)
	}
}
