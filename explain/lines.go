package explain

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

// decoded is one raw step line, decoded.
type decoded struct {
	step schema.Step
	raw  []byte
	hash uint32 // of the line's bytes, as the analysis keeps it
}

// decodeLines decodes the run's raw lines and orders them as the analysis
// orders its rows (runstore's compareRows): by step, then ts (none first),
// then the hash of the line, exact duplicates (same step, same bytes)
// dropped, so that neither depends on the order the lines came in. A line
// that does not decode here is counted and left out: its step still shows
// what the analysis kept of it.
func decodeLines(lines [][]byte) (out []decoded, undecoded int) {
	for _, raw := range lines {
		var s schema.Step
		if err := json.Unmarshal(raw, &s); err != nil || s.Step == nil {
			undecoded++
			continue
		}
		h := xxh3.Hash(raw) // ingest's line_hash, folded as the collector keeps it
		out = append(out, decoded{step: s, raw: bytes.TrimSpace(raw), hash: uint32(h) ^ uint32(h>>32)})
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
		case a.hash != b.hash:
			return cmp.Compare(a.hash, b.hash)
		}
		return bytes.Compare(a.raw, b.raw)
	})
	kept := out[:0]
	for i, d := range out {
		if i > 0 && *d.step.Step == *out[i-1].step.Step && d.hash == out[i-1].hash {
			continue
		}
		kept = append(kept, d)
	}
	return kept, undecoded
}
