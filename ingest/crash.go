package ingest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// KindInternal is the reject kind of a document an adapter crashed on: a
// bug in runaway, reported as the document's reject so that one bad file
// costs its own runs, not the night's batch.
const KindInternal = "internal_error"

// crashReason says which adapter crashed on a document, with what, and
// where in runaway's code, so the reject is a bug report on its own. It is
// called from the deferred function that recovered the panic, whose
// caller's stack still holds the panicking frame.
func crashReason(format string, p any) string {
	if format == "" {
		format = "format detection"
	} else {
		format += " adapter"
	}
	where := ""
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	panicking := false
	for {
		fr, more := frames.Next()
		if fr.Function == "runtime.gopanic" || strings.HasPrefix(fr.Function, "runtime.panic") {
			panicking = true
		} else if panicking && !strings.HasPrefix(fr.Function, "runtime.") {
			where = fmt.Sprintf(" at %s (%s:%d)", shortFunc(fr.Function), shortFile(fr.File), fr.Line)
			break
		}
		if !more {
			break
		}
	}
	return fmt.Sprintf("internal error in the %s%s: %v (a bug in runaway; please report it with this document)", format, where, p)
}

// shortFunc drops the module path from a function's name.
func shortFunc(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// shortFile keeps a source file's name only: a build's paths name the
// machine it was built on.
func shortFile(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[i+1:]
	}
	return f
}

// guarded runs fn with a panic in it (an adapter's bug while a source's
// first line is sniffed) turned into an error saying so: the line is then
// taken for what no adapter recognised, and read on as such, where the
// document's own reading guards it again.
func guarded[T any](fn func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, errors.New(crashReason("", p))
		}
	}()
	return fn()
}
