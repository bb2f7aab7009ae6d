package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Label is the ground truth for one run.
type Label struct {
	RunID     string `json:"run_id"`
	Label     string `json:"label"`      // "runaway" or "healthy"
	RootCause string `json:"root_cause"` // one of AllCauses; "" for healthy runs
	// OnsetStep is the step where the injected loop begins (docs/synth.md
	// defines it per cause); -1 for healthy runs.
	OnsetStep int64 `json:"onset_step"`
	// Confounder lists, comma-separated, the healthy behaviours a naive
	// detector would mistake for a loop (e.g. "pagination,polling").
	Confounder string `json:"confounder,omitempty"`
}

// appendLabel writes l as one JSON line, fields in struct order.
func appendLabel(b []byte, l *Label) []byte {
	b = append(b, `{"run_id":`...)
	b = appendString(b, l.RunID)
	b = append(b, `,"label":`...)
	b = appendString(b, l.Label)
	b = append(b, `,"root_cause":`...)
	b = appendString(b, l.RootCause)
	b = append(b, `,"onset_step":`...)
	b = strconv.AppendInt(b, l.OnsetStep, 10)
	if l.Confounder != "" {
		b = append(b, `,"confounder":`...)
		b = appendString(b, l.Confounder)
	}
	return append(b, "}\n"...)
}

// ReadLabels reads a labels file (one JSON object per line; blank lines are
// skipped) into a map by run id.
func ReadLabels(r io.Reader) (map[string]Label, error) {
	out := map[string]Label{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l Label
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("labels line %d: %w", n, err)
		}
		if l.RunID == "" {
			return nil, fmt.Errorf("labels line %d: run_id missing", n)
		}
		if _, dup := out[l.RunID]; dup {
			return nil, fmt.Errorf("labels line %d: run %s labelled twice", n, l.RunID)
		}
		out[l.RunID] = l
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	return out, nil
}
