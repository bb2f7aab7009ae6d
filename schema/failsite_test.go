package schema

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"testing"
)

// failed is a failed result whose data is text.
func failed(errType, text string) *ToolResult {
	no := false
	data, _ := json.Marshal(text)
	return &ToolResult{OK: &no, ErrorType: errType, Data: data}
}

const indentTB = "Traceback (most recent call last):\n  File \"/testbed/repro.py\", line 2, in <module>\n    from pkg.documenters import PropertyDocumenter\n  File \"/testbed/pkg/documenters.py\", line 2661\n    @classmethod\nIndentationError: unexpected indent\n"

func TestFailureSite(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"traceback after other output", "Replaced L2660-2662 (3 lines)\n  Old: x\n" + indentTB, "site=/testbed/pkg/documenters.py:2661 IndentationError: unexpected indent"},
		{"message with quotes", "Traceback (most recent call last):\n  File \"t.py\", line 9, in <module>\n    d[\"k\"]\nKeyError: \"k\"", `site=t.py:9 KeyError: \"k\"`},
		{"dotted exception, no message", "Traceback (most recent call last):\n  File \"/app/run.py\", line 30, in main\n    raise Done()\nrequests.exceptions.ConnectionError", "site=/app/run.py:30 requests.exceptions.ConnectionError"},
		{"two tracebacks are no one site", "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: bad\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 4, in <module>\nRuntimeError: worse", ""},
		{"a script's traceback, then its harness's", "Traceback (most recent call last):\n  File \"verify.py\", line 11, in <module>\nAttributeError: no _meta\n\nCommand exited with non-zero status: 1\nTraceback (most recent call last):\n  File \"<string>\", line 287, in <module>\nNameError: name '__init__' is not defined", ""},
		{"a syntax error's location without a traceback", "  File \"django/forms/widgets.py\", line 391\n    def use_required_attribute(self, initial):\n    ^\nIndentationError: unexpected indent", "site=django/forms/widgets.py:391 IndentationError: unexpected indent"},
		{"volatile message normalised", "Traceback (most recent call last):\n  File \"s.py\", line 5, in <module>\nTimeoutError: gave up at 2026-12-03T10:00:00Z", "site=s.py:5 TimeoutError: gave up at <ts>"},
		{"temporary file", "Error: Syntax error in replaced code\n  File \"/tmp/tmp2yokeodf.py\", line 1\n    %% TEXT STYLING\n    ^\nSyntaxError: invalid syntax\n", "site=<tmp>:1 SyntaxError: invalid syntax"},
		{"a program read from standard input", "Traceback (most recent call last):\n  File \"<stdin>\", line 9, in <module>\nTypeError: 'Paginator' object is not iterable\nnum_pages: 4\n", `site=\u003cstdin\u003e:9 TypeError: 'Paginator' object is not iterable`},
		{"py_compile's line for code that does not parse", "compile failed: Sorry: IndentationError: expected an indented block (__init__.py, line 716)\n", "site=__init__.py:716 IndentationError: expected an indented block"},
		{"no frame", "error: command failed with exit code 2", ""},
		{"frame without an exception line after it", "  File \"x.py\", line 3\n    print 'a'\n", ""},
		{"windows path is not a site", "Traceback (most recent call last):\n  File \"C:\\\\app\\\\x.py\", line 3, in <module>\nValueError: v", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, _ := json.Marshal(c.text)
			got, ok := AppendFailureSite(nil, data)
			if ok != (c.want != "") || string(got) != c.want {
				t.Errorf("AppendFailureSite = %q, %v; want %q", got, ok, c.want)
			}
		})
	}
}

