package ingest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

// decodeLines runs DecodeLine over lines (src_file 0, src_line 1..n) and
// returns the batch of the accepted ones and the error of each line.
func decodeLines(t *testing.T, keepText bool, lines ...string) (arrow.RecordBatch, []*LineError, func()) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	w := newBatchWriter(mem)
	dec := NewLineDecoder(keepText, 0)
	var errs []*LineError
	for i, l := range lines {
		errs = append(errs, dec.DecodeLine(w, []byte(l), 0, int64(i+1)))
	}
	rec := w.newBatch()
	w.release()
	return rec, errs, func() {
		rec.Release()
		mem.AssertSize(t, 0)
	}
}

// cell is the Go value of one cell: nil for null, []any for lists,
// map[string]any for structs.
func cell(arr arrow.Array, i int) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.String:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Uint64:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Uint16:
		return a.Value(i)
	case *array.Uint8:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.List:
		start, end := a.ValueOffsets(i)
		out := []any{}
		for j := start; j < end; j++ {
			out = append(out, cell(a.ListValues(), int(j)))
		}
		return out
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		out := map[string]any{}
		for f := range st.NumFields() {
			out[st.Field(f).Name] = cell(a.Field(f), i)
		}
		return out
	}
	return fmt.Sprintf("<unhandled %T>", arr)
}

func row(rec arrow.RecordBatch, i int) map[string]any {
	out := map[string]any{}
	for c := range int(rec.NumCols()) {
		out[rec.Schema().Field(c).Name] = cell(rec.Column(c), i)
	}
	return out
}

const fullLine = `{"run_id":"run-7","step":3,"ts":"2026-11-29T10:00:00.250Z","state":"ACT","goal":"book a flight",` +
	`"intent":"find-flights","tool_call":{"name":"search","args":{"q":"SFO","filters":{"max":2,"airline":"UA"}}},` +
	`"tool_result":{"ok":false,"error_type":"RATE_LIMIT","status":429,"retryable":true,"result_count":5,"data":{"x":1}},` +
	`"memory":{"retrieved":["m1","m2"],"written":["m3"],"write_tags":["inference"],` +
	`"entries":[{"id":"m3","type":"inference","source":"llm","confidence":0.4},{"id":"m4"}]},` +
	`"decision":{"next_state":"EVAL","reason":"retry later"},"artifacts":["a1"],` +
	`"usage":{"prompt_tokens":1200,"completion_tokens":80,"cost_usd":0.0123},` +
	`"budget":{"max_steps":50,"max_tool_calls":20,"max_tokens":100000,"max_cost_usd":1.5,"max_seconds":600},` +
	`"unknown_field":{"ignored":true}}`

// sha256Prefix is the args_key of a "sha256:<hex>" args_hash: its first 16
// hex digits.
func sha256Prefix(t *testing.T, h string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(h, "sha256:")[:16], 16, 64)
	if err != nil || !strings.HasPrefix(h, "sha256:") {
		t.Fatalf("%q is not a sha256 args hash: %v", h, err)
	}
	return v
}

