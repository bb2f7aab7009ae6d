package schema

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestJSONSchemaIsValidJSONAndCoversStep(t *testing.T) {
	var doc struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(JSONSchema, &doc); err != nil {
		t.Fatalf("step.schema.json: %v", err)
	}
	if !reflect.DeepEqual(doc.Required, []string{"run_id", "step"}) {
		t.Fatalf("required = %v", doc.Required)
	}
	// Every field of the Go contract is documented in the JSON Schema, and
	// the JSON Schema names no field the decoder ignores.
	var goFields []string
	st := reflect.TypeOf(Step{})
	for i := 0; i < st.NumField(); i++ {
		goFields = append(goFields, strings.Split(st.Field(i).Tag.Get("json"), ",")[0])
	}
	var docFields []string
	for k := range doc.Properties {
		docFields = append(docFields, k)
	}
	sort.Strings(goFields)
	sort.Strings(docFields)
	if !reflect.DeepEqual(goFields, docFields) {
		t.Fatalf("Go fields %v\nschema fields %v", goFields, docFields)
	}
}

func TestArrowSchemaIndices(t *testing.T) {
	if StepArrowSchema.NumFields() != NumCols {
		t.Fatalf("schema has %d fields, NumCols = %d", StepArrowSchema.NumFields(), NumCols)
	}
	checks := map[int]string{ColRunID: "run_id", ColStep: "step", ColArgsHash: "args_hash", ColFlags: "flags",
		ColMemSuspect: "mem_suspect", ColDecisionKey: "decision_key", ColBudgetMaxSeconds: "budget_max_seconds", ColLineHash: "line_hash", ColSrcLine: "src_line"}
	for i, name := range checks {
		if got := StepArrowSchema.Field(i).Name; got != name {
			t.Errorf("column %d is %q, want %q", i, got, name)
		}
	}
}

func decodeResult(t *testing.T, s string) *ToolResult { return unmarshalled[ToolResult](t, s) }

// unmarshalled is s decoded into a new T.
func unmarshalled[T any](t *testing.T, s string) *T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestIsEmpty(t *testing.T) {
	empty := []string{`{"ok":true,"empty":true}`, `{"ok":true,"result_count":0}`, `{"ok":true,"items":[]}`,
		`{"found":false,"items":[],"confidence":0.2,"retryable":false}`, `{"ok":true,"data":null}`,
		`{"ok":true,"data":"  "}`, `{"ok":true,"data":[ ]}`}
	full := []string{`{"ok":true}`, `{"ok":true,"result_count":3}`, `{"ok":true,"items":[1]}`, `{"ok":true,"data":{}}`,
		`{"ok":true,"data":"x"}`, `{"ok":false,"result_count":0}`, `{"ok":true,"empty":false}`, `{"ok":true,"data":0}`}
	for _, s := range empty {
		if !decodeResult(t, s).IsEmpty() {
			t.Errorf("%s should be empty", s)
		}
	}
	for _, s := range full {
		if decodeResult(t, s).IsEmpty() {
			t.Errorf("%s should not be empty", s)
		}
	}
}

