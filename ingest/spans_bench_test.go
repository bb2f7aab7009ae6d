package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// otlpBenchCorpus is OTLP/JSON as a Collector's file exporter writes it:
// files of TracesData lines, each line a batch of the spans that ended in
// one export interval, so a trace's spans spread over lines and files.
// Traces follow the GenAI semantic conventions: a model call whose output
// asks for a tool (the arguments there), then the tool span with its
// result, 10-40 turns a trace, an agent span around them.
func otlpBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	g := newBenchText(0x07e10000)
	var spans []map[string]any // the spans of the current batch
	var all []adapters.Span    // every span, to count the steps reading must give
	var file, lines []byte
	f := 0
	flushLine := func() error {
		if len(spans) == 0 {
			return nil
		}
		line := benchJSON(map[string]any{"resourceSpans": []any{map[string]any{
			"resource":   map[string]any{"attributes": []any{otlpKV("service.name", "support-agent")}},
			"scopeSpans": []any{map[string]any{"scope": map[string]any{"name": "agent"}, "spans": spans}},
		}}}, "")
		d, err := adapters.ParseDoc("bench", 1, false, line)
		if err != nil {
			return err
		}
		if err := adapters.OTLP.Spans(d, func(sp *adapters.Span) error { all = append(all, *sp); return nil }); err != nil {
			return err
		}
		lines = append(append(lines, line...), '\n')
		spans = spans[:0]
		return nil
	}
	flushFile := func() {
		if len(lines) > 0 {
			file = append(file[:0], lines...)
			c.add(fmt.Sprintf("otel/traces-%03d.jsonl", f), append([]byte(nil), file...), 0)
			f++
			lines = lines[:0]
		}
	}
	for t := 0; c.bytes+int64(len(lines)) < adaptBenchBytes; t++ {
		trace := fmt.Sprintf("%032x", uint64(t)*0x9e3779b97f4a7c15+1)
		start := int64(1764590400000000000) + int64(t)*60e9
		agent := fmt.Sprintf("%016x", uint64(t)<<20)
		spans = append(spans, otlpSpan(trace, agent, "", "invoke_agent support", start, start+55e9,
			otlpKV("gen_ai.operation.name", "invoke_agent"), otlpKV("gen_ai.conversation.id", fmt.Sprintf("conv-%d", t))))
		ts := start + 1e8
		for k := range g.n(10, 40) {
			call := fmt.Sprintf("call_%d_%d", t, k)
			tool := g.pick(tauTools)
			args := map[string]any{"order_id": fmt.Sprintf("#W%07d", g.r.IntN(1e7)), "note": g.sentence()}
			out, _ := json.Marshal([]map[string]any{{"role": "assistant", "parts": []any{
				map[string]any{"type": "text", "content": g.para(1, 2)},
				map[string]any{"type": "tool_call", "id": call, "name": tool, "arguments": args}}}})
			spans = append(spans, otlpSpan(trace, fmt.Sprintf("%016x", uint64(t)<<20|uint64(2*k+1)), agent, "chat gpt-4o", ts, ts+8e8,
				otlpKV("gen_ai.operation.name", "chat"), otlpKV("gen_ai.request.model", "gpt-4o"),
				otlpIntKV("gen_ai.usage.input_tokens", int64(1000+100*k)), otlpIntKV("gen_ai.usage.output_tokens", 60),
				otlpKV("gen_ai.output.messages", string(out))))
			ts += 9e8
			attrs := []any{otlpKV("gen_ai.operation.name", "execute_tool"), otlpKV("gen_ai.tool.name", tool), otlpKV("gen_ai.tool.call.id", call),
				otlpKV("gen_ai.tool.call.result", g.tauAnswer("u"))}
			spans = append(spans, otlpSpan(trace, fmt.Sprintf("%016x", uint64(t)<<20|uint64(2*k+2)), agent, "execute_tool "+tool, ts, ts+3e8, attrs...))
			ts += 4e8
			if len(spans) >= 64 {
				if err := flushLine(); err != nil {
					return nil, err
				}
			}
		}
		if len(lines) >= 8<<20 {
			flushFile()
		}
	}
	if err := flushLine(); err != nil {
		return nil, err
	}
	flushFile()
	n := int64(0)
	if err := adapters.AssembleAll(all, false, func(*schema.Step) error { n++; return nil }); err != nil {
		return nil, err
	}
	c.steps = n
	return c, nil
}

