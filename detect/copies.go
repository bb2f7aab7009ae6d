package detect

import "strconv"

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
func asOtherCopy(v *Run, p *hit) {
	if p.RootCause == CauseMemoryContamination {
		return
	}
	edit, fail, n := otherCopy(v, p.first, p.last)
	if n == 0 {
		return
	}
	p.RootCause = CauseMemoryContamination
	p.Message += "; the edits changed one copy of the file the failures were raised in (step " +
		strconv.FormatInt(v.Step[edit], 10) + ") while another copy, never edited, ran (step " +
		strconv.FormatInt(v.Step[fail], 10) + ")"
	p.Evidence.Counts = append(p.Evidence.Counts, Count{Name: "failures_in_unedited_copy", Value: int64(n)})
}
