package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/pricing"
	"github.com/runawayhq/runaway/schema"
)

// LineDecoder turns one line into one row. It keeps its scratch state between
// lines, so each goroutine uses its own.
type LineDecoder struct {
	keepText     bool
	maxLineBytes int

	fast stepDecoder
	args argsCache

	fingerprint []byte // what result_hash hashes
	simText     []byte // what result_sim hashes
	reasonText  []byte // normalised decision.reason, for reason_hash
	rowKey      []byte // what line_hash hashes for a row of a table
	suspects    []schema.SuspectWrite

	prices    *pricing.Table // Options.Prices: estimates the cost of tokens logged without one
	sel       *runSelector   // Options.RunIDs; nil: every run
	keepLines bool           // Options.OnStepLine is set: remember lastRunID and lastStep
	lastRunID string         // run_id of the last line that became a row
	lastStep  int64          // its step
	conv      stepNormalizer // scratch of decodeConverted
}

// errNotSelected is DecodeLine's answer for a valid step of a run the
// selector does not want: no row, and not a reject.
var errNotSelected = &LineError{Kind: "not-selected", Reason: "run not selected"}

// NewLineDecoder returns a decoder with Read's behaviour for these options;
// maxLineBytes <= 0 means the default, 16 MiB.
func NewLineDecoder(keepText bool, maxLineBytes int) *LineDecoder {
	if maxLineBytes <= 0 {
		maxLineBytes = defaultMaxLineBytes
	}
	return &LineDecoder{keepText: keepText, maxLineBytes: maxLineBytes, prices: defaultPrices()}
}

// defaultPrices is the built-in price table, parsed once.
var defaultPrices = sync.OnceValue(pricing.Default)

// SetPrices sets the table that estimates the cost of steps that log tokens
// and a model but no cost; nil keeps the built-in one.
func (d *LineDecoder) SetPrices(t *pricing.Table) {
	if t != nil {
		d.prices = t
	}
}

// SetVolatileKeys sets the args keys that the near-duplicate digest
// (args_norm, args_words) ignores; nil means schema.DefaultVolatileKeys.
func (d *LineDecoder) SetVolatileKeys(keys []string) {
	if keys == nil {
		keys = schema.DefaultVolatileKeys
	}
	d.args = argsCache{norm: schema.NewArgsNormalizer(keys)}
}

// DecodeLine appends one row for line to w, or appends nothing and says why
// the line is rejected. line is one line without its terminator (Read
// strips "\n" and a trailing "\r"); srcFile and srcLine fill the src_file
// and src_line columns. It never panics, and a nil result means exactly one
// row was appended.
func (d *LineDecoder) DecodeLine(w *batchWriter, line []byte, srcFile int32, srcLine int64) *LineError {
	if len(line) > d.maxLineBytes {
		return lineError(KindLineTooLong, fmt.Sprintf("line exceeds %d bytes", d.maxLineBytes))
	}
	s, lerr := d.fast.decode(line)
	if lerr != nil {
		// A NUL byte is a reject of its own kind, not malformed JSON. No valid
		// JSON holds one, so only lines that fail are searched for it.
		if i := bytes.IndexByte(line, 0); i >= 0 {
			return lineError(KindNULByte, fmt.Sprintf("NUL byte at column %d", i+1))
		}
		return lerr
	}
	return d.decodeStep(w, s, xxh3.Hash(line), srcFile, srcLine)
}

// decodeConverted appends one row for a step an adapter converted or
// assembled: the step goes into the row as a decoded line does, without
// being written out as JSON and read again. Its text is made valid UTF-8
// and its JSON values compact, as that round trip would make them, so a
// converted step's row is the row of its JSON line; line_hash is the hash
// of that line's bytes only when the line is kept anyway.
func (d *LineDecoder) decodeConverted(w *batchWriter, s *schema.Step, srcFile int32, srcLine int64) *LineError {
	d.conv.normalize(s)
	return d.decodeStep(w, s, 0, srcFile, srcLine)
}

// decodeStep appends one row for a step, decoded from a line or read from
// the columns of a table, or appends nothing and says why the step is
// rejected. lineHash fills line_hash: the hash of the line, or of the
// row's values.
func (d *LineDecoder) decodeStep(w *batchWriter, s *schema.Step, lineHash uint64, srcFile int32, srcLine int64) *LineError {
	if err := s.Validate(); err != nil {
		kind := KindMissingField
		if s.RunID != "" && s.Step != nil {
			kind = KindInvalidValue
		}
		return lineError(kind, err.Error())
	}
	if d.sel != nil && !d.sel.selected(s.RunID) {
		return errNotSelected
	}
	if d.keepLines {
		if d.lastRunID != s.RunID {
			d.lastRunID = strings.Clone(s.RunID) // s.RunID may alias the line's bytes
		}
		d.lastStep = *s.Step
	}
	// IsEmpty may decode a string payload: once a line.
	empty := s.ToolResult != nil && s.ToolResult.IsEmpty()
	args, lerr := d.args.resolve(s.ToolCall, d.keepText, empty)
	if lerr != nil {
		return lerr
	}
	d.appendRow(w, s, &args, empty, lineHash, srcFile, srcLine)
	return nil
}
