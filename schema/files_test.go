package schema

import "testing"

func TestEditFileKey(t *testing.T) {
	util := FileKey([]byte("util.py"))
	for _, c := range []struct {
		args string
		want uint64
	}{
		{`{"command":"str_replace","path":"/testbed/pkg/util.py","old_str":"import conf.py","new_str":"b"}`, util},        // the path member, whatever the text says
		{`{"args":"create /testbed/pkg/util.py --file_text 'from pkg import conf'"}`, util},                               // SWE-agent's one string
		{`{"command":"sed -i 's/a/b/' pkg/util.py && python repro.py"}`, util},                                            // the first file of the first line
		{`{"command":"python - <<'PY'\nfrom pathlib import Path\np = Path('pkg/util.py')\np.write_text('x')\nPY"}`, util}, // a here-document's
		{`"@patch_generation\ndef fix():\n    return code_replace(\"pkg/util.py\", \"a\", \"b\")"`, util},                 // args that are one string
		{`{"command":"echo hi > /dev/null"}`, 0},
		{`{"command":"python -c \"import django.setup\""}`, 0}, // a module path is no file name
		{`[1,2]`, 0},
		{``, 0},
	} {
		if got := EditFileKey([]byte(c.args)); got != c.want {
			t.Errorf("EditFileKey(%s) = %#x, want %#x", c.args, got, c.want)
		}
	}
	if FileKey([]byte("/testbed/pkg/util.py")) != util || FileKey([]byte("pkg/")) != 0 {
		t.Error("FileKey keys a path by its base name, and an empty one by 0")
	}
}

func TestFailureFileKey(t *testing.T) {
	conf := FileKey([]byte("conf.py"))
	for _, c := range []struct {
		data string
		want uint64
	}{
		{`"Traceback (most recent call last):\n  File \"reproduce.py\", line 8, in <module>\n    django.setup()\n  File \"/testbed/pkg/conf.py\", line 161, in __getattr__\n    raise ImproperlyConfigured(\"The SECRET_KEY setting must not be empty.\")\ndjango.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty."`, conf},
		{`"Sorry: IndentationError: unexpected indent (conf.py, line 12)"`, conf},
		{`"  File \"\u003cstdin\u003e\", line 3\n    x = (\nSyntaxError: '(' was never closed"`, 0}, // code on standard input is in no file
		{`"Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: x\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2\nKeyError: y"`, 0}, // two tracebacks
		{`"error: cannot find symbol"`, 0},
	} {
		if got := FailureFileKey([]byte(c.data)); got != c.want {
			t.Errorf("FailureFileKey(%s) = %#x, want %#x", c.data, got, c.want)
		}
	}
}

// A failed call is keyed to the file its output says failed; with no
// output, a compile check to the file it compiled, and any other call to
// none.
func TestFailedCallFileKey(t *testing.T) {
	conf := FileKey([]byte("conf.py"))
	check := `{"command":"python -m py_compile pkg/conf.py"}`
	for _, c := range []struct {
		data, args string
		want       uint64
	}{
		{``, check, conf},
		{`""`, check, conf},
		{``, `{"cmd":"cd /testbed && python3.11 -m py_compile \"/testbed/pkg/conf.py\""}`, conf},
		{`"Sorry: IndentationError: unexpected indent (conf.py, line 12)"`, `{"command":"python -m py_compile other.py"}`, conf}, // the output says
		{`"compiled"`, check, 0}, // an output that names no file
		{``, `{"command":"python -m py_compile pkg/conf.py && echo \"compiled OK\""}`, conf},
		{``, `{"command":"python -m py_compile pkg/conf.py && python repro.py"}`, 0},
		{``, `{"command":"python -m py_compile pkg/conf.py; echo done"}`, 0},
		{``, `{"command":"python -m py_compile a.py b.py"}`, 0},
		{``, `{"command":"python -m py_compile 'conf.py\""}`, 0}, // quotes that do not match
		{``, `{"command":"python repro.py"}`, 0},
	} {
		if got := FailedCallFileKey([]byte(c.data), []byte(c.args)); got != c.want {
			t.Errorf("FailedCallFileKey(%s, %s) = %#x, want %#x", c.data, c.args, got, c.want)
		}
	}
}

