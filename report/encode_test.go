package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// The compact encoder (goccy/go-json, for speed) must write the bytes
// encoding/json writes: ndjson output is compared byte for byte across
// versions and spill modes. Strings that encoders treat differently (bad
// UTF-8, U+2028, controls, HTML characters) and floats at the edges.
func TestCompactEncodingIsEncodingJSONs(t *testing.T) {
	ids := []string{"a\xffb", "x\u2028y\u2029", "<>&", "\x00\x1f\x7f", "é中", "\"\\/", "\u00ad\u200b\ufeff"}
	floats := []float64{0, 1e-7, 1e21, 123456789.123, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, -0.0, 3}
	for _, id := range ids {
		for _, f := range floats {
			r := detect.RunResult{RunID: id, WastedCostUSD: f, Headline: id, Findings: []detect.Finding{{Message: id, WastedCostUSD: f}}}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(normalizeRun(r))
			a := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			b, err := encodeJSON(normalizeRun(r), compact, "")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(escapeInvisibles(a), b) {
				t.Errorf("%q %v:\n%s\n%s", id, f, a, b)
			}
			var line bytes.Buffer
			if err := WriteRunNDJSON(&line, &r); err != nil {
				t.Fatal(err)
			}
			if want := string(escapeInvisibles(a)) + "\n"; line.String() != want {
				t.Errorf("ndjson line of %q %v:\n%s\n%s", id, f, line.String(), want)
			}
		}
	}
}
