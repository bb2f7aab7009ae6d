package explain

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// decoded is one raw step line, decoded.
type decoded struct {
	step  schema.Step
	raw   []byte
	order int // input order
}

// decodeLines decodes the run's raw lines and orders them as the analysis
// orders its rows: by step, then ts (none first), then input order, exact
// duplicates (same step, same bytes) dropped. A line that does not decode
// here is counted and left out: its step still shows what the analysis
// kept of it.
func decodeLines(lines [][]byte) (out []decoded, undecoded int) {
	for k, raw := range lines {
		var s schema.Step
		if err := json.Unmarshal(raw, &s); err != nil || s.Step == nil {
			undecoded++
			continue
		}
		out = append(out, decoded{step: s, raw: bytes.TrimSpace(raw), order: k})
	}
	ts := func(d *decoded) int64 {
		if d.step.TS == nil {
			return -1 << 63
		}
		return d.step.TS.UnixMilli
	}
	slices.SortStableFunc(out, func(a, b decoded) int {
		switch {
		case *a.step.Step != *b.step.Step:
			return cmp.Compare(*a.step.Step, *b.step.Step)
		case ts(&a) != ts(&b):
			return cmp.Compare(ts(&a), ts(&b))
		}
		return a.order - b.order
	})
	kept := out[:0]
	for i, d := range out {
		if i > 0 && *d.step.Step == *out[i-1].step.Step && bytes.Equal(d.raw, out[i-1].raw) {
			continue
		}
		kept = append(kept, d)
	}
	return kept, undecoded
}
