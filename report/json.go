package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// The json document's envelope. Structs, not maps, so the keys come out in
// this order in every version.
type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonHead struct {
	SchemaVersion string   `json:"schema_version"`
	Tool          jsonTool `json:"tool"`
	Summary       Summary  `json:"summary"`
}

// jsonDocument is the whole json document. writeJSON streams it rather than
// marshal it in one piece, so a scan of a million runs is not held twice in
// memory; TestJSONStreamMatchesDocument keeps the two byte-identical.
type jsonDocument struct {
	jsonHead
	Runs []detect.RunResult `json:"runs"`
}

const (
	jsonIndent    = "  "
	jsonRunPrefix = jsonIndent + jsonIndent // a run is an element of "runs", two levels deep
)

func newJSONHead(s Summary) jsonHead {
	return jsonHead{
		SchemaVersion: schema.OutputVersion,
		Tool:          jsonTool{Name: "runaway", Version: schema.ProductVersion},
		Summary:       normalizeSummary(s),
	}
}

// writeJSON writes one indented document:
// {"schema_version", "tool", "summary", "runs": [every run]}.
func writeJSON(w *bufio.Writer, scan *Scan, _ Options) error {
	head, err := encodeJSON(newJSONHead(scan.Summary))
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	// The head ends in "\n}"; the runs continue the same object.
	w.Write(head[:len(head)-2])
	w.WriteString(",\n" + jsonIndent + `"runs": [`)
	var run []byte
	for i := range scan.Runs {
		run, err = appendRunJSONIndented(run[:0], &scan.Runs[i])
		if err != nil {
			return fmt.Errorf("run %q: %w", scan.Runs[i].RunID, err)
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n" + jsonRunPrefix)
		if _, err := w.Write(run); err != nil {
			return err
		}
	}
	if len(scan.Runs) > 0 {
		w.WriteString("\n" + jsonIndent)
	}
	_, err = w.WriteString("]\n}\n")
	return err
}

// writeNDJSON writes one compact RunResult per line and nothing else, so
// `jq`, `grep` and line-oriented loaders can stream it.
func writeNDJSON(w *bufio.Writer, scan *Scan, _ Options) error {
	for i := range scan.Runs {
		if err := WriteRunNDJSON(w, &scan.Runs[i]); err != nil {
			return err
		}
	}
	return nil
}

// WriteRunNDJSON writes one run as one ndjson line, exactly as the ndjson
// format does, so a caller can stream runs as they are analyzed. w should be
// buffered.
func WriteRunNDJSON(w io.Writer, r *detect.RunResult) error {
	// The line is built in a buffer used again, and written whole or not at
	// all: a fresh slice a line was 120 MB on the 1 GB corpus.
	buf := lineBuffers.Get().(*[]byte)
	defer lineBuffers.Put(buf)
	line, err := appendRunJSON((*buf)[:0], r)
	if err != nil {
		return fmt.Errorf("run %q: %w", r.RunID, err)
	}
	line = append(line, '\n')
	*buf = line
	_, err = w.Write(line)
	return err
}

var lineBuffers = sync.Pool{New: func() any { return new([]byte) }}

// encodeJSON encodes v indented, without a trailing newline. HTML escaping
// is off: the output is not embedded in HTML, and "\u003e" in every
// "A -> B" headline would only hurt people reading the json raw.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", jsonIndent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeInvisibles(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// normalizeSummary makes absent collections encode as {} and [] rather than
// null, so consumers can iterate without null checks.
func normalizeSummary(s Summary) Summary {
	if s.Input.RejectsByKind == nil {
		s.Input.RejectsByKind = map[string]int64{}
	}
	if s.Input.FailedSources == nil {
		s.Input.FailedSources = []string{}
	}
	if s.Input.SkippedFiles == nil {
		s.Input.SkippedFiles = []string{}
	}
	if s.Input.Formats == nil {
		s.Input.Formats = map[string]FormatRead{}
	}
	if s.ByRootCause == nil {
		s.ByRootCause = map[detect.RootCause]int{}
	}
	if s.RunawayByRootCause == nil {
		s.RunawayByRootCause = map[detect.RootCause]int{}
	}
	return s
}

// escapeInvisibles rewrites, in valid JSON text, the characters that
// encoding/json leaves raw but a terminal may act on: DEL, C1 controls (U+0080
// to U+009F; U+009B is a one-character CSI for terminals that honour it) and the
// bidirectional controls that make text display in another order than it
// reads (Trojan Source). They become \uXXXX escapes, which decode to the same
// string, so `runaway scan --format json` is as safe to print on a terminal
// as the table.
//
// Outside strings JSON has only its own punctuation, digits, literals and
// blanks, so these characters can only occur inside strings, where a \u
// escape means the same thing.
func escapeInvisibles(b []byte) []byte {
	var out []byte // allocated on the first escape; most documents need none
	last := 0
	for i := 0; i < len(b); {
		if i+8 <= len(b) && !mayNeedEscape(binary.LittleEndian.Uint64(b[i:])) {
			i += 8 // eight bytes of plain ASCII: most of every report
			continue
		}
		if b[i] < 0x7f { // printable ASCII and the controls JSON escaped already
			i++
			continue
		}
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		if r == 0x7f || isC1(r) || isBidiControl(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+16)
			}
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// mayNeedEscape reports whether one of the eight bytes of w is 0x7f or
// above: DEL or part of a non-ASCII character.
func mayNeedEscape(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// A byte of w+0x01 has its high bit set when the byte is 0x7f or more
	// (no carry crosses bytes: each byte below 0x80 stays below 0x100).
	return ((w&^highs)+ones|w)&highs != 0
}