func TestDecodeFullyPopulatedLineFillsEveryColumn(t *testing.T) {
	rec, errs, done := decodeLines(t, true, fullLine)
	defer done()
	if errs[0] != nil {
		t.Fatalf("rejected: %v", errs[0])
	}
	var result schema.ToolResult
	if err := json.Unmarshal([]byte(`{"ok":false,"error_type":"RATE_LIMIT","status":429,"retryable":true,"result_count":5,"data":{"x":1}}`), &result); err != nil {
		t.Fatal(err)
	}
	argsHash, _ := schema.ArgsHash([]byte(`{"filters":{"airline":"UA","max":2},"q":"SFO"}`))
	argsDigest, _ := schema.NewArgsNormalizer(schema.DefaultVolatileKeys).Digest([]byte(`{"q":"sfo","filters":{"max":2,"airline":"ua"}}`), false)
	queryWords, _ := schema.ReadQueryArgs([]byte(`{"q":"SFO"}`)).Words("search") // a query: the words of its question
	reasonHash := xxh3.HashString("retry later") | 1
	argsShape, _ := schema.ArgsShape([]byte(`{"q":"SFO","filters":{"max":7,"airline":"UA"}}`), nil) // numbers masked
	want := map[string]any{
		"run_id":     "run-7",
		"step":       int64(3),
		"ts_ms":      time.Date(2026, 11, 29, 10, 0, 0, 250e6, time.UTC).UnixMilli(),
		"state":      uint8(schema.StateAct),
		"intent":     "find-flights",
		"tool_name":  "search",
		"args_key":   sha256Prefix(t, argsHash),
		"args_hash":  nil, // its key is its prefix
		"args":       `{"filters":{"airline":"UA","max":2},"q":"SFO"}`,
		"args_norm":  argsDigest.Norm,
		"args_words": queryWords,
		"args_sim":   uint64(0), // args too short to compare by similarity
		"args_short": `{"q":"SFO","filters":{"max":2,"airline":"UA"}}`,
		"args_shape": argsShape,
		// A query, whose result is an error with a payload; retryable is
		// true, and the write tagged inference is no progress.
		"flags":         schema.FlagCall | schema.FlagResult | schema.FlagError | schema.FlagPayload | schema.FlagArtifacts | schema.FlagQuery,
		"error_type":    "RATE_LIMIT",
		"result_hash":   result.ResultFingerprint(xxh3.Hash),
		"result_sim":    uint64(0), // structured data is compared exactly
		"mem_retrieved": []any{schema.IDHash("m1"), schema.IDHash("m2")},
		"mem_suspect": []any{
			map[string]any{"id": "m3", "why": "tagged inference"},
			map[string]any{"id": "m3", "why": "type inference"},
		},
		"plan_key":              uint64(0),
		"artifacts":             []any{schema.IDHash("a1")},
		"tokens":                uint32(1280),
		"cost_usd":              0.0123,
		"budget_max_steps":      int64(50),
		"budget_max_tool_calls": int64(20),
		"budget_max_tokens":     int64(100000),
		"budget_max_cost_usd":   1.5,
		"budget_max_seconds":    600.0,
		"goal":                  "book a flight",
		"reason":                "retry later",
		"reason_hash":           reasonHash,
		"decision_key":          reasonHash ^ schema.IDHash("EVAL")*0x9E3779B97F4A7C15,
		"src_file":              int32(0),
		"src_line":              int64(1),
		"line_hash":             xxh3.HashString(fullLine),
		"talk_words":            nil,       // not a turn of conversation
		"edit_file":             uint64(0), // not an edit
		"fail_file":             uint64(0), // a failure whose data is no text
		"file_copy":             uint64(0), // no file
		"fail_mistake":          uint64(0), // a failure whose data is no text
	}
	got := row(rec, 0)
	if len(got) != schema.NumCols || len(want) != schema.NumCols {
		t.Fatalf("got %d columns, want %d; test covers %d", len(got), schema.NumCols, len(want))
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			t.Errorf("%s = %#v, want %#v", name, got[name], w)
		}
	}
}

func TestDecodeWithoutKeepTextLeavesTextColumnsNull(t *testing.T) {
	rec, errs, done := decodeLines(t, false, fullLine)
	defer done()
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	got := row(rec, 0)
	for _, name := range []string{"args", "goal", "reason"} {
		if got[name] != nil {
			t.Errorf("%s = %#v, want null without KeepText", name, got[name])
		}
	}
	if got["args_key"] == uint64(0) || got["tool_name"] != "search" {
		t.Errorf("args_key and tool_name must not depend on KeepText: %v %v", got["args_key"], got["tool_name"])
	}
}

func TestDecodeMinimalLine(t *testing.T) {
	line := `{"run_id":"r","step":0}`
	rec, errs, done := decodeLines(t, true, line)
	defer done()
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	got := row(rec, 0)
	notNull := map[string]any{
		"run_id": "r", "step": int64(0), "state": uint8(schema.StateNone), "flags": uint16(0), "tokens": uint32(0),
		"args_key": uint64(0), "result_hash": uint64(0), "result_sim": uint64(0), "plan_key": uint64(0), "decision_key": uint64(0),
		"args_norm": uint64(0), "args_words": uint64(0), "args_sim": uint64(0), "args_shape": uint64(0), "reason_hash": uint64(0),
		"edit_file": uint64(0), "fail_file": uint64(0), "file_copy": uint64(0), "fail_mistake": uint64(0),
		"src_file": int32(0), "src_line": int64(1), "line_hash": xxh3.HashString(line),
	}
	for name, v := range got {
		if w, ok := notNull[name]; ok {
			if !reflect.DeepEqual(v, w) {
				t.Errorf("%s = %#v, want %#v", name, v, w)
			}
		} else if v != nil {
			t.Errorf("%s = %#v, want null on a minimal line", name, v)
		}
	}
}

