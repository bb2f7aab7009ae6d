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
func otherCopy(v *Run, first, last int) (edit, fail, n int) {
	if len(v.FileCopy) != v.Len() {
		return -1, -1, 0
	}
	edit, fail = -1, -1
	for j := first; j < v.Len(); j++ {
		ran := v.FileCopy[j]
		if v.Flags[j]&flagError == 0 || v.FailFile[j] == 0 || ran == 0 {
			continue
		}
		other := -1
		for i := 0; i < j; i++ {
			c := v.FileCopy[i]
			if c == 0 || v.EditFile[i] != v.FailFile[j] || v.Flags[i]&flagError != 0 {
				continue
			}
			if c == ran {
				other = -1 // the copy that runs was changed: what fails is its code
				break
			}
			if c>>16 == ran>>16 && (j <= last || i >= first) {
				other = i
			}
		}
		if other < 0 {
			continue
		}
		if n == 0 {
			edit, fail = other, j
		}
		n++
	}
	return edit, fail, n
}

// asOtherCopy names the root cause of a loop memory-contamination when its
// failures were raised in a copy of a file the agent never edited while it
// edited another (otherCopy), and says so in its evidence. The finding and
// the verdict stay.
func asOtherCopy(v *Run, p *hit) (fail int) {
	if p.RootCause == CauseMemoryContamination {
		return -1
	}
	edit, fail, n := otherCopy(v, p.first, p.last)
	if n == 0 {
		return -1
	}
	p.RootCause = CauseMemoryContamination
	p.Message += "; the edits changed one copy of the file the failures were raised in (step " +
		strconv.FormatInt(v.Step[edit], 10) + ") while another copy, never edited, ran (step " +
		strconv.FormatInt(v.Step[fail], 10) + ")"
	p.Evidence.Counts = append(p.Evidence.Counts, Count{Name: "failures_in_unedited_copy", Value: int64(n)})
	return fail
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
		if v.Flags[i]&flagError != 0 && v.FailFile[i] == file && v.FileCopy[i] == ran && editedOtherCopyBefore(v, i, file, ran) {
			onset = i
		}
	}
	return onset
}

// editedOtherCopyBefore reports whether an edit that went through changed
// another copy of file (a copy other than ran, of the same file and
// directory name) before step j, and none changed the copy ran.
func editedOtherCopyBefore(v *Run, j int, file, ran uint32) bool {
	other := false
	for i := 0; i < j; i++ {
		c := v.FileCopy[i]
		if c == 0 || v.EditFile[i] != file || v.Flags[i]&flagError != 0 {
			continue
		}
		if c == ran {
			return false
		}
		other = other || c>>16 == ran>>16
	}
	return other
}
