package ingest

import "bytes"

// Selecting runs: explain and fixture read a few runs out of inputs that may
// hold millions. A line is decoded only if it may belong to one of them: it
// holds one of the ids' bytes, or a backslash (an escaped id does not match
// its bytes). Of the lines decoded, those of other runs are skipped too. The
// lines skipped are counted in Stats.Skipped, never rejected: whether a line
// of another run is malformed is not the question asked. A malformed line that
// may belong to a selected run is a reject as usual.

// maxPrefilterIDs bounds the ids searched for in every line's bytes; with
// more, each line is decoded and only its run_id compared.
const maxPrefilterIDs = 32

// runSelector is one worker's view of Options.RunIDs.
type runSelector struct {
	needles [][]byte            // nil: decode every line
	ids     map[string]struct{} // nil: select every run
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

// mayHold reports whether line can be a step of a selected run.
func (s *runSelector) mayHold(line []byte) bool {
	if s.needles == nil || bytes.IndexByte(line, '\\') >= 0 {
		return true
	}
	for _, n := range s.needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

func (s *runSelector) selected(runID string) bool {
	_, ok := s.ids[runID]
	return ok
}

// StepLine is one decoded step line, verbatim, as Options.OnStepLine sees it.
type StepLine struct {
	Source int    // index of the source, as in column src_file
	Line   int64  // 1-based line number in the source
	RunID  string // the step's run_id
	Raw    []byte // the line without its terminator; the callee owns it
}
