package ingest

import (
	"fmt"
	"path"
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
			// Without the module path and the directories a build's
			// paths name the machine it was built on with.
			where = fmt.Sprintf(" at %s (%s:%d)", path.Base(fr.Function), path.Base(fr.File), fr.Line)
			break
		}
		if !more {
			break
		}
	}
	return fmt.Sprintf("internal error in the %s%s: %v (a bug in runaway; please report it with this document)", format, where, p)
}

// crashError is a panic in an adapter's code, recovered: its message is
// crashReason's.
type crashError struct{ reason string }

func (e *crashError) Error() string { return e.reason }

// guarded runs fn with a panic in it (a bug in the adapter named format, or
// in format detection when it is "") turned into a *crashError: a bug costs
// the line, row or document it met, not the scan.
func guarded[T any](format string, fn func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, &crashError{crashReason(format, p)}
		}
	}()
	return fn()
}
