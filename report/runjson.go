package report

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/runawayhq/runaway/detect"
)

// appendRunJSON appends the compact json of a run, the ndjson report's line:
// the bytes encoding/json writes for the run with HTML escaping off and its
// always-present collections (signals, findings, evidence steps, errors by
// type) as [] and {} when nil, passed through escapeInvisibles. Written by
// hand because the line is most of a scan's tail, and reflection-driven
// encoders (goccy/go-json before this) spent three times as long on a layout
// that never changes. TestRunJSONMatchesReference fills every field by
// reflection and compares with that reference, so a field added to RunResult
// or to anything it holds fails the test until it is written here too.
//
// The appenders pass the line along by value, so it stays in registers, and
// a pointer to the first unencodable float, so the field list reads as the
// struct does, without an error check per float.
func appendRunJSON(dst []byte, r *detect.RunResult) ([]byte, error) {
	var firstErr error
	err := &firstErr
	b := dst
	b = append(b, `{"run_id":`...)
	b = appendJSONString(b, r.RunID)
	b = append(b, `,"verdict":`...)
	b = appendJSONString(b, r.Verdict.String()) // Verdict.MarshalText
	b = append(b, `,"root_cause":`...)
	b = appendJSONString(b, string(r.RootCause))
	b = append(b, `,"onset_step":`...)
	b = appendJSONInt(b, r.OnsetStep)
	b = append(b, `,"steps":`...)
	b = appendJSONInt(b, r.Steps)
	b = append(b, `,"wasted_steps":`...)
	b = appendJSONInt(b, r.WastedSteps)
	b = append(b, `,"wasted_tokens":`...)
	b = appendJSONInt(b, r.WastedTokens)
	b = append(b, `,"wasted_cost_usd":`...)
	b = appendJSONFloat(b, r.WastedCostUSD, err)
	b = append(b, `,"cost_logged":`...)
	b = strconv.AppendBool(b, r.CostLogged)
	b = append(b, `,"cost_estimated":`...)
	b = strconv.AppendBool(b, r.CostEstimated)
	b = append(b, `,"headline":`...)
	b = appendJSONString(b, r.Headline)
	b = append(b, `,"signals":`...)
	b = appendJSONStrings(b, r.Signals)
	b = append(b, `,"indicators":`...)
	b = appendIndicatorsJSON(b, &r.Indicators, err)
	b = append(b, `,"findings":[`...)
	for i := range r.Findings {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFindingJSON(b, &r.Findings[i], err)
	}
	b = append(b, ']')
	if len(r.DataProblems) > 0 {
		b = append(b, `,"data_problems":`...)
		b = appendJSONStrings(b, r.DataProblems)
	}
	if r.DuplicateSteps != 0 {
		b = append(b, `,"duplicate_steps":`...)
		b = appendJSONInt(b, r.DuplicateSteps)
	}
	if r.ConflictingSteps != 0 {
		b = append(b, `,"conflicting_steps":`...)
		b = appendJSONInt(b, r.ConflictingSteps)
	}
	b = append(b, '}')
	return b, firstErr
}

// appendRunJSONIndented appends the run as an element of the json
// document's "runs": what encoding/json's Encoder writes for it with
// SetIndent(jsonRunPrefix, jsonIndent), then escapeInvisibles. That Encoder
// indents its compact form, so this does the same.
func appendRunJSONIndented(dst []byte, r *detect.RunResult) ([]byte, error) {
	buf := lineBuffers.Get().(*[]byte)
	defer lineBuffers.Put(buf)
	compact, err := appendRunJSON((*buf)[:0], r)
	*buf = compact
	if err != nil {
		return dst, err
	}
	return appendIndentedJSON(dst, compact, jsonRunPrefix, jsonIndent), nil
}

