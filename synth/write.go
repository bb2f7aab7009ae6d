package synth

import (
	"strconv"
	"time"

	"github.com/runawayhq/runaway/schema"
)

// encode appends the run's lines to buf and the end offset of each line to
// ends. Field order follows the schema table (docs/schema.md).
func (r *run) encode(buf []byte, ends []int) ([]byte, []int, error) {
	var budgetJSON []byte
	if r.budgetOn {
		budgetJSON = r.budget.json()
	}
	for i := range r.steps {
		s := &r.steps[i]
		buf = append(buf, `{"run_id":"`...)
		buf = append(buf, r.id...)
		buf = append(buf, `","step":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `,"ts":"`...)
		buf = appendTS(buf, s.tsMS)
		buf = append(buf, `","state":"`...)
		buf = append(buf, s.state...)
		buf = append(buf, `","goal":`...)
		buf = appendString(buf, r.goal)
		if s.intent != "" && s.state == stateAct {
			buf = append(buf, `,"intent":`...)
			buf = appendString(buf, s.intent)
		}
		if s.tool != "" {
			buf = append(buf, `,"tool_call":{"name":`...)
			buf = appendString(buf, s.tool)
			buf = append(buf, `,"args":`...)
			buf = append(buf, s.args...)
			if r.hashArgs {
				h, ok := r.hashes[string(s.args)]
				if !ok {
					var err error
					if h, err = schema.ArgsHash(s.args); err != nil {
						return buf, ends, err
					}
					r.hashes[string(s.args)] = h
				}
				buf = append(buf, `,"args_hash":"`...)
				buf = append(buf, h...)
				buf = append(buf, '"')
			}
			buf = append(buf, '}')
		}
		if len(s.result) > 0 {
			buf = append(buf, `,"tool_result":`...)
			buf = append(buf, s.result...)
		}
		buf = r.appendMemory(buf, s)
		if s.next != "" || s.reason != "" {
			buf = append(buf, `,"decision":{`...)
			if s.next != "" {
				buf = append(buf, `"next_state":"`...)
				buf = append(buf, s.next...)
				buf = append(buf, '"')
				if s.reason != "" {
					buf = append(buf, ',')
				}
			}
			if s.reason != "" {
				buf = append(buf, `"reason":`...)
				buf = appendString(buf, s.reason)
			}
			buf = append(buf, '}')
		}
		if len(s.artifacts) > 0 {
			buf = append(buf, `,"artifacts":`...)
			buf = appendStrings(buf, s.artifacts)
		}
		buf = append(buf, `,"usage":{"prompt_tokens":`...)
		buf = strconv.AppendInt(buf, s.prompt, 10)
		buf = append(buf, `,"completion_tokens":`...)
		buf = strconv.AppendInt(buf, s.completion, 10)
		buf = append(buf, `,"cost_usd":`...)
		buf = appendFloat(buf, r.model.cost(s.prompt, s.completion), 6)
		buf = append(buf, '}')
		if budgetJSON != nil {
			buf = append(buf, `,"budget":`...)
			buf = append(buf, budgetJSON...)
		}
		buf = append(buf, "}\n"...)
		ends = append(ends, len(buf))
	}
	return buf, ends, nil
}

func (r *run) appendMemory(buf []byte, s *step) []byte {
	if len(s.retrieved) == 0 && len(s.written) == 0 {
		return buf
	}
	buf = append(buf, `,"memory":{`...)
	first := true
	sep := func() {
		if !first {
			buf = append(buf, ',')
		}
		first = false
	}
	if len(s.retrieved) > 0 {
		sep()
		buf = append(buf, `"retrieved":[`...)
		for i, id := range s.retrieved {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendMemID(buf, id)
		}
		buf = append(buf, ']')
	}
	if len(s.written) > 0 {
		sep()
		buf = append(buf, `"written":[`...)
		for i, w := range s.written {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendMemID(buf, w.id)
		}
		buf = append(buf, `],"write_tags":[`...)
		n := 0
		for i, w := range s.written {
			if tagWrittenBefore(s.written[:i], w.tag) {
				continue
			}
			if n > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, w.tag)
			n++
		}
		buf = append(buf, ']')
		if r.entries {
			buf = append(buf, `,"entries":[`...)
			for i, w := range s.written {
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, `{"id":`...)
				buf = appendMemID(buf, w.id)
				buf = append(buf, `,"type":`...)
				buf = appendString(buf, w.tag)
				buf = append(buf, `,"source":`...)
				buf = appendString(buf, w.source)
				buf = append(buf, `,"confidence":`...)
				buf = appendFloat(buf, w.conf, 2)
				buf = append(buf, '}')
			}
			buf = append(buf, ']')
		}
	}
	return append(buf, '}')
}

func tagWrittenBefore(ws []memWrite, tag string) bool {
	for _, w := range ws {
		if w.tag == tag {
			return true
		}
	}
	return false
}

func appendMemID(buf []byte, id int) []byte {
	buf = append(buf, `"m-`...)
	buf = strconv.AppendInt(buf, int64(id), 10)
	return append(buf, '"')
}

func (b budget) json() []byte {
	o := object().int("max_steps", b.maxSteps)
	if b.maxToolCalls > 0 {
		o = o.int("max_tool_calls", b.maxToolCalls)
	}
	if b.maxTokens > 0 {
		o = o.int("max_tokens", b.maxTokens)
	}
	if b.maxCostUSD > 0 {
		o = o.num("max_cost_usd", b.maxCostUSD, 2)
	}
	if b.maxSeconds > 0 {
		o = o.num("max_seconds", b.maxSeconds, 0)
	}
	return o.close()
}

// appendTS writes epoch milliseconds as RFC 3339 UTC with milliseconds.
func appendTS(b []byte, ms int64) []byte {
	return time.UnixMilli(ms).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
}
