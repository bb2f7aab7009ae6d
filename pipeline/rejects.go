package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/internal/atomicfile"
)

// RejectsIndexSuffix names the index written beside --rejects FILE:
// FILE + RejectsIndexSuffix holds one JSON object per rejected line
// (docs/output.md, "Rejected lines").
const RejectsIndexSuffix = ".index.ndjson"

// rejectsOut is the rejects file of a read and its index, pending until
// the job ends: they are committed together when the read was complete and
// the job was not interrupted, and discarded otherwise.
type rejectsOut struct {
	lines, index *atomicfile.File
	entry        []byte // the index line being encoded, its buffer reused
	complete     bool   // every source was read: the files hold every reject
}

// indexEntry is one line of the index, in the order of its keys.
type indexEntry struct {
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

func createRejects(path string) (*rejectsOut, error) {
	lines, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	index, err := atomicfile.Create(path + RejectsIndexSuffix)
	if err != nil {
		lines.Abort()
		return nil, err
	}
	return &rejectsOut{lines: lines, index: index}, nil
}

// add writes the index entry of a reject; ingest wrote its bytes to lines.
func (r *rejectsOut) add(rj ingest.Reject) {
	var err error
	r.entry, err = json.Marshal(indexEntry{File: rj.File, Line: rj.Line, Kind: rj.Kind, Reason: rj.Reason, Offset: rj.Offset, Length: rj.Length})
	if err != nil {
		// Strings and integers always encode; an error here is a bug.
		panic(err)
	}
	r.index.Write(append(r.entry, '\n')) // a failed write is kept and reported by the commit
}

// finishRejects commits the pending rejects file and its index when the
// read was complete and the job was not interrupted, and discards them
// otherwise; it returns the job's error, or the commit's when the job had
// none.
func (in *input) finishRejects(jobErr error) error {
	r := in.rejects
	if r == nil {
		return jobErr
	}
	in.rejects = nil
	var interrupted *InterruptedError
	if !r.complete || errors.As(jobErr, &interrupted) {
		r.index.Abort()
		r.lines.Abort()
		return jobErr
	}
	// The index first: if renaming the rejects file then fails, the index
	// is removed and the old rejects file stays as it was, instead of the
	// new rejects being removed.
	if err := atomicfile.CommitAll(r.index, r.lines); err != nil {
		// Exit 3 whatever the job found: its findings are in its report,
		// and another failure is said with this one.
		if jobErr != nil && !Reported(jobErr) {
			return outputf("%v; --rejects: %v", jobErr, err)
		}
		return outputf("--rejects: %v", err)
	}
	return jobErr
}

// rejectsNote is what stderr says after the first rejects it names.
func (in *input) rejectsNote(more int) string {
	if in.RejectsFile != "" || in.rejects != nil {
		return fmt.Sprintf("... %d more rejected lines (see the summary; each is in the rejects file, located in its %s)", more, RejectsIndexSuffix)
	}
	return fmt.Sprintf("... %d more rejected lines (see the summary; --rejects FILE keeps them all, with FILE%s locating each)", more, RejectsIndexSuffix)
}
