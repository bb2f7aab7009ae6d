package detect

import (
	"sort"
	"strconv"
)

// otherCopy finds, in the stuck stretch [first, last], an agent changing
// one copy of a file while the code that runs is another copy of it (the
// repository checked out twice, the package imported from the other tree):
// failures raised in a copy of a file (Run.FileCopy) after an edit that
// went through of another copy of the same file, with no edit of the copy
// that failed before them. Each edit then changes code that never runs, and
// the same failure comes back: the agent acts on the belief that its edits
// are live, the wrong belief that keeps pulling it back
// (memory-contamination, docs/root-causes.md). It returns the last such
// edit before the first such failure, that failure, and how many there
// are; n is 0 when there is none.
func otherCopy(v *Run, a *analysis, first, last int) (edit, fail, n int) {
	if len(v.FileCopy) != v.Len() {
		return -1, -1, 0
	}
	copyEditPass(v, a)
	edit, fail = -1, -1
	for j := first; j < v.Len(); j++ {
		other := int(a.otherCopyEdit[j])
		if other < 0 || (j > last && other < first) {
			continue
		}
		if n == 0 {
			edit, fail = other, j
		}
		n++
	}
	return edit, fail, n
}

// copyKey names one copy of a file (Run.FileCopy) or, with the copy's low
// bits cleared, every copy of it under the same directory name.
type copyKey struct{ file, copy uint32 }

// copyEditPass fills a.otherCopyEdit in one pass: for each failure raised
// in a known copy of a file, the last edit that went through of another
// copy of the same file (same file and directory name) before it, when no
// edit changed the copy that failed before it; -1 for every other step.
func copyEditPass(v *Run, a *analysis) {
	a.otherCopyEdit = resize(a.otherCopyEdit, v.Len())
	if a.lastCopyEdit == nil {
		a.lastCopyEdit, a.copyEdited = map[copyKey]int32{}, map[copyKey]bool{}
	}
	clear(a.lastCopyEdit)
	clear(a.copyEdited)
	for j := range v.Len() {
		a.otherCopyEdit[j] = -1
		if ran := v.FileCopy[j]; v.Flags[j]&flagError != 0 && v.FailFile[j] != 0 && ran != 0 &&
			!a.copyEdited[copyKey{v.FailFile[j], ran}] {
			if i, ok := a.lastCopyEdit[copyKey{v.FailFile[j], ran >> 16}]; ok {
				a.otherCopyEdit[j] = i
			}
		}
		if c := v.FileCopy[j]; c != 0 && v.EditFile[j] != 0 && v.Flags[j]&flagError == 0 {
			a.copyEdited[copyKey{v.EditFile[j], c}] = true
			a.lastCopyEdit[copyKey{v.EditFile[j], c >> 16}] = int32(j)
		}
	}
}

// asOtherCopy names the root cause of a loop memory-contamination when its
// failures were raised in a copy of a file the agent never edited while it
// edited another (otherCopy), and says so in its evidence. The finding and
// the verdict stay.
func asOtherCopy(v *Run, a *analysis, p *hit) (fail int) {
	if p.RootCause == CauseMemoryContamination {
		return -1
	}
	edit, fail, n := otherCopy(v, a, p.first, p.last)
	if n == 0 {
		return -1
	}
	p.nameBelief("the edits changed one copy of the file the failures were raised in (step "+
		strconv.FormatInt(v.Step[edit], 10)+") while another copy, never edited, ran (step "+
		strconv.FormatInt(v.Step[fail], 10)+")", "failures_in_unedited_copy", n)
	return fail
}

// nameBelief names a loop's root cause memory-contamination, adds why to
// its message and counts what showed the belief in its evidence.
func (p *hit) nameBelief(why, count string, n int) {
	p.RootCause = CauseMemoryContamination
	p.Message += "; " + why
	p.Evidence.Counts = append(p.Evidence.Counts, Count{Name: count, Value: int64(n)})
}

// beliefOnset walks the onset of a loop whose failures were raised in a
// copy of a file the agent never edited (asOtherCopy: fail is one of them)
// back to the first failure raised in that copy after an edit of the other
// copy: there the edit first showed it did not reach the code that runs,
// and the belief that it did began to steer the agent. What the agent did
// between (views of the copy it edits, probes of the same failure) is that
// belief at work, so new calls do not end the walk; a change that worked
// does (an edit of another file, a first install), as it ends the walk to
// any loop's first instance. An edit of either copy of the failing file is
// no such change: the failure came back after it.
func beliefOnset(v *Run, a *analysis, fail, onset int) int {
	file, ran := v.FailFile[fail], v.FileCopy[fail]
	for k := sort.SearchInts(a.calls, onset) - 1; k >= 0; k-- {
		i := a.calls[k]
		if installedAnew(v, a, i) || (editedAnew(v, a, i) && v.EditFile[i] != file) {
			break
		}
		if v.Flags[i]&flagError != 0 && v.FailFile[i] == file && v.FileCopy[i] == ran && a.otherCopyEdit[i] >= 0 {
			onset = i
		}
	}
	return onset
}