// An edit's row keys the file it changes, and a failed call's row the file
// its traceback was raised in; keys written before redaction stand for them.
func TestDecodeEditAndFailureFiles(t *testing.T) {
	rec, errs, done := decodeLines(t, false,
		`{"run_id":"r","step":0,"intent":"edit","tool_call":{"name":"str_replace_editor","args":{"command":"str_replace","path":"/testbed/pkg/util.py","old_str":"a","new_str":"b"}},"tool_result":{"ok":true,"data":"edited"}}`,
		`{"run_id":"r","step":1,"tool_call":{"name":"bash","args":{"command":"python repro.py"}},"tool_result":{"ok":false,"data":"Traceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\n    setup()\n  File \"/testbed/pkg/conf.py\", line 9, in setup\n    raise ImproperlyConfigured(\"no settings\")\npkg.ImproperlyConfigured: no settings"}}`,
		`{"run_id":"r","step":2,"tool_call":{"name":"bash","args":{"command":"python repro.py"}},"tool_result":{"ok":true,"data":"File \"/testbed/pkg/conf.py\", line 9"}}`,
		`{"run_id":"r","step":3,"intent":"edit","tool_call":{"name":"bash","args":{"command":"sed -i s/a/b/ pkg/util.py"},"edit_file":"00000000000000ab"},"tool_result":{"ok":false,"data":"x","fail_file":"00000000000000cd"}}`)
	defer done()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, w := range []struct{ edit, fail uint64 }{
		{schema.FileKey([]byte("util.py")), 0},
		{0, schema.FileKey([]byte("conf.py"))}, // the last frame, not the script
		{0, 0},                                 // a traceback's words in output that did not fail
		{0xab, 0xcd},                           // keys computed before redaction
	} {
		got := row(rec, i)
		if got["edit_file"] != w.edit || got["fail_file"] != w.fail {
			t.Errorf("row %d: edit_file %#v fail_file %#v, want %#x %#x", i, got["edit_file"], got["fail_file"], w.edit, w.fail)
		}
	}
}

func TestDecodeResultCountZeroIsEmpty(t *testing.T) {
	rec, errs, done := decodeLines(t, false,
		`{"run_id":"r","step":1,"tool_call":{"name":"search"},"tool_result":{"result_count":0}}`,
		`{"run_id":"r","step":2,"tool_call":{"name":"search"},"tool_result":{"result_count":3}}`)
	defer done()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	result := schema.FlagCall | schema.FlagResult | schema.FlagPayload // result_count is a payload
	if got := row(rec, 0)["flags"]; got != result|schema.FlagEmpty {
		t.Errorf("result_count 0: flags = %b, want %b: a result, empty, not an error", got, result|schema.FlagEmpty)
	}
	if got := row(rec, 1)["flags"]; got != result {
		t.Errorf("result_count 3: flags = %b, want %b: not empty", got, result)
	}
}

func TestDecodeArgsHashIsCanonicalWhenAbsent(t *testing.T) {
	rec, errs, done := decodeLines(t, true,
		`{"run_id":"r","step":1,"tool_call":{"name":"search","args":{"q":"x","opts":{"b":[1,2.50],"a":"\u00e9"}}}}`,
		`{"run_id":"r","step":2,"tool_call":{"name":"search","args": { "opts" : { "a" : "é" , "b" : [ 1 , 2.5 ] } , "q" : "x" } }}`,
		`{"run_id":"r","step":3,"tool_call":{"name":"search","args":{"q":"x"},"args_hash":"logged-hash"}}`,
		`{"run_id":"r","step":4,"tool_call":{"name":"noop"}}`,
		`{"run_id":"r","step":5,"tool_call":{"args":{}}}`)
	defer done()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	want, _ := schema.ArgsHash([]byte(`{"q":"x","opts":{"a":"é","b":[1,2.5]}}`))
	first, second := row(rec, 0), row(rec, 1)
	if k := sha256Prefix(t, want); first["args_key"] != k || second["args_key"] != k || first["args_hash"] != nil {
		t.Errorf("args_key = %v and %v, args_hash %v; want both %x (%v) and null", first["args_key"], second["args_key"], first["args_hash"], k, want)
	}
	if first["args"] != `{"opts":{"a":"é","b":[1,2.5]},"q":"x"}` || second["args"] != first["args"] {
		t.Errorf("args = %v and %v, want the canonical JSON", first["args"], second["args"])
	}
	if got := row(rec, 2); got["args_hash"] != "logged-hash" || got["args_key"] != schema.IDHash("logged-hash") {
		t.Errorf("a logged args_hash must be kept and keyed by its hash: got %v %v", got["args_hash"], got["args_key"])
	}
	noArgs, _ := schema.ArgsHash(nil)
	if got := row(rec, 3); got["args_key"] != sha256Prefix(t, noArgs) || got["args"] != nil {
		t.Errorf("call without args: args_key=%v args=%v, want the key of %v and null", got["args_key"], got["args"], noArgs)
	}
	if got := row(rec, 4)["tool_name"]; got != "" {
		t.Errorf("tool_call without a name: tool_name = %#v, want \"\" (a call, not a reject)", got)
	}
}

