package schema

import (
	"fmt"

	"github.com/zeebo/xxh3"
)

// What ingest derives from a parsed step for the indicator pass (the
// StepArrowSchema columns that are not the step's fields as logged). They
// live here, beside the input contract, because they are its reading: the
// decoder calls them with the step at hand, and their tests say what a
// detector sees.

// IDHash is the hash kept in place of an id (a memory or artifact id, an
// args_hash not in sha256 form, a next_state). Detectors only compare such
// hashes, so any good 64-bit hash does, and XXH3 is the fastest at hand on
// short strings. Every side that matches an id against a kept hash calls
// this one function, so the two cannot drift apart.
func IDHash(id string) uint64 { return xxh3.HashString(id) }

// ArgsKey reduces an args_hash to 64 bits. For the canonical "sha256:<hex>"
// form the key is the first 16 hex digits, so evidence can print a prefix
// of the hash that is in the log, and canonical reports whether that is how
// it was made; other forms are hashed, and their text is kept for evidence.
func ArgsKey(h string) (key uint64, canonical bool) {
	if len(h) >= 7+16 && h[:7] == "sha256:" {
		if v, ok := parseHex64(h[7 : 7+16]); ok {
			return v, true
		}
	}
	return IDHash(h), false
}

// parseHex64 is strconv.ParseUint(s, 16, 64) for exactly 16 hex digits,
// without its error value: it runs once per tool call.
func parseHex64(s string) (uint64, bool) {
	if len(s) != 16 {
		return 0, false
	}
	var v uint64
	for i := 0; i < 16; i++ {
		d := hexDigit[s[i]]
		if d > 15 {
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}

var hexDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 255
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	for i, c := range "ABCDEF" {
		t[c] = byte(10 + i)
	}
	return t
}()

// MemoryProgress: the step wrote memory typed as an observation or a
// decision, and nothing it wrote is tagged inference or tool_error (a
// recorded failure or a guess is not progress; guide B).
func MemoryProgress(m *Memory) bool {
	if m == nil || len(m.Written) == 0 {
		return false
	}
	good, bad := false, false
	check := func(t string) {
		switch t {
		case MemObservation, MemDecision:
			good = true
		case MemInference, MemToolError:
			bad = true
		}
	}
	for _, t := range m.WriteTags {
		check(t)
	}
	for i := range m.Entries {
		check(m.Entries[i].Type)
	}
	return good && !bad
}

// SuspectWrite is a memory written from a guess or a failure (guide B
// 1-3: "observation and inference not told apart"), and why it is suspect.
type SuspectWrite struct {
	ID, Why string
}

// LowConfidence is the confidence at or below which a written memory entry
// is suspect (guide A's not-found result carries confidence 0.2).
const LowConfidence = 0.3

// AppendSuspectWrites appends the suspect writes of m to dst: every id in
// written when a write tag is inference or tool_error (the last such tag
// names why), then every entry with an id whose type is one of those, or
// whose confidence is at most LowConfidence.
func AppendSuspectWrites(dst []SuspectWrite, m *Memory) []SuspectWrite {
	if m == nil {
		return dst
	}
	tagWhy := ""
	for _, t := range m.WriteTags {
		switch t {
		case MemInference:
			tagWhy = "tagged " + MemInference
		case MemToolError:
			tagWhy = "tagged " + MemToolError
		}
	}
	if tagWhy != "" {
		for _, id := range m.Written {
			dst = append(dst, SuspectWrite{ID: id, Why: tagWhy})
		}
	}
	for i := range m.Entries {
		e := &m.Entries[i]
		if e.ID == "" {
			continue
		}
		switch {
		case e.Type == MemInference || e.Type == MemToolError:
			dst = append(dst, SuspectWrite{ID: e.ID, Why: "type " + e.Type})
		case e.Confidence != nil && *e.Confidence <= LowConfidence:
			dst = append(dst, SuspectWrite{ID: e.ID, Why: fmt.Sprintf("confidence %.2g", *e.Confidence)})
		}
	}
	return dst
}

// PlanMemoryKey is the sum of the IDHash of the ids the step wrote when
// it tagged the write plan, 0 when it did not: the ids, not their order,
// make the plan.
func PlanMemoryKey(m *Memory) uint64 {
	if m == nil || m.Written == nil {
		return 0
	}
	isPlan := false
	for _, t := range m.WriteTags {
		isPlan = isPlan || t == MemPlan
	}
	if !isPlan {
		return 0
	}
	var sum uint64
	for _, id := range m.Written {
		sum += IDHash(id)
	}
	return sum
}

// DecisionKey is what a decision decided: the reason's hash (reason_hash),
// mixed with next_state's when one is logged; 0 without a reason. Equal
// keys are the same thought thought again.
func DecisionKey(reasonHash uint64, nextState string) uint64 {
	if reasonHash == 0 {
		return 0
	}
	if nextState != "" {
		reasonHash ^= IDHash(nextState) * 0x9E3779B97F4A7C15
	}
	return reasonHash
}
