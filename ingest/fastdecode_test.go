package ingest

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/schema"
	"github.com/runawayhq/runaway/synth"
)

// FuzzFastMatchesReference checks the step decoder against the reference
// (goccy) decoder it replaces: for every line, both accept or both reject;
// rejects have the same kind and reason; accepted lines give the same row,
// every column. The input is decoded as one line, then, when it holds
// newlines, line by line with the same decoders, so that state one line
// leaves behind cannot leak into the next unseen.
//
//	go test ./ingest -run XXX -fuzz FuzzFastMatchesReference -fuzztime 10m
func FuzzFastMatchesReference(f *testing.F) {
	for _, seed := range decodeLineSeeds {
		f.Add([]byte(seed))
	}
	for _, seed := range differentialSeeds() {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		lines := [][]byte{input}
		if bytes.IndexByte(input, '\n') >= 0 {
			lines = append(lines, bytes.Split(input, []byte("\n"))...)
		}
		compareWithReference(t, lines)
	})
}

func compareWithReference(t *testing.T, lines [][]byte) {
	t.Helper()
	for _, keepText := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		fastW, refW := newBatchWriter(mem), newBatchWriter(mem)
		fast, ref := NewLineDecoder(keepText, 1<<20), NewLineDecoder(keepText, 1<<20)
		for i, line := range lines {
			fe := fast.DecodeLine(fastW, line, 0, int64(i+1))
			re := ref.referenceDecodeLine(refW, line, 0, int64(i+1))
			if !sameReject(fe, re, line) {
				t.Errorf("keepText=%v line %d %q:\n fast      %v\n reference %v", keepText, i+1, line, describeReject(fe), describeReject(re))
			}
		}
		fastRec, refRec := fastW.newBatch(), refW.newBatch()
		fastW.release()
		refW.release()
		if fastRec.NumRows() != refRec.NumRows() {
			t.Errorf("keepText=%v: %d rows, reference %d", keepText, fastRec.NumRows(), refRec.NumRows())
		} else {
			for r := range int(fastRec.NumRows()) {
				got, want := row(fastRec, r), row(refRec, r)
				// %v tells -0 from 0, which DeepEqual does not.
				if !reflect.DeepEqual(got, want) || fmt.Sprintf("%v", got) != fmt.Sprintf("%v", want) {
					for name := range want {
						if !reflect.DeepEqual(got[name], want[name]) || fmt.Sprintf("%v", got[name]) != fmt.Sprintf("%v", want[name]) {
							t.Errorf("keepText=%v row %d: %s = %#v, reference %#v", keepText, r, name, got[name], want[name])
						}
					}
				}
			}
		}
		fastRec.Release()
		refRec.Release()
		mem.AssertSize(t, 0)
	}
}

func describeReject(e *LineError) string {
	if e == nil {
		return "accepted"
	}
	return e.Kind + ": " + e.Reason
}

// sameReject: both accepted, or both rejected with the same kind and reason.
// One difference in wording is known and kept: when ts is given more than
// once and one that is not the last is of the wrong type, the reference
// names the kind of the last one (it finds ts again by decoding the line
// into a probe, where the last one wins); the step decoder names the one
// that is wrong.
func sameReject(fast, ref *LineError, line []byte) bool {
	switch {
	case fast == nil || ref == nil:
		return fast == nil && ref == nil
	case fast.Kind != ref.Kind:
		return false
	case fast.Reason == ref.Reason:
		return true
	}
	return fast.Kind == KindWrongType && strings.HasPrefix(fast.Reason, "ts: ") && strings.HasPrefix(ref.Reason, "ts: ") &&
		bytes.Count(bytes.ToLower(line), []byte(`"ts"`)) > 1
}

