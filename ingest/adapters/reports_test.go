package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A check the agent wrote that catches its exception and prints it, or
// says the bug is still there, reports a failure; an answer that only
// mentions errors, or says they are gone, does not.
func TestReportsFailure(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Testing mask propagation...\nERROR: nref_mask.multiply(1.): unsupported operand type(s) for |: 'int' and 'NoneType'\n", true},
		{"Sun, 06 Nov 1994 08:49:37 GMT ERR name 'RFC822_DATE' is not defined", false}, // not at a line's start
		{"case 1\nERR name 'RFC822_DATE' is not defined\n", true},
		{"  ✗ FAILED: expected 3, got 2\n", true},
		{"Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: bad\n", true},
		{"result: None\nTypeError: unsupported operand\n", true},
		{"django.core.exceptions.ImproperlyConfigured: settings are not configured\n", false}, // no Error or Exception suffix
		{"django.core.exceptions.ValidationError: bad value\n", true},
		{"ISSUE CONFIRMED: the inline verbose_name is not used\n", true},
		{"The bug still exists after the change\n", true},
		{"All 12 tests passed\nNo errors found\n", false},
		{"errors = 0\nerror_count: 0\n", false},
		{"SUCCESS: the issue is fixed\n", false},
		{"running 2 tests\ntest tests::parses ... ok\ntest tests::rounds ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n", true}, // cargo test
		{"running 2 tests\ntest tests::parses ... ok\ntest tests::rounds ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored\n", false},
	} {
		if got := reportsFailure(c.text); got != c.want {
			t.Errorf("reportsFailure(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// Every adapter's result goes through run.setResult: an answer that is no
// error and reports a failure is marked, a failure an output rule read is
// not (it is an error already), nor is stripped output.
func TestSetResultMarksReportedFailures(t *testing.T) {
	const report = "Testing...\nERROR: unsupported operand type(s) for |: 'int' and 'NoneType'\n"
	marked := func(s *schema.Step) bool { return s.ToolResult.ReportsFailure != nil && *s.ToolResult.ReportsFailure }
	r := &run{id: "r"}
	ok := r.add(0, schema.StateAct.String())
	r.setResult(ok, report, "", false)
	if !marked(ok) {
		t.Errorf("a caught and printed failure is not marked reports_failure")
	}
	failed := r.add(1, schema.StateAct.String())
	r.setResult(failed, report, "EXIT_CODE", false)
	if marked(failed) {
		t.Errorf("an error is marked reports_failure too")
	}
	strip := &run{id: "s", strip: true}
	s := strip.add(0, schema.StateAct.String())
	strip.setResult(s, report, "", false)
	if marked(s) {
		t.Errorf("stripped output is marked reports_failure")
	}
}

// Whether an answer reports a failure is read line by line: a line that
// reports none, put before the answer, changes nothing, and no input
// panics.
func FuzzReportsFailure(f *testing.F) {
	for _, s := range []string{"ERROR: x\n", "ok\n", "  ✗ FAILED", "django.core.exceptions.FieldError: bad", "the bug still exists", "ERRNO 2", "", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := reportsFailure(text)
		if again := reportsFailure("all 3 checks ran\n" + text); again != got {
			t.Fatalf("a line reporting nothing before %q changed the reading from %v to %v", text, got, again)
		}
	})
}
