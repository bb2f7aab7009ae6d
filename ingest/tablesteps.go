package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/runawayhq/runaway/schema"
)

// Runaway's steps read from a table (docs/ingest.md, "Parquet"): a column a
// field of the step, by the field's name. An object (tool_call,
// tool_result, usage, ...) is a struct column, or flat columns named with
// dots ("tool_call.name", as pandas' json_normalize writes them), or one
// text column holding the object as JSON. Each cell is read into the step
// directly; no row is written out as JSON and parsed again.

// stepObjects are the step's objects, in the order of schema.Step.
var stepObjects = []string{"tool_call", "tool_result", "memory", "decision", "usage", "tokens", "budget"}

// tableField is one field of a step read from one column.
type tableField struct {
	path string // "run_id", "tool_call.name"
	read func(s *schema.Step, c *tableCell, i int, b *[]byte) error
}

// tableFields are the fields a table's columns fill.
var tableFields = []tableField{
	{"run_id", textField(func(s *schema.Step) *string { return &s.RunID })},
	{"step", func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		n, err := cellInt(c, i)
		s.Step = &n
		return err
	}},
	{"ts", func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		ms, err := cellMillis(c, i)
		s.TS = &schema.Timestamp{UnixMilli: ms}
		return err
	}},
	{"state", textField(func(s *schema.Step) *string { return &s.State })},
	{"goal", textField(func(s *schema.Step) *string { return &s.Goal })},
	{"intent", textField(func(s *schema.Step) *string { return &s.Intent })},
	{"artifacts", func(s *schema.Step, c *tableCell, i int, _ *[]byte) (err error) {
		s.Artifacts, err = cellStrings(c, i)
		return err
	}},

	{"tool_call.name", textField(func(s *schema.Step) *string { return &call(s).Name })},
	{"tool_call.args", func(s *schema.Step, c *tableCell, i int, b *[]byte) (err error) {
		*b, err = cellJSON((*b)[:0], c, i)
		call(s).Args = json.RawMessage(bytes.Clone(*b))
		return err
	}},
	{"tool_call.args_hash", textField(func(s *schema.Step) *string { return &call(s).ArgsHash })},

	{"tool_result.ok", boolField(func(s *schema.Step) **bool { return &result(s).OK })},
	{"tool_result.error_type", textField(func(s *schema.Step) *string { return &result(s).ErrorType })},
	{"tool_result.status", intField(func(s *schema.Step) **int64 { return &result(s).Status })},
	{"tool_result.empty", boolField(func(s *schema.Step) **bool { return &result(s).Empty })},
	{"tool_result.retryable", boolField(func(s *schema.Step) **bool { return &result(s).Retryable })},
	{"tool_result.done", boolField(func(s *schema.Step) **bool { return &result(s).Done })},
	{"tool_result.result_count", intField(func(s *schema.Step) **int64 { return &result(s).ResultCount })},
	{"tool_result.items", jsonField(func(s *schema.Step) *json.RawMessage { return &result(s).Items })},
	{"tool_result.found", boolField(func(s *schema.Step) **bool { return &result(s).Found })},
	{"tool_result.data", jsonField(func(s *schema.Step) *json.RawMessage { return &result(s).Data })},
	{"tool_result.confidence", func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		f, err := cellFloat(c, i)
		result(s).Confidence = &f
		return err
	}},
	{"tool_result.reason", textField(func(s *schema.Step) *string { return &result(s).Reason })},
	{"tool_result.seen", boolField(func(s *schema.Step) **bool { return &result(s).Seen })},
	{"tool_result.reports_failure", boolField(func(s *schema.Step) **bool { return &result(s).ReportsFailure })},

	{"memory.retrieved", listField(func(s *schema.Step) *[]string { return &stepMemory(s).Retrieved })},
	{"memory.written", listField(func(s *schema.Step) *[]string { return &stepMemory(s).Written })},
	{"memory.write_tags", listField(func(s *schema.Step) *[]string { return &stepMemory(s).WriteTags })},
	{"memory.entries", func(s *schema.Step, c *tableCell, i int, b *[]byte) (err error) {
		if *b, err = cellJSON((*b)[:0], c, i); err != nil {
			return err
		}
		if err := json.Unmarshal(*b, &stepMemory(s).Entries); err != nil {
			return fmt.Errorf("column %s: not a list of memory entries", c.name)
		}
		return nil
	}},

	{"decision.next_state", textField(func(s *schema.Step) *string { return &decision(s).NextState })},
	{"decision.reason", textField(func(s *schema.Step) *string { return &decision(s).Reason })},

	{"usage.prompt_tokens", countField(func(s *schema.Step) *int64 { return &usage(s).PromptTokens })},
	{"usage.completion_tokens", countField(func(s *schema.Step) *int64 { return &usage(s).CompletionTokens })},
	{"usage.cost_usd", numberField(func(s *schema.Step) *float64 { return &usage(s).CostUSD })},
	{"usage.model", textField(func(s *schema.Step) *string { return &usage(s).Model })},

	{"tokens.prompt", countField(func(s *schema.Step) *int64 { return &tokens(s).Prompt })},
	{"tokens.completion", countField(func(s *schema.Step) *int64 { return &tokens(s).Completion })},

	{"budget.max_steps", countField(func(s *schema.Step) *int64 { return &budget(s).MaxSteps })},
	{"budget.max_tool_calls", countField(func(s *schema.Step) *int64 { return &budget(s).MaxToolCalls })},
	{"budget.max_tokens", countField(func(s *schema.Step) *int64 { return &budget(s).MaxTokens })},
	{"budget.max_cost_usd", numberField(func(s *schema.Step) *float64 { return &budget(s).MaxCostUSD })},
	{"budget.max_seconds", numberField(func(s *schema.Step) *float64 { return &budget(s).MaxSeconds })},
}