// Whatever a log holds, reading the file keys never panics, and a key is 0
// (no file) or a FileKey, never 0 by accident: both are read from logged
// text before anything else looks at it.
func FuzzFileKeys(f *testing.F) {
	f.Add([]byte(`{"command":"str_replace","path":"/testbed/pkg/util.py"}`))
	f.Add([]byte(`"Traceback (most recent call last):\n  File \"/testbed/pkg/conf.py\", line 9, in setup\nValueError: x"`))
	f.Add([]byte(`"Sorry: IndentationError: unexpected indent (conf.py, line 12)"`))
	f.Add([]byte(`{"args":"create /a.py --file_text 'x'","path":7}`))
	f.Add([]byte(`{"command":"sed -i 's/a/b/' /__init__.py //__init__.py a//__init__.py"}`))
	f.Add([]byte(`{"command":"cd /testbed && python3 -m py_compile '/testbed/pkg/conf.py'"}`))
	f.Add([]byte(`{"command":"cat > x.py <<'EOF'
print(1)
EOF"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range []uint64{EditFileKey(data), FailureFileKey(data), FileKey(data), CompileCheckFileKey(data), FailedCallFileKey(nil, data)} {
			if k != 0 && k&1 == 0 {
				t.Fatalf("key %#x of %q is neither 0 nor a FileKey", k, data)
			}
		}
		CreatesFile("bash", data)
		CreatesFile("str_replace_editor", data)
	})
}

// Editors that nest the file they change, and name it the Windows way.
func TestEditFileKeyNested(t *testing.T) {
	for _, c := range []struct{ args, name string }{
		{`{"changes":[{"kind":"update","path":"/testbed/packages/src/Tabs/Tabs.js"}],"item":"item_3"}`, "Tabs.js"},
		{`{"edits":[{"file":"src\\pages\\index.astro","replace":"a","search":"b"}]}`, "index.astro"},
		{`{"command":"echo '-Xmx8192m' > /workspace/.mvn/jvm.config"}`, "jvm.config"},
		{`{"command":"cd /w && git diff HEAD > model_patch.diff\nls"}`, "model_patch.diff"},
	} {
		if got, want := EditFileKey([]byte(c.args)), FileKey([]byte(c.name)); got != want {
			t.Errorf("EditFileKey(%s) = %#x, want the key of %s", c.args, got, c.name)
		}
	}
}

// A file written whole (an editor's create, a here-document redirected
// into a file) is told from a change to part of one (a replace, sed -i,
// an append), whichever way the call is written.
func TestCreatesFile(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		want       bool
	}{
		{"str_replace_editor", `{"command":"create","path":"/testbed/check.py","file_text":"print(1)"}`, true},
		{"str_replace_editor", `{"args":"create /testbed/check.py --file_text 'print(1)'"}`, true},
		{"bash", `{"command":"cat > /testbed/check.py <<'EOF'\nprint(1)\nEOF"}`, true},
		{"bash", `{"command":"cd /testbed && cat <<EOF > check.py\nprint(1)\nEOF\npython check.py"}`, true},
		{"bash", `{"command":"tee check.py <<'EOF'\nprint(1)\nEOF"}`, true},
		{"bash", `{"command":"cat \u003e check.py \u003c\u003c'EOF'\nprint(1)\nEOF"}`, true}, // as Go's encoder escapes it
		{"str_replace_editor", `{"command":"str_replace","path":"/testbed/a.py","old_str":"x","new_str":"y"}`, false},
		{"str_replace_editor", `{"args":"str_replace /testbed/a.py --old_str 'create ' --new_str 'y'"}`, false},
		{"bash", `{"command":"sed -i 's/x/y/' a.py"}`, false},
		{"bash", `{"command":"cat >> a.py <<'EOF'\nx = 1\nEOF"}`, false},
		{"bash", `{"command":"cat a.py > b.py"}`, false},
		{"search", `{"command":"create"}`, false},
	} {
		if got := CreatesFile(c.tool, []byte(c.args)); got != c.want {
			t.Errorf("CreatesFile(%s, %s) = %v, want %v", c.tool, c.args, got, c.want)
		}
	}
}

// Every Python package has an __init__.py: one is named by its package, so
// an edit of the fields package's __init__.py does not reach a failure
// raised in the conf package's, however each path is written.
func TestPackageInitIsNamedByItsPackage(t *testing.T) {
	conf := FileKey([]byte("django/conf/__init__.py"))
	traceback := `"Traceback (most recent call last):\n  File \"/testbed/reproduce.py\", line 3, in <module>\n    print(settings.SECRET_KEY)\n  File \"/testbed/django/conf/__init__.py\", line 90, in __getattr__\n    raise ImproperlyConfigured(\"The SECRET_KEY setting must not be empty.\")\ndjango.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty."`
	if got := FailureFileKey([]byte(traceback)); got != conf {
		t.Errorf("the traceback's file is %#x, want conf/__init__.py's %#x", got, conf)
	}
	for _, c := range []struct {
		args string
		same bool
	}{
		{`{"command":"str_replace","path":"/testbed/django/conf/__init__.py","old_str":"a","new_str":"b"}`, true},
		{`{"command":"sed -i 's/a/b/' django/conf/__init__.py"}`, true},
		{`{"command":"str_replace","path":"/testbed/django/db/models/fields/__init__.py","old_str":"a","new_str":"b"}`, false},
		{`{"command":"sed -i 's/a/b/' django/db/models/fields/__init__.py"}`, false},
	} {
		if got := EditFileKey([]byte(c.args)); (got == conf) != c.same {
			t.Errorf("EditFileKey(%s) = %#x; the same file as conf/__init__.py: %v, want %v", c.args, got, got == conf, c.same)
		}
	}
	if FileKey([]byte("__init__.py")) == 0 || FileKey([]byte("/__init__.py")) != FileKey([]byte("__init__.py")) {
		t.Error("an __init__.py without a directory is keyed by its name")
	}
}

// A file's copy key tells two checkouts of one file apart (same high half,
// another low half) and two files of one name in one tree apart (another
// high half); a relative path names no copy.
func TestFileCopyKey(t *testing.T) {
	work := FileCopyKey([]byte("/workspace/geo__geo__2.1/geo/masks/combine.py"))
	test := FileCopyKey([]byte("/testbed/geo/masks/combine.py"))
	other := FileCopyKey([]byte("/testbed/geo/nddata/combine.py"))
	if work == 0 || test == 0 || work>>32 != test>>32 || work == test {
		t.Errorf("two copies of one file: %#x, %#x", work, test)
	}
	if other>>32 == test>>32 {
		t.Errorf("two files of one name in two directories share a file half: %#x, %#x", other, test)
	}
	if FileCopyKey([]byte("/testbed/./geo/masks/combine.py")) != test {
		t.Error("a path is cleaned before it is keyed")
	}
	for _, p := range []string{"geo/masks/combine.py", "combine.py", "/combine.py", "/testbed/geo/", ""} {
		if k := FileCopyKey([]byte(p)); k != 0 {
			t.Errorf("FileCopyKey(%q) = %#x, want 0", p, k)
		}
	}
	fw, ft := FoldCopyKey(work), FoldCopyKey(test)
	if fw>>16 != ft>>16 || fw == ft || FoldCopyKey(0) != 0 {
		t.Errorf("folded, the halves still say one file, two copies: %#x, %#x", fw, ft)
	}
	for _, c := range []struct {
		args string
		want uint64
	}{
		{`{"command":"str_replace","path":"/workspace/geo__geo__2.1/geo/masks/combine.py","old_str":"a","new_str":"b"}`, work},
		{`{"command":"sed -i 's/a/b/' /testbed/geo/masks/combine.py && python repro.py"}`, test},
		{`{"command":"sed -i 's/a/b/' geo/masks/combine.py"}`, 0}, // relative: no copy named
		{`{"command":"echo hi"}`, 0},
	} {
		if got := EditCopyKey([]byte(c.args)); got != c.want {
			t.Errorf("EditCopyKey(%s) = %#x, want %#x", c.args, got, c.want)
		}
	}
	for _, c := range []struct {
		data string
		want uint64
	}{
		{`"Traceback (most recent call last):\n  File \"/workspace/repro.py\", line 4, in <module>\n  File \"/testbed/geo/masks/combine.py\", line 41, in merge\nTypeError: x"`, test},
		{`"Traceback (most recent call last):\n  File \"repro.py\", line 4, in <module>\n  File \"combine.py\", line 41, in merge\nTypeError: x"`, 0},
		{`"error: cannot find symbol"`, 0},
	} {
		if got := FailureCopyKey([]byte(c.data)); got != c.want {
			t.Errorf("FailureCopyKey(%s) = %#x, want %#x", c.data, got, c.want)
		}
	}
}

func TestAddsPrint(t *testing.T) {
	for _, c := range []struct {
		args string
		want bool
	}{
		{`{"command":"str_replace","path":"/w/a.py","old_str":"x = 1","new_str":"print(\"DEBUG\")\nx = 1"}`, true},
		{`{"command":"insert","path":"/w/a.py","insert_line":3,"new_str":"print(x)"}`, true},
		{`{"command":"str_replace","path":"/w/a.py","old_str":"print(x)","new_str":"print(y)"}`, false},
		{`{"command":"str_replace","path":"/w/a.py","old_str":"print(x)\nprint(y)","new_str":"x = 1"}`, false},
		{`{"command":"str_replace","path":"/w/a.py","old_str":"x = 1","new_str":"x = 2"}`, false},
		{`not json print(`, false},
	} {
		if got := AddsPrint([]byte(c.args)); got != c.want {
			t.Errorf("AddsPrint(%s) = %v, want %v", c.args, got, c.want)
		}
	}
}