func otlpKV(k, v string) map[string]any {
	return map[string]any{"key": k, "value": map[string]any{"stringValue": v}}
}

func otlpIntKV(k string, v int64) map[string]any {
	return map[string]any{"key": k, "value": map[string]any{"intValue": fmt.Sprint(v)}}
}

func otlpSpan(trace, id, parent, name string, start, end int64, attrs ...any) map[string]any {
	return map[string]any{"traceId": trace, "spanId": id, "parentSpanId": parent, "name": name, "kind": 1,
		"startTimeUnixNano": fmt.Sprint(start), "endTimeUnixNano": fmt.Sprint(end), "attributes": attrs, "status": map[string]any{}}
}

// sampleBenchCorpus is a tracing format's bundled samples (the JSON Lines
// ones), copied with every id made unique per copy until the corpus is
// adaptBenchBytes, in files of about 8 MB: the real shape of each record,
// many conversations. The records of a copy stay in their file's order,
// which is not time order.
func sampleBenchCorpus(format string, samples ...string) (*adaptCorpus, error) {
	var records []map[string]any
	for _, name := range samples {
		raw, err := os.ReadFile(filepath.Join("..", "fixtures", "traces", format, name))
		if err != nil {
			return nil, err
		}
		var whole map[string]any
		if json.Unmarshal(raw, &whole) == nil {
			records = append(records, whole) // one document (pretty-printed)
			continue
		}
		for l := range bytes.SplitSeq(bytes.TrimSpace(raw), []byte("\n")) {
			var m map[string]any
			if err := json.Unmarshal(l, &m); err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			records = append(records, m)
		}
	}
	copyOf := func(i int) []byte {
		var out bytes.Buffer
		for _, r := range records {
			out.Write(benchJSON(suffixIDs(r, fmt.Sprintf("-%d", i)).(map[string]any), ""))
			out.WriteByte('\n')
		}
		return out.Bytes()
	}
	// The steps of one copy, read as a scan reads them.
	st, err := Read(context.Background(), []Source{memSource("one.jsonl", copyOf(0))}, Options{Alloc: memory.NewGoAllocator()}, nil)
	if err != nil || st.Rejected > 0 || st.Steps == 0 {
		return nil, fmt.Errorf("%s sample: %d steps, %d rejected, %v", format, st.Steps, st.Rejected, err)
	}
	c := &adaptCorpus{}
	var file []byte
	steps := 0
	for i := 0; c.bytes+int64(len(file)) < adaptBenchBytes; i++ {
		file = append(file, copyOf(i)...)
		steps += int(st.Steps)
		if len(file) >= 8<<20 {
			c.add(fmt.Sprintf("%s-%03d.jsonl", format, len(c.sources)), file, steps)
			file, steps = nil, 0
		}
	}
	if len(file) > 0 {
		c.add(fmt.Sprintf("%s-%03d.jsonl", format, len(c.sources)), file, steps)
	}
	return c, nil
}

// benchIDKeys are the members that name a record, its trace, its parent or
// its conversation in the tracing formats' samples.
var benchIDKeys = map[string]bool{
	"id": true, "trace_id": true, "traceId": true, "parent_id": true, "parent_run_id": true,
	"parentObservationId": true, "session_id": true, "sessionId": true, "group_id": true, "thread_id": true,
	"request_id": true, "mlflow.trace.session": true,
}

// suffixIDs returns v with suffix appended to every id member, at any depth.
func suffixIDs(v any, suffix string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if s, ok := e.(string); ok && benchIDKeys[k] && s != "" {
				out[k] = s + suffix
			} else {
				out[k] = suffixIDs(e, suffix)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = suffixIDs(e, suffix)
		}
		return out
	}
	return v
}