// The step's objects, made when a field of theirs is read.
func call(s *schema.Step) *schema.ToolCall {
	if s.ToolCall == nil {
		s.ToolCall = &schema.ToolCall{}
	}
	return s.ToolCall
}

func result(s *schema.Step) *schema.ToolResult {
	if s.ToolResult == nil {
		s.ToolResult = &schema.ToolResult{}
	}
	return s.ToolResult
}

func stepMemory(s *schema.Step) *schema.Memory {
	if s.Memory == nil {
		s.Memory = &schema.Memory{}
	}
	return s.Memory
}

func decision(s *schema.Step) *schema.Decision {
	if s.Decision == nil {
		s.Decision = &schema.Decision{}
	}
	return s.Decision
}

func usage(s *schema.Step) *schema.Usage {
	if s.Usage == nil {
		s.Usage = &schema.Usage{}
	}
	return s.Usage
}

func tokens(s *schema.Step) *schema.TokensAlt {
	if s.Tokens == nil {
		s.Tokens = &schema.TokensAlt{}
	}
	return s.Tokens
}

func budget(s *schema.Step) *schema.Budget {
	if s.Budget == nil {
		s.Budget = &schema.Budget{}
	}
	return s.Budget
}

func textField(field func(*schema.Step) *string) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		v, err := cellString(c, i)
		*field(s) = v
		return err
	}
}

func boolField(field func(*schema.Step) **bool) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		v, err := cellBool(c, i)
		*field(s) = &v
		return err
	}
}

func intField(field func(*schema.Step) **int64) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		v, err := cellInt(c, i)
		*field(s) = &v
		return err
	}
}

func countField(field func(*schema.Step) *int64) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		v, err := cellInt(c, i)
		*field(s) = v
		return err
	}
}

func numberField(field func(*schema.Step) *float64) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) error {
		v, err := cellFloat(c, i)
		*field(s) = v
		return err
	}
}

func listField(field func(*schema.Step) *[]string) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, _ *[]byte) (err error) {
		*field(s), err = cellStrings(c, i)
		return err
	}
}

func jsonField(field func(*schema.Step) *json.RawMessage) func(*schema.Step, *tableCell, int, *[]byte) error {
	return func(s *schema.Step, c *tableCell, i int, b *[]byte) (err error) {
		*b, err = cellJSON((*b)[:0], c, i)
		*field(s) = json.RawMessage(bytes.Clone(*b))
		return err
	}
}