// appendIndentedJSON appends src as json.Indent writes it. src must be
// compact json as appendRunJSON writes it: valid, with no blanks outside
// strings, so the structure is every byte outside a string and no scanner
// is needed to find it. json.Indent itself, which validates as it goes,
// made a run of the json format cost 7.5 us instead of 2.5 (BenchmarkRunJSON
// on the 1 GB corpus's runs): 0.4 s a GB at the end of a scan.
func appendIndentedJSON(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for ; src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++ // the escaped byte, '"' included
				}
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if next := src[i+1]; next == '}' || next == ']' {
				dst = append(dst, next) // empty: {} and [], as json.Indent writes them
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func appendJSONInt(b []byte, n int64) []byte {
	if uint64(n) < 10 { // most counts of a healthy run
		return append(b, byte(n)+'0')
	}
	return strconv.AppendInt(b, n, 10)
}

// appendJSONStrings writes nil as []: the slices it writes are always
// present in the output.
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONFloat writes what encoding/json's floatEncoder writes for a
// float64: the shortest 'f' form, or 'e' below 1e-6 and from 1e21, with e-07
// as e-7. NaN and the infinities set *err, if it is the first, to
// encoding/json's error.
func appendJSONFloat(b []byte, f float64, err *error) []byte {
	if math.Float64bits(f) == 0 { // +0, the waste of every healthy run; -0 is "-0"
		return append(b, '0')
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if *err == nil {
			*err = &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
		return append(b, '0') // the line is dropped with the error
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) { // -0 is not 0e+00
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

func appendIndicatorsJSON(b []byte, in *detect.Indicators, err *error) []byte {
	b = append(b, `{"steps":`...)
	b = appendJSONInt(b, in.Steps)
	b = append(b, `,"tool_calls":`...)
	b = appendJSONInt(b, in.ToolCalls)
	b = append(b, `,"distinct_calls":`...)
	b = appendJSONInt(b, in.DistinctCalls)
	b = append(b, `,"same_args_hash_count":`...)
	b = appendJSONInt(b, in.SameCallMax)
	b = append(b, `,"same_args_hash_max_window":`...)
	b = appendJSONInt(b, in.SameCallMaxWindow)
	b = append(b, `,"same_args_hash_max_streak":`...)
	b = appendJSONInt(b, in.SameCallMaxStreak)
	b = append(b, `,"same_norm_args_count":`...)
	b = appendJSONInt(b, in.SameNormArgsMax)
	b = append(b, `,"state_oscillation":`...)
	b = appendJSONInt(b, in.StateOscillation)
	b = append(b, `,"plan_act_round_trips":`...)
	b = appendJSONInt(b, in.PlanActRoundTrips)
	b = append(b, `,"plan_act_round_trips_no_progress":`...)
	b = appendJSONInt(b, in.UnproductivePlanRoundTrip)
	b = append(b, `,"plans":`...)
	b = appendJSONInt(b, in.Plans)
	b = append(b, `,"plans_repeated":`...)
	b = appendJSONInt(b, in.PlansRepeated)
	b = append(b, `,"max_repeated_decision_streak":`...)
	b = appendJSONInt(b, in.MaxRepeatedDecision)
	b = append(b, `,"progress_events":`...)
	b = appendJSONInt(b, in.ProgressEvents)
	b = append(b, `,"no_progress_steps":`...)
	b = appendJSONInt(b, in.NoProgressSteps)
	b = append(b, `,"tool_errors":`...)
	b = appendJSONInt(b, in.ToolErrors)
	b = append(b, `,"tool_errors_by_type":`...)
	b = appendCountsJSON(b, in.ToolErrorsByType)
	b = append(b, `,"max_error_streak":`...)
	b = appendJSONInt(b, in.MaxErrorStreak)
	b = append(b, `,"empty_results":`...)
	b = appendJSONInt(b, in.EmptyResults)
	b = append(b, `,"budget_max_steps":`...)
	b = appendJSONInt(b, in.BudgetMaxSteps)
	b = append(b, `,"budget_max_tool_calls":`...)
	b = appendJSONInt(b, in.BudgetMaxToolCalls)
	b = append(b, `,"budget_max_tokens":`...)
	b = appendJSONInt(b, in.BudgetMaxTokens)
	b = append(b, `,"budget_max_cost_usd":`...)
	b = appendJSONFloat(b, in.BudgetMaxCostUSD, err)
	b = append(b, `,"budget_max_seconds":`...)
	b = appendJSONFloat(b, in.BudgetMaxSeconds, err)
	b = append(b, `,"budget_crossings":`...)
	b = appendJSONInt(b, in.BudgetCrossings)
	b = append(b, `,"steps_after_budget":`...)
	b = appendJSONInt(b, in.StepsAfterBudget)
	b = append(b, `,"tokens":`...)
	b = appendJSONInt(b, in.Tokens)
	b = append(b, `,"cost_usd":`...)
	b = appendJSONFloat(b, in.CostUSD, err)
	b = append(b, `,"duration_ms":`...)
	b = appendJSONInt(b, in.DurationMS)
	b = append(b, `,"ended_with_stop":`...)
	b = strconv.AppendBool(b, in.EndedWithStop)
	return append(b, '}')
}

// appendCountsJSON writes the map with its keys in encoding/json's order:
// byte order of the keys as they are, before any escaping. nil is {}.
func appendCountsJSON(b []byte, m map[string]int64) []byte {
	var stack [8]string // a run has a handful of error types
	keys := stack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONInt(b, m[k])
	}
	return append(b, '}')
}

func appendFindingJSON(b []byte, f *detect.Finding, err *error) []byte {
	b = append(b, `{"detector":`...)
	b = appendJSONString(b, f.Detector)
	b = append(b, `,"slug":`...)
	b = appendJSONString(b, f.Slug)
	b = append(b, `,"severity":`...)
	b = appendJSONString(b, f.Severity.String()) // Verdict.MarshalText
	b = append(b, `,"root_cause":`...)
	b = appendJSONString(b, string(f.RootCause))
	b = append(b, `,"message":`...)
	b = appendJSONString(b, f.Message)
	b = append(b, `,"onset_step":`...)
	b = appendJSONInt(b, f.OnsetStep)
	b = append(b, `,"evidence":{"steps":[`...)
	for i, s := range f.Evidence.Steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"from":`...)
		b = appendJSONInt(b, s.From)
		b = append(b, `,"to":`...)
		b = appendJSONInt(b, s.To)
		b = append(b, '}')
	}
	b = append(b, ']')
	if len(f.Evidence.Keys) > 0 {
		b = append(b, `,"keys":`...)
		b = appendJSONStrings(b, f.Evidence.Keys)
	}
	if len(f.Evidence.Counts) > 0 {
		b = append(b, `,"counts":[`...)
		for i, c := range f.Evidence.Counts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, c.Name)
			b = append(b, `,"value":`...)
			b = appendJSONInt(b, c.Value)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `},"wasted_steps":`...)
	b = appendJSONInt(b, f.WastedSteps)
	b = append(b, `,"wasted_tokens":`...)
	b = appendJSONInt(b, f.WastedTokens)
	b = append(b, `,"wasted_cost_usd":`...)
	b = appendJSONFloat(b, f.WastedCostUSD, err)
	b = append(b, `,"guard":`...)
	b = appendJSONString(b, f.Guard)
	return append(b, '}')
}

// appendJSONString quotes s as encoding/json does with HTML escaping off
// (invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped, C0 controls as \n or
// \u00XX) and, in the same pass, as escapeInvisibles then rewrites it: DEL,
// C1 and bidirectional controls as \uXXXX, so no second scan of the line.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			w := s[i : i+8] // one bounds check, one load
			if plainWord(uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56) {
				i += 8 // messages and headlines are mostly plain ASCII
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other C0 controls, and DEL
				dst = appendUEscape(dst, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1: // a byte that is not UTF-8: \ufffd
		case r == '\u2028', r == '\u2029', isC1(r), isBidiControl(r):
		default:
			i += size
			continue
		}
		dst = appendUEscape(append(dst, s[start:i]...), r)
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainWord reports whether all eight bytes of w are printable ASCII other
// than '"' and '\\': bytes a json string holds as they are.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// Each term has a high bit set only if some byte is what it tests for
	// (the classic "has a byte less than n" and "has a zero byte" tricks;
	// a borrow can mark a wrong byte, but only after a right one).
	control := (w - 0x20*ones) &^ w
	q, bs := w^'"'*ones, w^'\\'*ones // zero bytes where w has them
	quote := (q - ones) &^ q
	backslash := (bs - ones) &^ bs
	high := (w&^highs + ones) | w // 0x7f or above, as in mayNeedEscape
	return (control|quote|backslash|high)&highs == 0
}

// appendUEscape writes \uXXXX with lowercase digits, as both encoding/json
// and escapeInvisibles write them. r is in the Basic Multilingual Plane.
func appendUEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// jsonPlain marks the ASCII bytes a json string holds as they are.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