func fnv64(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// The same exception at the same place is the same failure whatever was
// printed before it; another line, or another exception, is another.
func TestFailureSiteFingerprint(t *testing.T) {
	a := failed("IndentationError", "Replaced L2660-2662 (3 lines)\n  Old: @classmethod def can_document_member(cls, member)\n  New: if isinstance(member, property): return True\nbash execution output:\n"+indentTB)
	b := failed("IndentationError", "Replaced L2658-2664 (7 lines)\n  Old: priority = AttributeDocumenter.priority + 1 and a stray decorator\n  New: the same method indented by four spaces\nbash execution output:\n"+indentTB)
	otherLine := failed("IndentationError", "Replaced L2658-2664 (7 lines)\n"+
		"Traceback (most recent call last):\n  File \"/testbed/repro.py\", line 2, in <module>\n    import pkg\n  File \"/testbed/pkg/documenters.py\", line 2670\n    return x\nIndentationError: unexpected indent\n")
	otherError := failed("IndentationError", "Replaced L2660-2662 (3 lines)\n"+
		"Traceback (most recent call last):\n  File \"/testbed/pkg/documenters.py\", line 2661\n    @classmethod\nIndentationError: expected an indented block\n")
	hash := func(r *ToolResult) uint64 { return r.ResultFingerprint(fnv64) }
	sim := func(r *ToolResult) uint64 { h, _ := r.ResultSimHash(nil); return h }
	if hash(a) != hash(b) || sim(a) != sim(b) {
		t.Errorf("one exception at one place after different output: fingerprints %x %x, simhashes %x %x; want equal", hash(a), hash(b), sim(a), sim(b))
	}
	if hash(a) == hash(otherLine) || hash(a) == hash(otherError) {
		t.Errorf("another line or another exception fingerprints as the same failure")
	}
	ok := true
	success := &ToolResult{OK: &ok, Data: a.Data}
	if hash(success) == hash(a) {
		t.Errorf("a success printing a traceback fingerprints as the failure")
	}
	// A success's text is hashed whole: what it printed is its answer.
	success2 := &ToolResult{OK: &ok, Data: b.Data}
	if hash(success) == hash(success2) {
		t.Errorf("two successes with different output fingerprint alike")
	}
}

// A mistake is the exception line of code that failed to run, whatever
// file and line raised it; a check's verdict (an assertion, an exception
// the check raises itself) and code that does not parse are none.
func TestFailureMistake(t *testing.T) {
	call := func(file string, line int, code, exc string) string {
		return "Traceback (most recent call last):\n  File \"" + file + "\", line 90, in <module>\n    verify()\n  File \"" + file + "\", line " + strconv.Itoa(line) + ", in verify\n    " + code + "\n" + exc
	}
	const missing = "TypeError: __init__() missing 2 required positional arguments: 'model' and 'admin_site'"
	key := func(text string) uint64 {
		data, _ := json.Marshal(text)
		return FailureMistakeKey(data)
	}
	a := key(call("simple_reproduce.py", 63, "field = AdminReadonlyField(None, 'f', True)", missing))
	b := key(call("/testbed/accurate_verify.py", 64, "model_admin = TestModelAdmin()", missing))
	if a == 0 || a != b {
		t.Errorf("one mistake in two scripts: keys %x and %x, want one key", a, b)
	}
	if c := key(call("simple_reproduce.py", 63, "field = AdminReadonlyField(None, 'f', True)", "TypeError: __init__() missing 1 required positional argument: 'model'")); c == a || c == 0 {
		t.Errorf("another message: key %x, want another key than %x", c, a)
	}
	for _, c := range []struct{ name, text string }{
		{"an assertion", call("check.py", 12, "assert '/custom-admin/' in url, url", "AssertionError: /admin/x/1/")},
		{"an assertion raised by hand", call("check.py", 12, "raise AssertionError(url)", "AssertionError: /admin/x/1/")},
		{"an exception the check raises", call("check.py", 12, "raise ValueError('still wrong: ' + url)", "ValueError: still wrong: /admin/x/1/")},
		{"code that does not parse", "  File \"check.py\", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax"},
		{"two tracebacks", call("a.py", 3, "f()", "ValueError: bad") + "\n\nDuring handling of the above exception, another exception occurred:\n\n" + call("a.py", 5, "g()", "RuntimeError: worse")},
		{"no traceback", "error: exit status 1"},
	} {
		if k := key(c.text); k != 0 {
			t.Errorf("%s: key %x, want none", c.name, k)
		}
	}
}