// stepTable is a batch's columns bound to the fields they fill.
type stepTable struct {
	fields  []boundField
	objects []boundObject // objects held as JSON text
	present []objectPresence
}

type boundField struct {
	c    tableCell
	read func(s *schema.Step, c *tableCell, i int, b *[]byte) error
}

// boundObject is a text column holding a whole object as JSON.
type boundObject struct {
	c   tableCell
	obj string
}

// objectPresence is a struct column: a row whose struct is valid has the
// object, even when every field of it is null ({"tool_call": {}} is a call).
type objectPresence struct {
	arr *array.Struct
	obj string
}

// bindSteps binds a batch's columns to the step's fields; columns that
// name no field are ignored.
func bindSteps(rec arrow.RecordBatch) *stepTable {
	t := &stepTable{}
	sc := rec.Schema()
	col := func(name string) (arrow.Array, bool) {
		idx := sc.FieldIndices(name)
		if len(idx) == 0 {
			return nil, false
		}
		return rec.Column(idx[0]), true
	}
	for _, obj := range stepObjects {
		arr, ok := col(obj)
		if !ok {
			continue
		}
		if st, ok := arr.(*array.Struct); ok {
			t.present = append(t.present, objectPresence{arr: st, obj: obj})
		} else if isTextType(arr) {
			t.objects = append(t.objects, boundObject{c: tableCell{name: obj, arr: arr}, obj: obj})
		}
	}
	for _, f := range tableFields {
		obj, member, nested := strings.Cut(f.path, ".")
		if !nested {
			if arr, ok := col(f.path); ok {
				t.fields = append(t.fields, boundField{c: tableCell{name: f.path, arr: arr}, read: f.read})
			}
			continue
		}
		if arr, ok := col(obj); ok {
			if st, ok := arr.(*array.Struct); ok {
				if k, ok := st.DataType().(*arrow.StructType).FieldIdx(member); ok {
					t.fields = append(t.fields, boundField{c: tableCell{name: f.path, arr: st.Field(k), parents: []*array.Struct{st}}, read: f.read})
				}
				continue
			}
		}
		if arr, ok := col(f.path); ok {
			t.fields = append(t.fields, boundField{c: tableCell{name: f.path, arr: arr}, read: f.read})
		}
	}
	return t
}

// row reads row i into s (zeroed first); b is scratch.
func (t *stepTable) row(s *schema.Step, i int, b *[]byte) error {
	*s = schema.Step{}
	for _, o := range t.objects {
		if !o.c.valid(i) {
			continue
		}
		text, _ := cellString(&o.c, i)
		if err := unmarshalObject(s, o.obj, []byte(text)); err != nil {
			return fmt.Errorf("column %s: %v", o.obj, err)
		}
	}
	for _, p := range t.present {
		if p.arr.IsValid(i) {
			makeObject(s, p.obj)
		}
	}
	for k := range t.fields {
		f := &t.fields[k]
		if !f.c.valid(i) {
			continue
		}
		if err := f.read(s, &f.c, i, b); err != nil {
			return err
		}
	}
	return nil
}

// unmarshalObject reads one of the step's objects from JSON text.
func unmarshalObject(s *schema.Step, obj string, text []byte) error {
	var dst any
	switch obj {
	case "tool_call":
		dst = &s.ToolCall
	case "tool_result":
		dst = &s.ToolResult
	case "memory":
		dst = &s.Memory
	case "decision":
		dst = &s.Decision
	case "usage":
		dst = &s.Usage
	case "tokens":
		dst = &s.Tokens
	case "budget":
		dst = &s.Budget
	}
	return json.Unmarshal(text, dst)
}

// makeObject gives s the object, empty if no field of it is read.
func makeObject(s *schema.Step, obj string) {
	switch obj {
	case "tool_call":
		call(s)
	case "tool_result":
		result(s)
	case "memory":
		stepMemory(s)
	case "decision":
		decision(s)
	case "usage":
		usage(s)
	case "tokens":
		tokens(s)
	case "budget":
		budget(s)
	}
}
