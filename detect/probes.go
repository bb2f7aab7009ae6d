package detect

import (
	"strconv"

	"github.com/runawayhq/runaway/schema"
)

// unseenProbe finds an edit that went through and put a print in the code
// (flagAddsPrint), after which the first check the agent had run before
// that edit, run again in the stuck stretch [first, last], came back with
// the very answer it gave before it (the same result fingerprint):
// the print the edit added does not show. Edits of a file the run wrote
// whole before are passed over: that is the agent's own script, not the
// code it checks. Code that the check goes
// through would print it; the agent edits code that does not run (another
// copy of the package is imported) while it believes its edits are live,
// the wrong belief that keeps pulling it back (memory-contamination,
// docs/root-causes.md, rule 10). It returns that edit and that check, and
// how many such edits there are; n is 0 when there is none. Without
// outputs (--strip-output) no answers are compared, and there is none.
func unseenProbe(v *Run, a *analysis, first, last int) (edit, check, n int) {
	edit, check = -1, -1
	written := map[uint32]bool{} // files the run wrote whole: its own scripts
	for k, i := range a.calls {
		if i > last {
			break
		}
		if v.Flags[i]&flagCreate != 0 && v.Flags[i]&flagError == 0 {
			written[v.EditFile[i]] = true
		}
		if v.Flags[i]&flagAddsPrint == 0 || !editWent(v, a, i) || written[v.EditFile[i]] {
			continue
		}
		j, before := rerunAfter(v, a, k)
		if j < first || j > last || v.Result[j] != v.Result[before] {
			continue
		}
		if n == 0 {
			edit, check = i, j
		}
		n++
	}
	return edit, check, n
}

// rerunAfter is the first call after a.calls[k] that is no edit and runs
// again a call made before it, and the last of those earlier runs; -1, -1
// when there is none. Calls whose answers cannot be compared (no result,
// an empty one, one without what the tool returned: an output stripped)
// are passed over.
func rerunAfter(v *Run, a *analysis, k int) (j, before int) {
	answered := func(i int) bool {
		return v.Flags[i]&(flagResult|flagPayload) == flagResult|flagPayload && v.Flags[i]&flagEmpty == 0 && v.Result[i] != 0 &&
			v.Names.IntentName(v.Intent[i]) != schema.IntentEdit
	}
	for _, j := range a.calls[k+1:] {
		if !answered(j) {
			continue
		}
		for b := k - 1; b >= 0; b-- {
			if i := a.calls[b]; v.Args[i] == v.Args[j] && answered(i) {
				return j, i
			}
		}
	}
	return -1, -1
}

// editWent reports whether call i is an edit that went through and changed
// the code: one that brought progress that lasted (editedAnew), or one that
// changed the code anew although the editor's answer looked like an earlier
// one (changedAnew: an editor that echoes the lines around each edit answers
// two edits of one region nearly alike). What the edit put in the code is
// there either way, and the next run of code that goes through it shows it.
func editWent(v *Run, a *analysis, i int) bool {
	return editedAnew(v, a, i) || (a.changedAnew(v, i) && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit)
}

// asUnseenProbe names the root cause of a loop memory-contamination when a
// print the agent added in it never showed (unseenProbe), and says so in
// its evidence. The finding and the verdict stay.
func asUnseenProbe(v *Run, a *analysis, p *hit) (edit int) {
	if p.RootCause == CauseMemoryContamination {
		return -1
	}
	edit, check, n := unseenProbe(v, a, p.first, p.last)
	if n == 0 {
		return -1
	}
	p.nameBelief("a print the agent added to the code (step "+strconv.FormatInt(v.Step[edit], 10)+
		") never showed: the same check gave the same answer after it (step "+strconv.FormatInt(v.Step[check], 10)+")", "prints_not_shown", n)
	return edit
}

// probeOnset moves the onset of a loop so named (asUnseenProbe: edit is the
// edit whose print never showed) to where the belief began: the first
// check that gave its earlier answer again after an edit that went through
// of the same file, from the onset found on. A check run before any such
// edit (the reproduction of the failure) is not the belief at work yet:
// nothing the agent believes changed has been run.
func probeOnset(v *Run, a *analysis, edit, onset int) int {
	for k, i := range a.calls {
		if i >= edit {
			break
		}
		if i < onset || v.EditFile[i] != v.EditFile[edit] || !editWent(v, a, i) {
			continue
		}
		if j, before := rerunAfter(v, a, k); j >= 0 && j <= edit && v.Result[j] == v.Result[before] {
			return j
		}
	}
	return onset
}