// differentialSeeds cover every field with every kind of JSON value (null
// included), duplicates, escapes and Unicode.
func differentialSeeds() []string {
	values := []string{`null`, `true`, `false`, `0`, `7`, `-3`, `1.5`, `1e3`, `-0`, `1e400`, `99999999999999999999`,
		`""`, `"s"`, `"\u00e9"`, `[]`, `["a"]`, `[null]`, `[1]`, `{}`, `{"a":1}`, `"2026-11-29T10:00:00Z"`}
	base := `"run_id":"r","step":1`
	var out []string
	add := func(s string) { out = append(out, s) }
	for _, v := range values {
		add(`{"run_id":` + v + `,"step":1}`)
		add(`{"run_id":"r","step":` + v + `}`)
		for _, f := range []string{"ts", "state", "goal", "intent", "tool_call", "tool_result", "memory", "decision",
			"artifacts", "usage", "tokens", "budget", "unknown"} {
			add(`{` + base + `,"` + f + `":` + v + `}`)
		}
		for obj, fields := range map[string][]string{
			"tool_call":   {"name", "args", "args_hash"},
			"tool_result": {"ok", "error_type", "status", "empty", "retryable", "done", "result_count", "items", "found", "data", "confidence", "reason"},
			"memory":      {"retrieved", "written", "write_tags", "entries"},
			"decision":    {"next_state", "reason"},
			"usage":       {"prompt_tokens", "completion_tokens", "cost_usd"},
			"tokens":      {"prompt", "completion"},
			"budget":      {"max_steps", "max_tool_calls", "max_tokens", "max_cost_usd", "max_seconds"},
		} {
			for _, f := range append(fields, "unknown") {
				add(`{` + base + `,"` + obj + `":{"` + f + `":` + v + `}}`)
			}
		}
		for _, f := range []string{"id", "type", "source", "confidence", "unknown"} {
			add(`{` + base + `,"memory":{"entries":[{"` + f + `":` + v + `}]}}`)
		}
		add(`{` + base + `,"memory":{"entries":[` + v + `]}}`)
		add(`{` + base + `,"memory":{"retrieved":[` + v + `,"b"]}}`)
		add(`{` + base + `,"artifacts":["a",` + v + `]}`)
	}
	// Duplicates: the last value wins, objects merge, arrays reuse elements.
	for _, s := range []string{
		`"run_id":"a","run_id":"b","step":1`,
		`"run_id":"a","run_id":null,"step":1`,
		`"run_id":"a","step":1,"step":null`,
		`"run_id":"a","step":null,"step":2`,
		`"run_id":"a","step":"1","step":1`,
		`"run_id":"a","step":1,"ts":"2026-11-29T10:00:00Z","ts":5`,
		`"run_id":"a","step":1,"ts":5,"ts":null`,
		`"run_id":"a","step":1,"ts":true,"ts":5`,
		`"run_id":"a","step":1,"ts":"x","ts":5`,
		`"run_id":"a","step":1,"tool_call":{"name":"a"},"tool_call":{"args":1}`,
		`"run_id":"a","step":1,"tool_call":{"name":"a"},"tool_call":null,"tool_call":{"args":1}`,
		`"run_id":"a","step":1,"tool_call":{"name":"a","args":{"x":1},"args":null}`,
		`"run_id":"a","step":1,"tool_result":{"ok":false,"status":429},"tool_result":{"ok":null}`,
		`"run_id":"a","step":1,"tool_result":{"items":[1],"found":true},"tool_result":{"data":null,"found":null}`,
		`"run_id":"a","step":1,"memory":{"retrieved":["a","b"]},"memory":{"retrieved":[null]}`,
		`"run_id":"a","step":1,"memory":{"retrieved":["a","b"],"retrieved":[],"retrieved":[null,null,null]}`,
		`"run_id":"a","step":1,"memory":{"retrieved":["a","b"],"retrieved":null,"retrieved":[null]}`,
		`"run_id":"a","step":1,"memory":{"retrieved":["a"]},"memory":null,"memory":{"written":[null]}`,
		`"run_id":"a","step":1,"memory":{"entries":[{"id":"a","type":"t","confidence":0.5},{"id":"b"}]},"memory":{"entries":[{"id":"c","confidence":null},null,null]}`,
		`"run_id":"a","step":1,"artifacts":["a","b"],"artifacts":[null],"artifacts":[null,null]`,
		`"run_id":"a","step":1,"usage":{"prompt_tokens":5},"usage":{"cost_usd":1},"usage":{"prompt_tokens":null}`,
		`"run_id":"a","step":1,"budget":{"max_steps":5},"budget":null,"budget":{"max_tokens":9}`,
		`"run_id":"a","step":1,"decision":{"next_state":"A"},"decision":{"reason":"r"}`,
		`"run_id":"a","step":1,"tokens":{"prompt":1},"tokens":{"completion":2}`,
	} {
		add(`{` + s + `}`)
	}
	// Keys: escapes, case, Unicode folding (K is the Kelvin sign, ſ the long s).
	for _, s := range []string{
		`{"run\u005fid":"a","\u0073tep":1}`,
		`{"RUN_ID":"a","Step":1,"Tool_Call":{"NAME":"n","ARGS":[1]},"TOOL_RESULT":{"OK":false}}`,
		`{"run_id":"a","ſtep":1,"toKens":{"prompt":3}}`,
		`{"run_id":"a","step":1,"runid":"b","run-id":"c"}`,
		`{"run_id":"a","step":1,"MEMORY":{"ENTRIES":[{"ID":"x","Confidence":0.1}],"Write_Tags":["t"]}}`,
	} {
		add(s)
	}
	// Strings: escapes, surrogates, invalid UTF-8, control characters.
	for _, v := range []string{
		`"\/\b\f\n\r\t\"\\"`, `"\u0000"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d\ude00"`, `"\ud800\u0041"`,
		`"\uD834\uDD1E"`, "\"\xff\xfe\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "\"\xe2\x82\"", "\"\x7f\"", "\"a\tb\"", `"\x"`,
		`"\u12"`, `"\u12g4"`, `"é🙂"`, `"` + strings.Repeat("abcdefgh", 9) + `"`,
	} {
		add(`{"run_id":` + v + `,"step":1,"goal":` + v + `,"tool_call":{"name":` + v + `,"args":[` + v + `]}}`)
		add(`{"run_id":"r","step":1,"tool_result":{"data":` + v + `,"items":` + v + `},"memory":{"retrieved":[` + v + `]}}`)
		add(`{"run_id":"r","step":1,"ts":` + v + `}`)
		add(`{"run_id":"r","step":1,` + v + `:1}`)
	}
	// Timestamps.
	for _, v := range []string{`"2026-11-29T10:00:00.250Z"`, `"2026-11-29T10:00:00+01:30"`, `"2026-11-29T10:00:00.123456789123-05:00"`,
		`"2026-02-29T10:00:00Z"`, `"2024-02-29T10:00:00Z"`, `"2026-11-29T24:00:00Z"`, `"2026-11-29t10:00:00Z"`,
		`"2026-11-29T10:00:00,5Z"`, `"2026-11-29T10:00:00+24:00"`, `"2026-11-29 10:00:00Z"`, `"\u0032026-11-29T10:00:00Z"`,
		`1764410400000`, `1764410400.25`, `-1`, `1e400`, `-0.0`, `0`, `"yesterday"`} {
		add(`{"run_id":"r","step":1,"ts":` + v + `}`)
	}
	// Numbers, white space, structure.
	for _, s := range []string{
		`{"run_id":"r","step":9223372036854775807}`, `{"run_id":"r","step":9223372036854775808}`,
		`{"run_id":"r","step":-9223372036854775808}`, `{"run_id":"r","step":01}`, `{"run_id":"r","step":1.}`,
		`{"run_id":"r","step":-}`, `{"run_id":"r","step":1e+}`, `{"run_id":"r","step":1,"usage":{"cost_usd":1e-400}}`,
		`{"run_id":"r","step":1,"usage":{"cost_usd":-0.0,"prompt_tokens":-5}}`, ` {"run_id" : "r" , "step" : 1 } `,
		"\t{\"run_id\":\"r\",\r\n\"step\":1}\r", `{"run_id":"r","step":1}}`, `{"run_id":"r","step":1}{}`,
		`{"run_id":"r","step":1,"x":[1,]}`, `{"run_id":"r","step":1,"x":{"a"}}`, `{"run_id":"r","step":1,"x":[}`,
		`{"run_id":"r","step":1,"x":{"a":1,}}`, `{"run_id":"r" "step":1}`, `{"run_id":"r","step" 1}`, `{,}`, `{`, `}`,
		`{"run_id":"r","step":"1","x":[}`, `{"run_id":"r","step":1,"ts":"bad","x":tru}`, `{"run_id":"r","step":"1","ts":"bad"}`,
		`{"run_id":"r","step":1,"ts":"bad","step":"1"}`, `{"run_id":"r","step":1,"x":[1,{"a":[true,false,null,"s",-1.5e-3]}]}`,
		`"x"`, `1`, `-`, `[`, `tru`, ` null `, `{"a":1} x`, "\t", `{"run_id":"r","step":1,"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
		`{"run_id":"r","step":1,"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"run_id":"r","step":1,"tool_call":{"args":` + strings.Repeat(`{"a":`, 9998) + `1` + strings.Repeat("}", 9998) + `}}`,
	} {
		add(s)
	}
	// Several lines, so that one line's state meets the next.
	add(fullLine + "\n" + `{"run_id":"r","step":2,"memory":{"retrieved":[null,null]},"artifacts":[null]}` + "\n" + fullLine + "\n" +
		`{"run_id":"r","step":3,"memory":{"entries":[null,{"type":"x"}]}}`)
	return out
}