func TestDecodeRejectReasons(t *testing.T) {
	deep := `{"run_id":"r","step":1,"tool_call":{"name":"x","args":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}`
	cases := []struct {
		line, kind, reason string
	}{
		{`{"run_id":"r","step":"3"}`, KindWrongType, "step: want integer, got string"},
		{`{"run_id":"r","step":1.5}`, KindWrongType, "step: want integer, got number 1.5"},
		{`{"run_id":7,"step":1}`, KindWrongType, "run_id: want string, got number"},
		{`{"run_id":"r","step":1,"tool_result":{"status":"500"}}`, KindWrongType, "tool_result.status: want integer, got string"},
		{`{"run_id":"r","step":1,"tool_result":{"ok":"yes"}}`, KindWrongType, "tool_result.ok: want boolean, got string"},
		{`{"run_id":"r","step":1,"ts":true}`, KindWrongType, "ts: want RFC 3339 string or epoch milliseconds, got boolean"},
		{`{"run_id":"r","step":1,"ts":"yesterday"}`, KindWrongType, `ts: "yesterday" is not RFC 3339`},
		{`{"run_id":"r","step":1,"memory":{"entries":[{"id":"a"},{"id":2}]}}`, KindWrongType, "memory.entries[1].id: want string, got number"},
		{`{"run_id":"r","step":1,"artifacts":"a1"}`, KindWrongType, "artifacts: want array, got string"},
		{`{"run_id":"r","step":1,"tool_call":[]}`, KindWrongType, "tool_call: want object, got array"},
		{`{"step":1}`, KindMissingField, "run_id: missing or empty"},
		{`{"run_id":"","step":1}`, KindMissingField, "run_id: missing or empty"},
		{`{"run_id":"r"}`, KindMissingField, "step: missing"},
		{`{"run_id":"r","step":null}`, KindMissingField, "step: missing"},
		{`{"run_id":"r","step":-1}`, KindInvalidValue, "step: -1 is negative"},
		{`{"run_id":"r","step":1,}`, KindMalformedJSON, "malformed JSON: invalid character '}' looking for beginning of object key string at column 24"},
		{`{"run_id":"r","step":1`, KindMalformedJSON, "malformed JSON: unexpected end of JSON input"},
		{`{"run_id":"r","step":1} trailing`, KindMalformedJSON, "malformed JSON: invalid character 't' after top-level value at column 25"},
		{`hello`, KindMalformedJSON, "malformed JSON: invalid character 'h' looking for beginning of value at column 1"},
		{`[1,2]`, KindNotObject, "not a JSON object: got array"},
		{`"a string"`, KindNotObject, "not a JSON object: got string"},
		{`null`, KindNotObject, "not a JSON object: got null"},
		{`42`, KindNotObject, "not a JSON object: got number"},
		{"{\"run_id\":\"r\x00\",\"step\":1}", KindNULByte, "NUL byte at column 13"},
		{`{"run_id":"r","step":1,"tool_call":{"name":"x","args":{"n":1e400}}}`, KindInvalidValue, "tool_call.args: number out of range at byte 10"},
		{deep, KindInvalidValue, "tool_call.args: nested deeper than 512 at byte 513"},
	}
	lines := make([]string, len(cases))
	for i, c := range cases {
		lines[i] = c.line
	}
	for _, keepText := range []bool{false, true} {
		rec, errs, done := decodeLines(t, keepText, lines...)
		if rec.NumRows() != 0 {
			t.Errorf("keepText=%v: %d rows appended for rejected lines", keepText, rec.NumRows())
		}
		for i, c := range cases {
			err := errs[i]
			if err == nil {
				t.Errorf("%s: accepted, want reject %q", c.line, c.reason)
				continue
			}
			if err.Kind != c.kind || err.Reason != c.reason {
				t.Errorf("%.80s:\n got  %s %q\n want %s %q", c.line, err.Kind, err.Reason, c.kind, c.reason)
			}
		}
		done()
	}
}

