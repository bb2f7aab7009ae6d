package schema

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/zeebo/xxh3"
)

// A call is often about one file: the file an edit changes, the file a
// failure was raised in. Knowing both tells an agent whose edits never
// reach the place that fails (a check script rewritten around the same
// setup error raised inside a library) from one changing the failing code
// each time. A file is keyed by its base name (FileKey): paths are written
// relative to different directories (`/testbed/pkg/a.py`, `pkg/a.py`), and
// two files of one name taken for one only ever make a failure look
// reached, never the other way.

// FileKey is the key of a file path: the hash of its base name, never 0;
// 0 for an empty name. A package's `__init__.py` is named by its package:
// its key is that of `pkg/__init__.py` (the directory above it kept), as
// every package has one and `django/conf/__init__.py` is not
// `django/db/models/fields/__init__.py`.
func FileKey(path []byte) uint64 {
	i := bytes.LastIndexByte(path, '/')
	if i >= 0 && packageInit(path[i+1:]) {
		if j := bytes.LastIndexByte(path[:i], '/'); j+1 < i {
			i = j // keep the package's directory
		}
	}
	if i >= 0 {
		path = path[i+1:]
	}
	if len(path) == 0 {
		return 0
	}
	return xxh3.Hash(path) | 1
}

// packageInit reports whether a base name is a Python package's
// `__init__.py` (or its stub).
func packageInit(name []byte) bool {
	return string(name) == "__init__.py" || string(name) == "__init__.pyi"
}

// reSourceFile finds a file name with an extension of source, config or
// text files, after the start or a separator: `/testbed/pkg/a.py`,
// `Path('a.py')`, `--path=a.py`. The name is the submatch; the character
// after it is consumed, so it must not go on as a name does.
var reSourceFile = regexp.MustCompile(`(?:^|[/\s'"(=:,\[{])([\w@+-][\w.@+-]*\.(?:py|pyi|pyx|ipynb|js|jsx|mjs|cjs|ts|tsx|vue|svelte|java|kt|scala|go|rb|rs|c|cc|cpp|cxx|h|hpp|cs|php|swift|sh|bash|sql|json|ya?ml|toml|cfg|ini|conf|config|properties|xml|gradle|md|rst|txt|html?|css|scss|sty|tex|diff|patch))(?:$|[^\w.@+-])`)

// pathKeys are the args members that name the file a call works on.
var pathKeys = []string{"path", "file", "file_path", "filepath", "filename", "target_file", "target"}

// EditFileKey is the FileKey of the file an edit's args change: the value
// of a member naming a path (pathKeys), at any depth (Codex's
// `{"changes":[{"path":...}]}`, Aider's `{"edits":[{"file":...}]}`), else
// the first file name on the first line of a string (a command: `sed -i
// ... a.py`, `create /testbed/a.py --file_text ...`), else the first
// anywhere in one (a here-document's `Path('a.py')`), members taken in the
// order of their names. 0 when the args name no file.
func EditFileKey(args []byte) uint64 {
	file, _ := EditKeys(args)
	return file
}

// EditKeys is EditFileKey and EditCopyKey of an edit's args, read with one
// parse of them.
func EditKeys(args []byte) (file, fileCopy uint64) {
	var v any
	if json.Unmarshal(bytes.TrimSpace(args), &v) != nil {
		return 0, 0
	}
	var strs []string
	f := findPath(v, &strs)
	return editFileKey(f, strs), editCopyKey(f, strs)
}

// editFileKey is EditFileKey of args whose path member is f ("" when they
// have none) and whose other strings are strs.
func editFileKey(f string, strs []string) uint64 {
	if f != "" {
		if name := firstSourceFile(f); name != nil {
			return FileKey(name)
		}
		return FileKey([]byte(f))
	}
	for _, s := range strs {
		line, _, _ := strings.Cut(s, "\n")
		if f := firstSourceFile(line); f != nil {
			return FileKey(f)
		}
	}
	for _, s := range strs {
		if f := firstSourceFile(s); f != nil {
			return FileKey(f)
		}
	}
	return 0
}

