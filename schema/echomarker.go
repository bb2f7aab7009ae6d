package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// A shell command line that ends in an echo of a marker (`&& echo OK`)
// asks what the line without it asks, and the marker's line at the end of
// its output is not part of its answer. This file holds both halves: the
// args side (trimEchoSuffix, applied by ArgsPass to a top-level command)
// and the result side (TrimEchoedMarker, applied by ingest before a
// result is fingerprinted).

// The hashes of the args keys that hold a shell command line.
var (
	commandKeyHash = xxhash.Sum64String("command")
	cmdKeyHash     = xxhash.Sum64String("cmd")
)

// trimEchoSuffix cuts from a normalised command line a last command that
// only echoes words (`&& echo OK`, `; echo done`): a marker the agent
// prints to see the line ended, not part of what it asks.
func trimEchoSuffix(cmd []byte) []byte {
	i := bytes.LastIndex(cmd, []byte("echo"))
	if i < 0 {
		return cmd
	}
	rest := cmd[i+len("echo"):]
	if len(rest) > 0 && rest[0] != ' ' || bytes.ContainsAny(rest, "&|;<>$`()") {
		return cmd
	}
	head := bytes.TrimRight(cmd[:i], " ")
	switch {
	case bytes.HasSuffix(head, []byte("&&")):
		head = head[:len(head)-2]
	case bytes.HasSuffix(head, []byte(";")):
		head = head[:len(head)-1]
	default:
		return cmd
	}
	head = bytes.TrimRight(head, " ")
	if len(head) == 0 {
		return cmd
	}
	return head
}

// TrimEchoedMarker returns a shell command's output (data, a JSON string)
// without its last line when that line is the marker the command line's
// trailing echo printed (trimEchoSuffix): the line says the command ran,
// not what it answered, so `py_compile x.py` and `py_compile x.py && echo
// OK` give the same answer. ok is false when there is nothing to trim.
func TrimEchoedMarker(data []byte, args []byte) ([]byte, bool) {
	data = bytes.TrimSpace(data)
	if len(args) == 0 || !IsJSONString(data) || !bytes.Contains(args, []byte("echo")) {
		return nil, false
	}
	var a struct {
		Command string `json:"command"`
		Cmd     string `json:"cmd"`
	}
	if json.Unmarshal(args, &a) != nil {
		return nil, false
	}
	line := cmp.Or(a.Command, a.Cmd)
	cmd := []byte(strings.TrimSpace(line))
	head := trimEchoSuffix(cmd)
	if len(head) == len(cmd) {
		return nil, false
	}
	marker := strings.TrimSpace(string(cmd[bytes.LastIndex(cmd, []byte("echo"))+len("echo"):]))
	marker = strings.Trim(marker, `"'`)
	if marker == "" {
		return nil, false
	}
	var text string
	if json.Unmarshal(data, &text) != nil {
		return nil, false
	}
	text = strings.TrimRight(text, " \t\r\n")
	last := text[strings.LastIndexByte(text, '\n')+1:]
	if strings.TrimSpace(last) != marker {
		return nil, false
	}
	rest := text[:len(text)-len(last)]
	if strings.TrimSpace(rest) == "" {
		return nil, true // the marker was all it printed: no output, as a blank one is logged
	}
	out, err := json.Marshal(rest)
	if err != nil {
		return nil, false
	}
	return out, true
}