func TestDecodeLoggedArgsHashSavesUncanonicalisableArgs(t *testing.T) {
	// The hash is what detection needs; the args text is only shown. So args
	// beyond the canonicaliser reject a line only when the hash must come from them.
	line := `{"run_id":"r","step":1,"tool_call":{"name":"x","args":{"n":1e400},"args_hash":"h"}}`
	for _, keepText := range []bool{false, true} {
		rec, errs, done := decodeLines(t, keepText, line)
		if errs[0] != nil {
			t.Errorf("keepText=%v: rejected: %v", keepText, errs[0])
		} else if got := row(rec, 0); got["args_hash"] != "h" || got["args_key"] != schema.IDHash("h") || got["args"] != nil {
			t.Errorf("keepText=%v: args_hash=%v args=%v", keepText, got["args_hash"], got["args"])
		}
		done()
	}
}

func TestDecodeLineTooLong(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	w := newBatchWriter(mem)
	defer w.release()
	err := NewLineDecoder(false, 10).DecodeLine(w, []byte(`{"run_id":"r","step":1}`), 0, 1)
	if err == nil || err.Kind != KindLineTooLong || err.Reason != "line exceeds 10 bytes" {
		t.Fatalf("got %v", err)
	}
}

// TestDecodeLineAcrossBatches: rows stay whole whatever the batches and the
// sizing calls around them (appendRow writes a row's slots without a
// capacity check each: see batchWriter.addRow).
func TestDecodeLineAcrossBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	w := newBatchWriter(mem)
	defer w.release()
	dec := NewLineDecoder(false, 0)
	lines := splitLines(benchLines(3000))
	next := int64(1)
	cut := map[int]bool{1: true, 2: true, 67: true, 131: true, 1200: true, 2999: true}
	for i, l := range lines {
		if i == 500 || i == 2000 {
			w.beginChunk(10, 10*len(l)) // an estimate too small
		}
		if err := dec.DecodeLine(w, l, 0, int64(i+1)); err != nil {
			t.Fatal(err)
		}
		if cut[i] || i == len(lines)-1 {
			rec := w.newBatch()
			lineNos := rec.Column(schema.ColSrcLine).(*array.Int64)
			steps := rec.Column(schema.ColStep).(*array.Int64)
			for r := range int(rec.NumRows()) {
				if lineNos.Value(r) != next || steps.Value(r) != (next-1)/40 {
					t.Fatalf("row %d of a batch: src_line %d step %d, want %d %d", r, lineNos.Value(r), steps.Value(r), next, (next-1)/40)
				}
				next++
			}
			rec.Release()
		}
	}
	if next != int64(len(lines))+1 {
		t.Fatalf("%d rows, want %d", next-1, len(lines))
	}
}

// The reason hash is the hash of the normalised reason, whether the fast
// path (already normal) or the general one computes it.
func TestReasonHashIsTheNormalisedReasonsHash(t *testing.T) {
	d := NewLineDecoder(false, 0)
	for _, r := range []string{"retry later", "Retry  later", " retry later", "retry later ", "retry\tlater", "réessayer plus tard", "RÉESSAYER  plus tard", "a", "A"} {
		want := xxh3.Hash(schema.AppendNormalizedText(nil, []byte(r))) | 1
		if got := d.reasonHash(r); got != want {
			t.Errorf("%q: %x, want %x", r, got, want)
		}
	}
	if d.reasonHash("Retry  later") != d.reasonHash("retry later") {
		t.Error("spelling variants of one reason must hash equal")
	}
}

