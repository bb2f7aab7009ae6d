package ingest

import (
	"fmt"
	"strings"
)

// Reject is one input line that produced no step. Rejects are data errors:
// located, counted and kept verbatim, while the rest of the input is analysed.
type Reject struct {
	File   string // Source.Name
	Line   int64  // 1-based line number in the (decompressed) source
	Reason string // short and specific, e.g. `step: want integer, got string`
	Kind   string // the reason's class: one of the Kind constants
	Raw    []byte // the line as read, without its newline, valid only during OnReject; nil for a line too long to hold, which only Rejects gets
	// Offset and Length place the line in Options.Rejects (or where it
	// would be, when there is none): its bytes are
	// Rejects[Offset:Offset+Length], followed by "\n". A rejected
	// document of an adapter may span lines of its own; the index of
	// rejects a caller keeps from these is the way to cut it out.
	Offset, Length int64
}

// Reject kinds: the class of a reason, the keys of Stats.RejectsByKind.
const (
	KindMalformedJSON  = "malformed_json"
	KindWrongType      = "wrong_type"
	KindMissingField   = "missing_field"
	KindInvalidValue   = "invalid_value" // the type is right but the value is not allowed: a negative step, args that cannot be canonicalised
	KindLineTooLong    = "line_too_long"
	KindNULByte        = "nul_byte"
	KindTruncatedInput = "truncated_input" // a compressed stream that ends early or is corrupt
	KindNotObject      = "not_object"
)

// LineError is why DecodeLine rejected a line.
type LineError struct {
	Kind   string // one of the Kind constants
	Reason string
}

func (e *LineError) Error() string { return e.Reason }

func lineError(kind, reason string) *LineError { return &LineError{Kind: kind, Reason: reason} }

// SourceError is a source that could not be opened or read: a runtime
// failure, not a data error.
type SourceError struct {
	Source string
	Err    error
}

// Error names the source once: os errors already carry the path
// ("open logs/a.jsonl: permission denied"), errors of other openers may not.
func (e SourceError) Error() string {
	return prefixName(e.Source, e.Err).Error()
}

func (e SourceError) Unwrap() error { return e.Err }

// prefixName puts name before err's message unless the message holds it
// already or there is no name.
func prefixName(name string, err error) error {
	if name == "" || strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}
