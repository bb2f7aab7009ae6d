package ingest

import (
	"bytes"
	"unicode/utf8"
)

// Selecting runs: explain, fixture and the html overview's timelines read a
// few runs out of inputs that may hold millions. A line is decoded only if
// it may belong to one of them, decided from its bytes:
//
//   - Most lines name their run once, as a plain string: no backslash in
//     the line, one key run_id in any case, `"run_id":"..."`. Then that
//     value is the run id (a nested run_id key would be a second one), and
//     one map lookup decides, however many runs are asked for
//     (plainRunID).
//   - Otherwise (an escape anywhere, a second run_id key in the args),
//     the line is decoded if it holds one of the ids' bytes, a backslash or
//     invalid UTF-8;
//     with more than maxPrefilterIDs ids, it is decoded.
//
// Of the lines decoded, those of other runs are skipped too. The lines
// skipped are counted in Stats.Skipped, never rejected: whether a line of
// another run is malformed is not the question asked. A malformed line that
// may belong to a selected run is a reject as usual.

// maxPrefilterIDs bounds the ids searched for in the bytes of a line whose
// run id could not be read off directly.
const maxPrefilterIDs = 32

// runSelector is one worker's view of Options.RunIDs.
type runSelector struct {
	needles [][]byte            // nil: decode every line the quick path cannot decide
	ids     map[string]struct{} // the runs selected
	// others, with Options.OnOtherRun, holds the ids of other runs seen by
	// this worker, so each is passed on once; found, those not passed on yet.
	others map[string]struct{}
	found  []string
}

// maxOthers bounds the other runs' ids a worker remembers; past it, it
// forgets them and may pass an id on again.
const maxOthers = 1 << 16

// other notes the id of a skipped line.
func (s *runSelector) other(id []byte) {
	if s.others == nil {
		return
	}
	if _, ok := s.others[string(id)]; ok {
		return
	}
	if len(s.others) >= maxOthers {
		clear(s.others)
	}
	k := string(id)
	s.others[k] = struct{}{}
	s.found = append(s.found, k)
}

// takeOthers returns the ids noted since the last call.
func (s *runSelector) takeOthers() []string {
	f := s.found
	s.found = nil
	return f
}

func newRunSelector(ids []string) *runSelector {
	if ids == nil {
		return nil
	}
	s := &runSelector{ids: make(map[string]struct{}, len(ids))}
	for _, id := range ids {
		s.ids[id] = struct{}{}
	}
	if len(ids) <= maxPrefilterIDs {
		s.needles = make([][]byte, 0, len(ids))
		for _, id := range ids {
			s.needles = append(s.needles, []byte(id))
		}
	}
	return s
}

var runIDKey = []byte(`"run_id"`)

// mayHold reports whether line can be a step of a selected run.
func (s *runSelector) mayHold(line []byte) bool {
	if id, ok := plainRunID(line); ok {
		_, selected := s.ids[string(id)]
		if !selected {
			s.other(id)
		}
		return selected
	}
	// An escape, or bytes the decoder turns into U+FFFD, can spell an id
	// that its bytes do not hold.
	if s.needles == nil || bytes.IndexByte(line, '\\') >= 0 || !utf8.Valid(line) {
		return true
	}
	for _, n := range s.needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

// plainRunID reads the run id off line's bytes when it can be sure of it,
// and ok is false when it cannot. Sure means: the line has no backslash (so
// no key or value hides behind an escape), exactly one key matches run_id
// ignoring ASCII case (the decoder matches keys as encoding/json does, case
// aside; a second one, nested or not, would leave it unsure which is the
// step's), that key is the exact "run_id", and its value is a string of
// ASCII or valid UTF-8 (the decoder would change invalid bytes).
func plainRunID(line []byte) (id []byte, ok bool) {
	if bytes.IndexByte(line, '\\') >= 0 || runIDKeys(line) != 1 {
		return nil, false
	}
	i := bytes.Index(line, runIDKey)
	if i < 0 {
		return nil, false
	}
	rest := line[i+len(runIDKey):]
	j := skipSpace(rest, 0)
	if j >= len(rest) || rest[j] != ':' {
		return nil, false
	}
	j = skipSpace(rest, j+1)
	if j >= len(rest) || rest[j] != '"' {
		return nil, false
	}
	value := rest[j+1:]
	end := bytes.IndexByte(value, '"')
	if end < 0 || !utf8.Valid(value[:end]) {
		return nil, false
	}
	return value[:end], true
}

// idQuotes are the spellings of `id"` that a key folding to run_id ends with.
var idQuotes = [][]byte{[]byte(`id"`), []byte(`iD"`), []byte(`Id"`), []byte(`ID"`)}

// runIDKeys counts the quoted strings in line that equal run_id ignoring
// ASCII case: `"` r u n _ i d `"`, any letter in either case.
func runIDKeys(line []byte) int {
	n := 0
	for _, tail := range idQuotes {
		for off := 0; ; {
			k := bytes.Index(line[off:], tail)
			if k < 0 {
				break
			}
			at := off + k // the i of id"
			if at >= 5 && line[at-5] == '"' && line[at-1] == '_' &&
				line[at-4]|0x20 == 'r' && line[at-3]|0x20 == 'u' && line[at-2]|0x20 == 'n' {
				n++
			}
			off = at + len(tail)
		}
	}
	return n
}

func (s *runSelector) selected(runID string) bool {
	_, ok := s.ids[runID]
	if !ok && s.others != nil {
		s.other([]byte(runID))
	}
	return ok
}

// StepLine is one decoded step line, verbatim, as Options.OnStepLine sees it.
type StepLine struct {
	Source int    // index of the source, as in column src_file
	Line   int64  // 1-based line number in the source
	RunID  string // the step's run_id
	Step   int64  // the step's step
	Raw    []byte // the line without its terminator; the callee owns it
}