// Keys written with a redacted result (runaway fixture) stand for the text
// they were computed from: the reader takes them as given, a SimHash of 0
// too, and computes none from the placeholders. A key that is not 16 hex
// digits rejects the line, naming the field.
func TestDecodeTakesKeysComputedBeforeRedaction(t *testing.T) {
	rec, errs, done := decodeLines(t, false,
		`{"run_id":"r","step":1,"tool_call":{"name":"make","args":{"t":"app"},"simhash":"00000000000000ff","shape":"00000000000000a1"},"tool_result":{"ok":false,"data":"q5nryaj bwfs2g4 2 of the","fingerprint":"0123456789abcdef","simhash":"0000000000000000"}}`,
		`{"run_id":"r","step":2,"tool_call":{"name":"make","args":{"t":"app"}},"tool_result":{"ok":true,"data":"the build failed because the compiler could not find the header file named config while building the release target for the application today"}}`,
		`{"run_id":"r","step":3,"tool_result":{"ok":true,"fingerprint":"xyz"}}`,
		`{"run_id":"r","step":4,"tool_call":{"name":"make","simhash":"0123"}}`,
		`{"run_id":"r","step":5,"tool_call":{"name":"make","args":{"t":"app"},"shape":"-1"}}`)
	defer done()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	given := row(rec, 0)
	if given["result_hash"] != uint64(0x0123456789abcdef) || given["result_sim"] != uint64(0) || given["args_sim"] != uint64(0xff) || given["args_shape"] != uint64(0xa1) {
		t.Errorf("keys given: result_hash %x, result_sim %x, args_sim %x, args_shape %x", given["result_hash"], given["result_sim"], given["args_sim"], given["args_shape"])
	}
	if computed := row(rec, 1); computed["result_sim"] == uint64(0) || computed["result_hash"] == uint64(0) || computed["args_shape"] == uint64(0) {
		t.Errorf("keys not given are computed: %v", computed)
	}
	for i, field := range map[int]string{2: "tool_result.fingerprint", 3: "tool_call.simhash", 4: "tool_call.shape"} {
		if errs[i] == nil || !strings.Contains(errs[i].Error(), field) {
			t.Errorf("line %d: %v, want a reject naming %s", i+1, errs[i], field)
		}
	}
}

// Cached prompt tokens are read (usage.cache_read_tokens and
// cache_write_tokens) and price the estimate at the model's cache prices;
// a negative count rejects the line, naming the field.
func TestDecodePricesCachedTokensAtCachePrices(t *testing.T) {
	rec, errs, done := decodeLines(t, false,
		`{"run_id":"r","step":1,"usage":{"prompt_tokens":1000000,"completion_tokens":0,"model":"claude-sonnet-4-6"}}`,
		`{"run_id":"r","step":2,"usage":{"prompt_tokens":1000000,"completion_tokens":0,"model":"claude-sonnet-4-6","cache_read_tokens":1000000}}`,
		`{"run_id":"r","step":3,"usage":{"prompt_tokens":10,"cache_write_tokens":-1}}`)
	defer done()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if got := row(rec, 0)["cost_usd"]; got != 3.0 {
		t.Errorf("uncached: cost %v, want 3", got)
	}
	if got := row(rec, 1)["cost_usd"]; got != 0.3 {
		t.Errorf("all read from the cache: cost %v, want 0.3", got)
	}
	if errs[2] == nil || !strings.Contains(errs[2].Error(), "usage.cache_write_tokens") {
		t.Errorf("negative cache count: %v", errs[2])
	}
}

// A turn of conversation carries its words, each once, in the order said,
// then what it asks for; other calls carry none.
func TestDecodeTalkWords(t *testing.T) {
	turn := `{"run_id":"r","step":1,"state":"ACT","tool_call":{"name":"message","args":{"text":"Could you provide the reservation ID? The ID is on your e-ticket."}}}`
	rec, errs, done := decodeLines(t, false, turn, fullLine)
	defer done()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("rejected: %v %v", errs[0], errs[1])
	}
	var want []any
	for _, w := range []string{"could", "you", "provide", "reservation", "id", "your", "ticket", schema.TalkAskMark, "reservation", "id"} {
		want = append(want, schema.IDHash(w))
	}
	if got := row(rec, 0)["talk_words"]; !reflect.DeepEqual(got, want) {
		t.Errorf("talk_words = %v, want the hashes of %d words", got, len(want))
	}
	if got := row(rec, 1)["talk_words"]; got != nil {
		t.Errorf("a search's talk_words = %v, want null", got)
	}
}
