package explain

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// RunLines is what Build takes from the step lines of one run, read one at
// a time (Add): of each line only what the timeline shows that the
// analysis does not keep (the state and args as logged, the result's
// status, memory, the decision), the args short and the reason cut, so
// that a run's lines are not held whole however long the run and its
// lines. The goal is kept once: the first in the analysis's order.
type RunLines struct {
	red       report.Redactor
	details   []lineDetail
	strs      map[string]string // interned states and decisions
	undecoded int
	goal      string
	goalAt    lineKey
	sorted    bool
}

// lineKey is where a line goes in the analysis's order (runstore's
// compareRows): by step, then ts (none first), then the hash of the line,
// then (lines alike so far: a collision of that hash) the full hash.
type lineKey struct {
	step int64
	ts   int64  // epoch ms; -1<<63 when none
	hash uint32 // of the line's bytes, as the analysis keeps it
	full uint64
}

func (a lineKey) compare(b lineKey) int {
	return cmp.Or(cmp.Compare(a.step, b.step), cmp.Compare(a.ts, b.ts), cmp.Compare(a.hash, b.hash), cmp.Compare(a.full, b.full))
}

// lineDetail is what RunLines keeps of a line.
type lineDetail struct {
	key       lineKey
	state     string // as logged, trimmed
	args      string // the args' short rendering, redacted with --redact; "" when none
	hasArgs   bool
	hasStatus bool
	status    int64
	mem       *schema.Memory
	decision  bool
	next      string
	reason    string // redacted with --redact, cut to maxReasonBytes
	reasonKey uint64 // the reason as logged, hashed: alike steps have the same
	why       string // tool_result.reason, redacted and cut as reason is
}

// maxReasonBytes bounds a reason kept: the timeline shows its first
// maxReason runes (at most 4 bytes each), sanitized, which a cut at a rune
// boundary past them does not change.
const maxReasonBytes = 256

// NewRunLines starts the lines of a run; red, set with --redact, must be
// the redactor given to Build.
func NewRunLines(red report.Redactor) *RunLines {
	return &RunLines{red: red, strs: map[string]string{}}
}

// LinesOf reads raw lines, in input order, as Add does.
func LinesOf(raw [][]byte, red report.Redactor) *RunLines {
	l := NewRunLines(red)
	for _, line := range raw {
		l.Add(line)
	}
	return l
}

// Add reads one step line of the run, verbatim; it keeps nothing of raw. A
// line that does not decode here is counted and left out: its step still
// shows what the analysis kept of it.
func (l *RunLines) Add(raw []byte) {
	var s schema.Step
	if err := json.Unmarshal(raw, &s); err != nil || s.Step == nil {
		l.undecoded++
		return
	}
	h := xxh3.Hash(raw) // ingest's line_hash, folded as the collector keeps it
	d := lineDetail{key: lineKey{step: *s.Step, ts: -1 << 63, hash: uint32(h) ^ uint32(h>>32), full: h}}
	if s.TS != nil {
		d.key.ts = s.TS.UnixMilli
	}
	if s.Goal != "" && (l.goal == "" || d.key.compare(l.goalAt) < 0) {
		l.goal, l.goalAt = s.Goal, d.key
	}
	d.state = l.intern(strings.TrimSpace(s.State))
	if s.ToolCall != nil && len(s.ToolCall.Args) > 0 {
		d.hasArgs = true
		d.args = shortArgs(s.ToolCall.Args, l.red)
	}
	if tr := s.ToolResult; tr != nil && tr.Status != nil {
		d.status, d.hasStatus = *tr.Status, true
	}
	if tr := s.ToolResult; tr != nil && strings.TrimSpace(tr.Reason) != "" {
		why := tr.Reason
		if l.red != nil {
			why = l.red.Text(why)
		}
		d.why = l.intern(cutRunes(why, maxReasonBytes))
	}
	d.mem = s.Memory
	if dec := s.Decision; dec != nil {
		d.decision = true
		d.next = l.intern(dec.NextState)
		if dec.Reason != "" {
			d.reasonKey = xxh3.HashString(dec.Reason) | 1
			reason := dec.Reason
			if l.red != nil {
				reason = l.red.Text(reason)
			}
			d.reason = l.intern(cutRunes(reason, maxReasonBytes))
		}
	}
	l.details = append(l.details, d)
	l.sorted = false
}

// shortArgs renders a call's args as logged for the timeline: short, and
// redacted (placeholders for the values) with red.
func shortArgs(raw []byte, red report.Redactor) string {
	shown := string(schema.AppendShortArgs(nil, raw, schema.ShortArgsBytes))
	if red == nil {
		return shown
	}
	if out, err := red.JSON(raw); err == nil {
		return string(schema.AppendShortArgs(nil, out, schema.ShortArgsBytes))
	}
	return red.Text(shown)
}

// cutRunes cuts s to at most n bytes, at a rune boundary.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}

func (l *RunLines) intern(s string) string {
	if v, ok := l.strs[s]; ok {
		return v
	}
	if len(l.strs) < maxInterned {
		l.strs[s] = s
	}
	return s
}

// maxInterned bounds the strings a run's lines share: states and next
// states are few; reasons are shared by the steps of a loop.
const maxInterned = 1 << 12

// order sorts the lines in the analysis's order and drops exact duplicates
// (same step, same bytes), so that neither depends on the order the lines
// came in.
func (l *RunLines) order() []lineDetail {
	if l == nil {
		return nil
	}
	if !l.sorted {
		slices.SortStableFunc(l.details, func(a, b lineDetail) int { return a.key.compare(b.key) })
		kept := l.details[:0]
		for i, d := range l.details {
			if i > 0 && d.key.step == l.details[i-1].key.step && d.key.hash == l.details[i-1].key.hash {
				continue
			}
			kept = append(kept, d)
		}
		l.details, l.sorted = kept, true
	}
	return l.details
}
