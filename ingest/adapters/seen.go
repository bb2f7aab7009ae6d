package adapters

import (
	"hash/maphash"
	"strings"
)

// A tool's output is "seen" when it only repeats what the run was already
// shown: a file read again through another window of lines, a listing
// printed again among a few new lines. Its bytes are new, its information
// is not, so it is no progress (tool_result.seen). Paging through a file
// once shows new lines every time and is progress.

// shownLines is what a run's tool outputs have shown so far: a set of
// their lines.
type shownLines struct {
	lines map[uint64]struct{}
}

// Thresholds of "seen": an output of at least seenMinLines counted lines,
// at most seenMaxNew of them new to the run. A file viewed again after an
// edit of one or two of its lines repeats it; a longer change, or a short
// answer ("3 passed"), is not judged so.
const (
	seenMinLines = 5
	seenMaxNew   = 2
	// maxShownLines bounds the lines a run remembers: past it, outputs
	// are still judged, against what was kept.
	maxShownLines = 1 << 18
)

var shownSeed = maphash.MakeSeed()

// repeats reports whether text only repeats lines shown before, and then
// remembers its lines. Blank lines and lines of fewer than 3 characters
// (braces, a lone number) do not count.
func (s *shownLines) repeats(text string) bool {
	if s.lines == nil {
		s.lines = map[uint64]struct{}{}
	}
	counted, fresh := 0, 0
	var added []uint64
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if len(line) < 3 {
			continue
		}
		counted++
		h := maphash.String(shownSeed, line)
		if _, ok := s.lines[h]; !ok {
			fresh++
			added = append(added, h)
		}
	}
	for _, h := range added {
		if len(s.lines) >= maxShownLines {
			break
		}
		s.lines[h] = struct{}{}
	}
	return counted >= seenMinLines && fresh <= seenMaxNew
}