// TestParseRFC3339MillisMatchesTime: whatever the fast path accepts, time
// accepts with the same value (FuzzParseRFC3339Millis tries more).
func TestParseRFC3339MillisMatchesTime(t *testing.T) {
	for _, s := range []string{"2026-11-29T10:00:00Z", "2026-11-29T10:00:00.25Z", "2026-11-29T10:00:00.123456789999Z",
		"2024-02-29T23:59:59-23:59", "0000-01-01T00:00:00+00:00", "9999-12-31T23:59:59.999Z", "2026-11-29T10:00:00.1+01:00",
		"2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-11-29T10:00:00,5Z", "2026-11-29T10:00:00.Z", "x"} {
		checkRFC3339(t, s)
	}
}

func FuzzParseRFC3339Millis(f *testing.F) {
	f.Add("2026-11-29T10:00:00.250Z", "2026-11-29T10:59:59.999Z")
	f.Add("2024-02-29T23:59:59.5-08:00", "2024-02-29T23:00:00+01:00")
	f.Add("2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z")
	f.Fuzz(func(t *testing.T, first, second string) {
		checkRFC3339(t, first)
		checkHourCache(t, first, second)
	})
}

// TestHourCacheMatchesTime parses timestamps in the order a log has them,
// sharing a date and hour with the one before or not, and some that are
// not timestamps in between: the cached hour must never leak into the
// answer for a timestamp of another hour, nor make a bad one pass.
func TestHourCacheMatchesTime(t *testing.T) {
	seq := []string{"2026-11-29T10:00:00Z", "2026-11-29T10:59:59.999Z", "2026-11-29T10:30:00+05:30",
		"2026-11-29T11:00:00Z", "2026-11-29T11:60:00Z", "2026-11-29T11:00:00", "2026-11-29T1x:00:00Z",
		"2026-11-30T11:00:00.5Z", "2026-11-29T11:00:00Z", "2026-02-29T11:00:00Z", "2024-02-29T11:00:00Z"}
	for i := 1; i < len(seq); i++ {
		checkHourCache(t, seq[i-1], seq[i])
	}
}