// findPath returns the first path member (pathKeys) of v, depth first with
// members in the order of their names, and collects v's other strings into
// strs meanwhile; "" when v has none. A Windows path reads as a slashed one.
func findPath(v any, strs *[]string) string {
	switch v := v.(type) {
	case string:
		*strs = append(*strs, v)
	case []any:
		for _, e := range v {
			if f := findPath(e, strs); f != "" {
				return f
			}
		}
	case map[string]any:
		for _, k := range pathKeys {
			if s, ok := v[k].(string); ok && s != "" {
				return strings.ReplaceAll(s, `\`, "/")
			}
		}
		names := make([]string, 0, len(v))
		for k := range v {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if f := findPath(v[k], strs); f != "" {
				return f
			}
		}
	}
	return ""
}

// firstSourceFile returns the first file name reSourceFile finds in s; for
// a package's `__init__.py` written with its directory, the directory too
// (FileKey names it by its package).
func firstSourceFile(s string) []byte {
	m := reSourceFile.FindStringSubmatchIndex(s)
	if m == nil {
		return nil
	}
	from := m[2]
	if packageInit([]byte(s[m[2]:m[3]])) && from > 1 && s[from-1] == '/' {
		j := from - 1
		for j > 0 && !strings.ContainsRune("/ \t'\"(=:,[{", rune(s[j-1])) {
			j--
		}
		from = j
	}
	return []byte(s[from:m[3]])
}

// FailureFileKey is the FileKey of the file a failed result's output says
// the failure was raised in: the file of the last frame of its one Python
// traceback, or of py_compile's `Sorry:` line (AppendFailureSite reads the
// same places). data is the result's data as a JSON string, escaped form,
// quotes included. 0 without one, for an output with two tracebacks, and
// for code that is in no file (`<stdin>`, `<string>`).
func FailureFileKey(data []byte) uint64 {
	path := failurePath(data)
	if len(path) == 0 || path[0] == '<' || bytes.HasPrefix(path, []byte(`\u003c`)) {
		return 0
	}
	return FileKey(path)
}

// failurePath is the file, as the data writes it (escaped JSON string
// form), of the last frame of its one Python traceback, or of py_compile's
// `Sorry:` line; nil without one and for an output with two tracebacks.
func failurePath(data []byte) []byte {
	if bytes.Count(data, tracebackHeader) > 1 {
		return nil
	}
	if bytes.Contains(data, []byte("Sorry: ")) {
		if m := reFailSorry.FindSubmatchIndex(data); m != nil {
			return data[m[4]:m[5]]
		}
	}
	if bytes.Contains(data, []byte(`File \"`)) {
		if frames := reFailFrame.FindAllSubmatchIndex(data, -1); len(frames) > 0 {
			last := frames[len(frames)-1]
			return data[last[2]:last[3]]
		}
	}
	return nil
}

// FailedCallFileKey is the fail_file key of a failed call: FailureFileKey
// of its result's data (escaped JSON string form, quotes included) when
// the data is text, else, when the call logged no output, the file its
// command compiled (CompileCheckFileKey of its args): a compile check that
// failed found code that does not parse in that file, whether or not its
// output was kept.
func FailedCallFileKey(data, args []byte) uint64 {
	if NoData(data) {
		return CompileCheckFileKey(args)
	}
	if data = bytes.TrimSpace(data); IsJSONString(data) {
		return FailureFileKey(data)
	}
	return 0
}

// reCompileCheck is a shell command that compiles one Python file and runs
// nothing else: `python -m py_compile a.py`, the interpreter named by a
// version or a path, the file in matching quotes or none, a `cd DIR &&`
// before it, an `&& echo ...` after it (a marker printed when it passed:
// the line fails with the check). The file is one of the submatches.
var reCompileCheck = regexp.MustCompile(`^\s*(?:cd\s+[^\s;&|]+\s*&&\s*)?(?:\S*/)?python[0-9.]*\s+-m\s+py_compile\s+(?:'([^'\s]+\.py)'|"([^"\s]+\.py)"|([^\s'";&|<>]+\.py))\s*(?:&&\s*echo\b[^;&|<>]*)?$`)

// CompileCheckFileKey is the FileKey of the file a compile check compiles:
// args of a shell call whose `command` (or `cmd`) is a compile check
// (reCompileCheck); 0 for any other args.
func CompileCheckFileKey(args []byte) uint64 {
	if !bytes.Contains(args, []byte("py_compile")) {
		return 0
	}
	var a struct {
		Command string `json:"command"`
		Cmd     string `json:"cmd"`
	}
	if json.Unmarshal(args, &a) != nil {
		return 0
	}
	m := reCompileCheck.FindStringSubmatch(a.Command + a.Cmd)
	if m == nil {
		return 0
	}
	return FileKey([]byte(m[1] + m[2] + m[3]))
}

// reShellCreate is a shell command line that writes a whole file from a
// here-document: `cat > f <<'EOF'`, `cat <<EOF > f`, `tee f <<EOF`.
var reShellCreate = regexp.MustCompile(`^\s*(?:cat\s*(?:>\s*\S+\s*<<|<<-?\s*['"]?\w+['"]?\s*>\s*\S)|tee\s+\S+\s*<<)`)

// CreatesFile reports whether an edit's call writes a file whole rather
// than changing part of one: the `create` command of an editor (a tool of
// EditorTools, or one whose name says it edits, as OpenHands' `edit`), as
// JSON (`{"command": "create", ...}`) or as SWE-agent's one string
// (`create /testbed/a.py --file_text ...`); or a shell command line that
// writes a file from a here-document. An agent writing its check script anew is
// not changing the code it checks.
func CreatesFile(tool string, args []byte) bool {
	if !bytes.Contains(args, []byte("create")) && !bytes.Contains(args, []byte("<<")) && !bytes.Contains(args, []byte(`\u003c\u003c`)) {
		return false // the edits that change part of a file, most of them, are not decoded
	}
	var a struct {
		Command    string `json:"command"`
		Args       string `json:"args"`
		Cmd        string `json:"cmd"`
		Keystrokes string `json:"keystrokes"`
	}
	if json.Unmarshal(bytes.TrimSpace(args), &a) != nil {
		return false
	}
	if editor := EditorTools[strings.ToLower(tool)] || strings.Contains(strings.ToLower(tool), "edit"); editor && (a.Command == "create" || strings.HasPrefix(a.Args, "create ")) {
		return true
	}
	if !IsShellTool(tool) {
		return false
	}
	cmd := a.Command + a.Cmd + a.Keystrokes
	for _, line := range strings.SplitN(cmd, "\n", 2)[:1] {
		for _, seg := range strings.Split(line, "&&") {
			if reShellCreate.MatchString(seg) {
				return true
			}
		}
	}
	return false
}

// A file's key (FileKey) names it by its base name, so that paths written
// relative to different directories meet. Two copies of one tree (a
// repository checked out twice: `/workspace/repo/pkg/a.py` and
// `/testbed/pkg/a.py`) then give one key. Its copy key (FileCopyKey) tells
// them apart beside it: an agent that edits one copy while the code that
// runs is imported from the other changes nothing that runs, and the same
// failure comes back, raised in the copy it never edited.

// FileCopyKey is the copy key of an absolute file path: the hash of its
// last two names (the file and the directory holding it) in the high 32
// bits, of the whole path (cleaned: `/a/./b` is `/a/b`) in the low 32,
// never 0. Two keys with the same high half and another low half name one
// file in two trees. 0 for a relative path (it names no tree) and for a
// path of fewer than two names.
func FileCopyKey(p []byte) uint64 {
	if len(p) == 0 || p[0] != '/' || p[len(p)-1] == '/' {
		return 0 // no tree, or a directory
	}
	clean := path.Clean(string(p))
	i := strings.LastIndexByte(clean, '/')
	j := strings.LastIndexByte(clean[:max(i, 0)], '/')
	if i <= 0 || j < 0 || i == len(clean)-1 {
		return 0
	}
	return xxh3.HashString(clean[j+1:])<<32 | uint64(uint32(xxh3.HashString(clean))) | 1
}

// FoldCopyKey folds a copy key to 32 bits as the run store keeps it: 16
// bits of each half, so that the high halves of two folded keys still say
// whether they name one file, and the low halves whether one copy.
func FoldCopyKey(k uint64) uint32 {
	if k == 0 {
		return 0
	}
	return uint32(k>>48)<<16 | uint32(k)&0xffff | 1
}

// EditCopyKey is the FileCopyKey of the file an edit's args change, when
// they name it by an absolute path: the path member EditFileKey reads
// (pathKeys), else the first absolute path of a source file on the first
// line of a string member (`sed -i ... /testbed/a.py`). 0 otherwise.
func EditCopyKey(args []byte) uint64 {
	_, fileCopy := EditKeys(args)
	return fileCopy
}

// editCopyKey is EditCopyKey of args whose path member is f ("" when they
// have none) and whose other strings are strs.
func editCopyKey(f string, strs []string) uint64 {
	if f != "" {
		if strings.HasPrefix(f, "/") && firstSourceFile(f) != nil {
			return FileCopyKey([]byte(strings.TrimSpace(f)))
		}
		return 0
	}
	for _, s := range strs {
		line, _, _ := strings.Cut(s, "\n")
		m := reSourceFile.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		from := m[2]
		for from > 0 && !strings.ContainsRune(" \t'\"(=:,[{", rune(line[from-1])) {
			from--
		}
		return FileCopyKey([]byte(line[from:m[3]]))
	}
	return 0
}

// FailureCopyKey is the FileCopyKey of the file FailureFileKey reads from
// a failed result's data (escaped JSON string form): the file of the last
// frame of its one Python traceback, or of py_compile's `Sorry:` line,
// when the output writes it as an absolute path. 0 otherwise.
func FailureCopyKey(data []byte) uint64 {
	data = bytes.TrimSpace(data)
	if !IsJSONString(data) {
		return 0
	}
	return FileCopyKey(bytes.ReplaceAll(failurePath(data), []byte(`\/`), []byte("/")))
}

// AddsPrint reports whether an edit's args replace text with text that
// prints more (more `print(` calls in `new_str` than in `old_str`, the
// fields of the str_replace and insert editors): the agent put a probe in
// the code, and the next run of code that goes through it shows its output.
func AddsPrint(args []byte) bool {
	if !bytes.Contains(args, []byte("print(")) {
		return false
	}
	var a struct {
		Old string `json:"old_str"`
		New string `json:"new_str"`
	}
	if json.Unmarshal(bytes.TrimSpace(args), &a) != nil {
		return false
	}
	return strings.Count(a.New, "print(") > strings.Count(a.Old, "print(")
}
