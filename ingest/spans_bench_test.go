package ingest

import (
	"encoding/json"
	"fmt"

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