func checkHourCache(t *testing.T, first, second string) {
	var h hourCache
	h.parse([]byte(first))
	got, ok := h.parse([]byte(second))
	want, err := schema.ParseTimestamp(second)
	if ok && (err != nil || got != want) {
		t.Errorf("%q after %q: cached %d, time %d %v", second, first, got, want, err)
	}
	if uncached, uok := parseRFC3339Millis([]byte(second)); uok != ok || uncached != got {
		t.Errorf("%q after %q: cached %d %v, uncached %d %v", second, first, got, ok, uncached, uok)
	}
}

func checkRFC3339(t *testing.T, s string) {
	got, ok := parseRFC3339Millis([]byte(s))
	want, err := schema.ParseTimestamp(s)
	if ok && (err != nil || got != want) {
		t.Errorf("%q: fast path %d, time %d %v", s, got, want, err)
	}
}

// TestKeyPredictionFollowsOptionalFields decodes lines whose objects
// alternate between key orders, so that a key is found as the one expected,
// as the one expected before the last miss, or by neither (a key that only
// starts like the expected one, a key in another case, an unknown key).
func TestKeyPredictionFollowsOptionalFields(t *testing.T) {
	lines := []string{
		`{"run_id":"r","step":1,"tool_result":{"ok":true,"status":200,"data":{"a":1}}}`,
		`{"run_id":"r","step":2,"tool_result":{"ok":false,"error_type":"TIMEOUT","status":504}}`,
		`{"run_id":"r","step":3,"tool_result":{"ok":true,"status":201,"data":{"a":2}}}`,
		`{"run_id":"r","step":4,"tool_result":{"ok":false,"error_type":"RATE_LIMIT","status":429}}`,
		`{"run_id":"r","step":5,"tool_result":{"ok":true,"statusx":1,"status":202}}`,
		`{"run_id":"r","step":6,"tool_result":{"ok":false,"Error_Type":"AUTH","STATUS":401}}`,
		`{"run_id":"r","step":7,"tool_result":{"ok":true,"empty":true,"status":200}}`,
		`{"run_id":"r","step":8,"tool_result":{"ok":false,"error_type":"TIMEOUT","status":408}}`,
		`{"run_id":"r","step":9,"tool_result":{"ok":true,"status":200,"data":{"a":3}}}`,
		`{"run_id":"r","step":10,"tool_result":{"o":true,"ok":true,"status":200}}`,
	}
	var in [][]byte
	for _, l := range lines {
		in = append(in, []byte(l))
	}
	compareWithReference(t, in)
}