func TestErrorType(t *testing.T) {
	cases := map[string]string{
		`{"ok":false,"error_type":"TIMEOUT"}`: "TIMEOUT",
		`{"ok":false,"status":429}`:           "RATE_LIMIT",
		`{"ok":false,"status":504}`:           "TIMEOUT",
		`{"ok":false}`:                        "UNKNOWN",
		`{"error_type":"SCHEMA_ERROR"}`:       "SCHEMA_ERROR",
		`{"ok":true,"error_type":"X"}`:        "",
		`{"status":200}`:                      "",
	}
	for in, want := range cases {
		if got := decodeResult(t, in).NormalizedErrorType(); got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}

func TestTimestamp(t *testing.T) {
	cases := map[string]int64{
		`"2026-11-29T10:00:00Z"`:          1795946400000,
		`"2026-11-29T19:00:00.250+09:00"`: 1795946400250,
		`1795946400000`:                   1795946400000,
		`1795946400.25`:                   1795946400250,
	}
	for in, want := range cases {
		var ts Timestamp
		if err := ts.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if ts.UnixMilli != want {
			t.Errorf("%s: got %d, want %d", in, ts.UnixMilli, want)
		}
	}
	for _, bad := range []string{`"yesterday"`, `true`, `"2026-13-01"`, `{}`} {
		var ts Timestamp
		if ts.UnmarshalJSON([]byte(bad)) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestStateCode(t *testing.T) {
	for in, want := range map[string]State{"PLAN": StatePlan, " act ": StateAct, "Eval": StateEval, "STOP": StateStop, "THINK": StateOther, "": StateNone} {
		if got := StateCode(in); got != want {
			t.Errorf("%q: got %v, want %v", in, got, want)
		}
	}
}

func TestValidateRejectsImplausibleAmounts(t *testing.T) {
	for _, line := range []string{
		`{"run_id":"r","step":0,"usage":{"cost_usd":1e308}}`,
		`{"run_id":"r","step":0,"usage":{"cost_usd":-1}}`,
		`{"run_id":"r","step":0,"usage":{"prompt_tokens":-5}}`,
		`{"run_id":"r","step":0,"tokens":{"completion":-1}}`,
		`{"run_id":"r","step":0,"budget":{"max_steps":-3}}`,
	} {
		var s Step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		if s.Validate() == nil {
			t.Errorf("%s accepted", line)
		}
	}
	var ok Step
	_ = json.Unmarshal([]byte(`{"run_id":"r","step":0,"usage":{"prompt_tokens":10,"cost_usd":0.02},"budget":{"max_steps":5}}`), &ok)
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestAppendFingerprintInputIsWhatResultFingerprintHashes(t *testing.T) {
	var hashed []byte
	record := func(b []byte) uint64 { hashed = append(hashed[:0], b...); return uint64(len(b)) }
	for _, js := range []string{
		`{}`, `{"ok":true}`, `{"ok":false,"status":429}`, `{"error_type":"TIMEOUT","status":504}`,
		`{"ok":true,"result_count":0,"items":[ 1 ],"data":" x "}`, `{"empty":true,"data":null}`,
	} {
		var r ToolResult
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatal(err)
		}
		if got := r.ResultFingerprint(record); got != uint64(len(hashed)) {
			t.Fatalf("%s: fingerprint %d", js, got)
		}
		if got := r.AppendFingerprintInput([]byte("prefix")); string(got) != "prefix"+string(hashed) {
			t.Errorf("%s: AppendFingerprintInput = %q, ResultFingerprint hashes %q", js, got, hashed)
		}
	}
	var none *ToolResult
	if got := none.AppendFingerprintInput([]byte("x")); string(got) != "x" {
		t.Errorf("nil result appends %q", got)
	}
	if zero := (&ToolResult{}).ResultFingerprint(func([]byte) uint64 { return 0 }); zero != 1 {
		t.Errorf("a zero hash must become 1, got %d", zero)
	}
}

// The blank-string check reads a tool's output only as far as its first
// byte that is not white space, and must say what decoding the whole
// string says.
func FuzzIsEmptyJSONValueMatchesDecoding(f *testing.F) {
	for _, s := range []string{`""`, `"  "`, `"\n\t "`, `" \u0020 "`, `"\u00a0"`, `" x"`, `"\\n"`, `"a\nb"`, `"\f"`, `" \u2003\r\n"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := []byte(s)
		var decoded string
		if !strings.HasPrefix(s, `"`) || json.Unmarshal(raw, &decoded) != nil {
			return // only valid JSON strings reach the check
		}
		if got, want := isEmptyJSONValue(raw), blankJSONString(raw); got != want {
			t.Fatalf("isEmptyJSONValue(%s) = %v, decoding says %v", s, got, want)
		}
	})
}
