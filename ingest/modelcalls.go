package ingest

import "strings"

// Agent harnesses write, beside a run's log, a directory of one file per
// model call: OpenHands' evaluation writes llm_completions/<instance>/
// <model>-<time>.json, each the messages sent (the run's history up to that
// call) and the response. No file in it is a run: the chat adapters refuse
// such a document (docs/adapters/openai-messages.md). A walk or a listing
// passes the directory over, told to Filter.Skipped once, without reading
// its files, which would cost a read of every prompt the run sent: a
// hundred calls of a long run are gigabytes. Named, it is walked and its
// files are refused one by one.

// modelCallDirs are the names of such directories.
var modelCallDirs = map[string]bool{"llm_completions": true}

// modelCallDirWhy is why a directory of model calls was passed over.
const modelCallDirWhy = "a directory of one file per model call (OpenHands' llm_completions): it holds no run, the run's own log does (output.jsonl); name it to read it anyway"

// modelCallDir is the prefix of rel (slash-separated) up to and with its
// first directory of model calls, or "" when it is below none.
func modelCallDir(rel string) string {
	elems := strings.Split(rel, "/")
	end := 0
	for _, elem := range elems[:len(elems)-1] { // its directories, not the file
		end += len(elem) + 1
		if modelCallDirs[elem] {
			return rel[:end]
		}
	}
	return ""
}
