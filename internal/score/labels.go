package score

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// The two labels.
const (
	LabelRunaway = "runaway"
	LabelHealthy = "healthy"
	// LabelBorderline is a run a person could not call either way (some
	// repetition, but short or unclear): left out of precision and recall,
	// and reported.
	LabelBorderline = "borderline"
)

// ReadLabels reads labels, one JSON object per line as `runaway gen
// --labels` writes them (or as a person labelled real runs: with a source,
// a split, borderline runs), into a map by run id. Blank lines are
// skipped; a line that is not a label (bad JSON, no run_id, a label other
// than runaway, borderline or healthy, a run labelled twice) is an error
// naming the line: scoring against half-read truth would mislead.
func ReadLabels(r io.Reader) (map[string]Label, error) {
	out := map[string]Label{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l Label
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch {
		case l.RunID == "":
			return nil, fmt.Errorf("line %d: no run_id", n)
		case l.Label != LabelRunaway && l.Label != LabelHealthy && l.Label != LabelBorderline:
			return nil, fmt.Errorf("line %d: label %q: want %s, %s or %s", n, l.Label, LabelRunaway, LabelBorderline, LabelHealthy)
		}
		if _, dup := out[l.RunID]; dup {
			return nil, fmt.Errorf("line %d: run %q labelled twice", n, l.RunID)
		}
		out[l.RunID] = l
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// ReadLabelsFile reads a labels file; errors name the file.
func ReadLabelsFile(path string) (map[string]Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	labels, err := ReadLabels(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return labels, nil
}