// TestFastMatchesReferenceOnCorpora runs the fixtures and a synthetic
// corpus through both decoders, each file through one pair of decoders.
func TestFastMatchesReferenceOnCorpora(t *testing.T) {
	files, err := filepath.Glob("../fixtures/*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { compareWithReference(t, splitLines(data)) })
	}
	var corpus bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 300, RunawayRate: 0.3, Seed: 7}, &corpus, nil); err != nil {
		t.Fatal(err)
	}
	t.Run("synth", func(t *testing.T) { compareWithReference(t, splitLines(corpus.Bytes())) })
	t.Run("bench", func(t *testing.T) { compareWithReference(t, splitLines(benchLines(2000))) })
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for l := range bytes.SplitSeq(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		lines = append(lines, bytes.TrimSuffix(l, []byte("\r")))
	}
	return lines
}

func TestDaysFromCivilMatchesTime(t *testing.T) {
	for day := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() < 10000; day = day.AddDate(0, 0, 1) {
		if got, want := daysFromCivil(day.Year(), int(day.Month()), day.Day()), day.Unix()/86400; got != want {
			t.Fatalf("%s: %d days, want %d", day.Format(time.DateOnly), got, want)
		}
	}
}

// FuzzParseFloat: parseFloat is strconv.ParseFloat, bit for bit, on JSON
// numbers.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "-0", "0.0123", "1.5", "-2.25e3", "123456789012345", "1234567890123456",
		"0.000000000000001", "1e400", "1e-400", "9007199254740993", "0.1", "-0.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || (s[0] != '-' && !isDigit(s[0])) {
			return
		}
		if end, _, ok := scanNumber([]byte(s), 0); !ok || end != len(s) {
			return
		}
		got, ok := parseFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if ok != (err == nil) || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%q: %v %v, strconv %v %v", s, got, ok, want, err)
		}
	})
}

// keyOrder has a slot per field of an object kind, and one after an
// unknown key: a kind with more fields than maxObjectFields would index
// past it (a field added to the schema must raise the bound).
func TestObjectKindsFitKeyOrder(t *testing.T) {
	for _, k := range []*objectKind{&entryKind, &stepKind, &toolCallKind, &toolResultKind, &memoryKind, &decisionKind, &usageKind, &tokensKind, &budgetKind} {
		if len(k.names) > maxObjectFields {
			t.Errorf("an object kind of %d fields (%v): more than maxObjectFields", len(k.names), k.names)
		}
	}
}
