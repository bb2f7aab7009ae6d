package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// fuzzFormat checks that reading any bytes as a document of f never
// panics, and that what f converts is valid input: every step passes
// schema validation and no run numbers two steps alike. Seeds are the
// format's samples and the rule cases written for it.
func fuzzFormat(f *testing.F, format *Format, seeds ...[]byte) {
	for _, s := range sampleDocs {
		if s.format != format {
			continue
		}
		raw := readSample(f, s.rel)
		if s.line > 0 {
			raw = sampleLines(f, s.rel)[s.line-1]
		}
		f.Add(raw, s.line == 0)
	}
	for _, c := range ruleCases(f) {
		if c.format == format {
			f.Add(c.doc, true)
		}
	}
	for _, s := range seeds {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, whole bool) {
		d, err := ParseDoc("fuzz.json", 3, whole, raw)
		if err != nil {
			return
		}
		_, _ = Detect(d)
		if format.Recognize(d) != nil {
			return
		}
		seen := map[string]map[int64]bool{}
		_ = ConvertDoc(format, d, func(s *schema.Step) error {
			if err := s.Validate(); err != nil {
				t.Fatalf("invalid step %+v: %v", s, err)
			}
			if _, err := AppendStepJSON(nil, s); err != nil {
				t.Fatalf("step does not marshal: %v", err)
			}
			if seen[s.RunID] == nil {
				seen[s.RunID] = map[int64]bool{}
			}
			if seen[s.RunID][*s.Step] {
				t.Fatalf("run %q: step %d twice", s.RunID, *s.Step)
			}
			seen[s.RunID][*s.Step] = true
			return nil
		})
	})
}

func FuzzSWEAgent(f *testing.F) {
	fuzzFormat(f, SWEAgent,
		[]byte(`{"trajectory": [{"action": "", "observation": null, "thought": ""}], "info": {"model_stats": {"instance_cost": -1, "tokens_sent": -5}}}`),
	)
}

func FuzzMiniSWEAgent(f *testing.F) {
	fuzzFormat(f, MiniSWEAgent,
		[]byte(`{"trajectory_format": "mini-swe-agent-1.1", "messages": [{"role": "user"}, {"role": "user"}, {"role": "user", "content": "No tool calls found"}]}`),
	)
}

func FuzzOpenHands(f *testing.F) {
	fuzzFormat(f, OpenHands,
		[]byte(`[{"kind": "ObservationEvent", "observation": {"kind": "X"}}, {"kind": "ActionEvent", "action": {"kind": "ThinkAction"}}]`),
		[]byte(`{"history": [[{"action": "run", "args": {}}, {"observation": "run", "content": ""}]]}`),
	)
}

func FuzzOpenAIMessages(f *testing.F) {
	fuzzFormat(f, OpenAIMessages,
		[]byte(`[{"role": "assistant", "tool_calls": [{"function": {"arguments": "\"\""}}, {"function": {}}]}, {"role": "tool"}]`),
	)
}
