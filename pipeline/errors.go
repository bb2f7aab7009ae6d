package pipeline

import (
	"errors"
	"fmt"
)

// Exit codes (docs/design.md, "The contract"); ExitCode maps a job's error
// to one of them.
const (
	ExitClean    = 0 // nothing at or above --fail-on
	ExitFindings = 1 // runs at or above --fail-on, a missed --min-* threshold, a fixture that does not match
	ExitUsage    = 2 // bad flags or arguments
	ExitFailure  = 3 // could not run: unreadable input, failed output, --strict rejects
)

// UsageError is a configuration the job cannot run with: a bad value, a
// missing argument, a policy, price or labels file that does not parse, an
// output path that is an input or another output.
type UsageError struct {
	Err error
	// ShowUsage: the command's usage should follow the message, as when no
	// input is named.
	ShowUsage bool
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// InputError is input the job could not read or would not trust: a source
// that cannot be opened or gives no step, everything rejected, rejects
// under --strict, a run or labels file that is not there.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// OutputError is a report, or the rejects file, that could not be written;
// nothing half-written is left at its path.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

// InterruptedError is a job stopped by its context (SIGINT, SIGTERM, SIGHUP
// or SIGQUIT in the CLI): it commits no report and no rejects file (a
// fixture job keeps the fixtures it wrote before).
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

// FindingsError is a job that ran to its end and whose result fails the
// gate it was given: runs at or above --fail-on (scan), a --min-*
// threshold missed (eval), fixtures that do not match (verify). What
// failed is in the report and, for eval, on stderr already, so the CLI
// prints nothing more for it.
type FindingsError struct{ Reason string }

func (e *FindingsError) Error() string { return e.Reason }

// PartialError is a job that did what it could and failed for some items,
// each reported as it failed (on stderr or in the report): fixtures that
// could not be made, fixtures that could not be checked. The CLI prints
// nothing more for it.
type PartialError struct {
	Failed int
	What   string // "fixtures", "fixture checks"
}

func (e *PartialError) Error() string { return fmt.Sprintf("%d %s failed", e.Failed, e.What) }

// Reported reports whether err's details are on stderr or in the report
// already, so that a caller printing errors leaves it out.
func Reported(err error) bool {
	var findings *FindingsError
	var partial *PartialError
	return errors.As(err, &findings) || errors.As(err, &partial)
}

// ExitCode is the exit code the CLI ends with after a job returned err:
// 0 for nil, 1 for a *FindingsError, 2 for a *UsageError, and 3 for
// every other error (input, output, interrupted, partial, or one this
// package does not know), since a job that could not run must not pass
// for one that found nothing.
func ExitCode(err error) int {
	var usage *UsageError
	var findings *FindingsError
	switch {
	case err == nil:
		return ExitClean
	case errors.As(err, &findings):
		return ExitFindings
	case errors.As(err, &usage):
		return ExitUsage
	}
	return ExitFailure
}

func usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

func inputf(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

func outputf(format string, args ...any) error {
	return &OutputError{Err: fmt.Errorf(format, args...)}
}
