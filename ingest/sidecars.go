package ingest

import (
	"os"
	"path"
	"path/filepath"
)

// Some agents keep, beside the file that holds a run, files that hold no
// run: Cline's task folder has api_conversation_history.json (the run, read
// by anthropic-messages), ui_messages.json (what the extension showed) and
// task_metadata.json (the files in its context). A walk or a listing passes
// the others over, told to Filter.Skipped, when the run's file is beside
// them; alone, or named, they are read (and refused, saying why). An
// OpenHands V1 conversation's folder keeps its events in a directory,
// events/ (read as one run, eventDirFiles), and beside it base_state.json
// (the conversation's state: its id, the agent and its model, the limits,
// the execution status, the running cost) and, under the agent server,
// meta.json (what the server stored of the conversation): the
// conversation's own bookkeeping, passed over the same way when an event
// directory is beside them.

// sidecarOf maps a sidecar's name to the name of the file beside it that
// holds the run.
var sidecarOf = map[string]string{
	"ui_messages.json":   "api_conversation_history.json",
	"task_metadata.json": "api_conversation_history.json",
}

// dirSidecarOf maps a sidecar's name to the name of the directory beside
// it that holds the run.
var dirSidecarOf = map[string]string{
	"base_state.json": "events",
	"meta.json":       "events",
}

// sidecarWhy is why a sidecar was passed over.
func sidecarWhy(run string) string {
	return "beside " + run + ", which holds the run (Cline's task folder); name it to read it anyway"
}

// walkSidecar says why the file at p, found by a walk, is passed over, or
// "" when it is read.
func walkSidecar(p string) string {
	if dir, ok := dirSidecarOf[filepath.Base(p)]; ok {
		if _, ok := eventDirFiles(filepath.Join(filepath.Dir(p), dir)); ok {
			return "beside " + dir + "/, which holds the run: the OpenHands conversation's own state (its id, agent, model, limits), not a log of its steps; name it to read it anyway"
		}
		return ""
	}
	run, ok := sidecarOf[filepath.Base(p)]
	if !ok {
		return ""
	}
	if info, err := os.Stat(filepath.Join(filepath.Dir(p), run)); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return sidecarWhy(run)
}

// listedSidecar says why the object at rel, in a listing that has shown
// the keys in runs (keys come in lexical order, and the run's file sorts
// before its sidecars), is passed over, or "" when it is read.
func listedSidecar(rel string, runs map[string]bool) string {
	run, ok := sidecarOf[path.Base(rel)]
	if !ok || !runs[path.Join(path.Dir(rel), run)] {
		return ""
	}
	return sidecarWhy(run)
}

// isSidecarRun reports whether the key rel names a file that holds a run
// beside sidecars: a listing keeps those keys, not all of them.
func isSidecarRun(rel string) bool {
	base := path.Base(rel)
	for _, run := range sidecarOf {
		if base == run {
			return true
		}
	}
	return false
}
