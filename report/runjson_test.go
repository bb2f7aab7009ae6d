package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"
	"testing"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"

	"github.com/runawayhq/runaway/detect"
)

// normalizeRun returns a copy of r whose always-present collections
// (signals, findings, each finding's evidence steps, errors by type) are
// empty rather than nil, so they encode as [] and {}, never null. r itself is
// not modified: the caller's results may be shared.
func normalizeRun(r detect.RunResult) detect.RunResult {
	if r.Signals == nil {
		r.Signals = []string{}
	}
	if r.Indicators.ToolErrorsByType == nil {
		r.Indicators.ToolErrorsByType = map[string]int64{}
	}
	if r.Findings == nil {
		r.Findings = []detect.Finding{}
	}
	for i := range r.Findings {
		if r.Findings[i].Evidence.Steps == nil {
			findings := make([]detect.Finding, len(r.Findings))
			copy(findings, r.Findings)
			for j := range findings {
				if findings[j].Evidence.Steps == nil {
					findings[j].Evidence.Steps = []detect.StepRange{}
				}
			}
			r.Findings = findings
			break
		}
	}
	return r
}

// referenceRunJSON is the ndjson line before appendRunJSON: goccy/go-json
// with HTML escaping off, then escapeInvisibles.
func referenceRunJSON(r *detect.RunResult) ([]byte, error) {
	b, err := gojson.MarshalWithOption(normalizeRun(*r), gojson.DisableHTMLEscape())
	if err != nil {
		return nil, err
	}
	return escapeInvisibles(b), nil
}

// stdRunJSON is the same through encoding/json, which goccy/go-json was
// chosen to match; checkRunJSON holds the two references to each other too.
func stdRunJSON(r *detect.RunResult) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(normalizeRun(*r)); err != nil {
		return nil, err
	}
	return escapeInvisibles(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// stdRunJSONIndented is how the json format wrote a run before
// appendRunJSONIndented.
func stdRunJSONIndented(r *detect.RunResult) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(jsonRunPrefix, jsonIndent)
	if err := enc.Encode(normalizeRun(*r)); err != nil {
		return nil, err
	}
	return escapeInvisibles(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// checkRunJSON reports how appendRunJSON or WriteRunNDJSON differ from what
// both references write, or fail where they do not.
func checkRunJSON(r *detect.RunResult) error {
	want, wantErr := referenceRunJSON(r)
	std, stdErr := stdRunJSON(r)
	got, gotErr := appendRunJSON([]byte("prefix kept"), r)
	if wantErr != nil || stdErr != nil || gotErr != nil {
		_, indentedErr := appendRunJSONIndented(nil, r)
		if indentedErr == nil || wantErr == nil || stdErr == nil || gotErr == nil || gotErr.Error() != wantErr.Error() || gotErr.Error() != stdErr.Error() {
			return fmt.Errorf("errors: appendRunJSON %v, goccy %v, encoding/json %v\n%#v", gotErr, wantErr, stdErr, r)
		}
		if err := WriteRunNDJSON(io.Discard, r); err == nil {
			return fmt.Errorf("WriteRunNDJSON wrote a run that fails to encode: %v", gotErr)
		}
		return nil
	}
	if !bytes.Equal(want, std) {
		return fmt.Errorf("the references differ:\ngoccy         %s\nencoding/json %s", want, std)
	}
	got, ok := bytes.CutPrefix(got, []byte("prefix kept"))
	if !ok || !bytes.Equal(got, want) {
		return fmt.Errorf("appendRunJSON:\n got %s\nwant %s\n%#v", got, want, r)
	}
	var line bytes.Buffer
	if err := WriteRunNDJSON(&line, r); err != nil {
		return err
	}
	if !bytes.Equal(line.Bytes(), append(want, '\n')) {
		return fmt.Errorf("WriteRunNDJSON:\n got %s\nwant %s", line.Bytes(), want)
	}
	want, err := stdRunJSONIndented(r)
	if err != nil {
		return err
	}
	got, err = appendRunJSONIndented([]byte("prefix kept"), r)
	if got, ok := bytes.CutPrefix(got, []byte("prefix kept")); err != nil || !ok || !bytes.Equal(got, want) {
		return fmt.Errorf("appendRunJSONIndented: %v\n got %s\nwant %s", err, got, want)
	}
	return nil
}

// Every exported field of RunResult and of what it holds, at any depth, is
// filled by reflection with values chosen to break an encoder; a field added
// without a line in appendRunJSON changes the references' bytes and not the
// appender's, and a field of a kind the filler does not know stops the test.
func TestRunJSONMatchesReference(t *testing.T) {
	for seed := range uint64(5000) {
		var r detect.RunResult
		newFiller(t, randomEntropy{rand.New(rand.NewPCG(seed, 7))}).fill(reflect.ValueOf(&r).Elem(), "RunResult")
		if err := checkRunJSON(&r); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// A value with every field set, every slice and map non-empty: the filler's
// choices aside, a field missing from appendRunJSON shows here at once.
func TestRunJSONEveryField(t *testing.T) {
	var r detect.RunResult
	f := newFiller(t, randomEntropy{rand.New(rand.NewPCG(1, 2))})
	f.full = true
	f.fill(reflect.ValueOf(&r).Elem(), "RunResult")
	if err := checkRunJSON(&r); err != nil {
		t.Fatal(err)
	}
}

func TestRunJSONEdges(t *testing.T) {
	strs := append([]string{"a\xffb", "x\u2028y\u2029", "<>&", "\x00\x1f\x7f", "é中", "\"\\/", "\u00ad\u200b\ufeff"}, hostileStrings...)
	for _, f := range []float64{0, 3, math.Copysign(0, -1), 1e-6, math.Nextafter(1e-6, 0), 1e21, math.Nextafter(1e21, 0),
		-1e21, 1e-7, 1e-10, 1e-100, 1e100, 5e-324, math.MaxFloat64, -math.MaxFloat64, 0.1 + 0.2, 123456789.123,
		math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, s := range strs {
			r := detect.RunResult{RunID: s, Headline: s + s, WastedCostUSD: f, Verdict: detect.Verdict(len(s)),
				Findings:   []detect.Finding{{Message: s, WastedCostUSD: -f, Evidence: detect.Evidence{Keys: []string{s}}}},
				Indicators: detect.Indicators{ToolErrorsByType: map[string]int64{s: 1, s + "a": 2, "a" + s: 3}}}
			if err := checkRunJSON(&r); err != nil {
				t.Fatalf("%q %v: %v", s, f, err)
			}
		}
	}
}

// plainWord tests eight bytes at once; it must agree with jsonPlain on
// every byte at every position, whatever the other bytes are.
func TestPlainWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var b [8]byte
	for i := range 1_000_000 {
		for j := range b {
			b[j] = byte(rng.IntN(256))
			if i&1 == 0 && rng.IntN(4) != 0 {
				b[j] = byte(' ' + rng.IntN(0x7f-' ')) // mostly printable, so one odd byte decides
			}
		}
		if i < 256*8 {
			b = [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
			b[i%8] = byte(i / 8)
		}
		want := true
		for _, c := range b {
			want = want && c < utf8.RuneSelf && jsonPlain[c]
		}
		if got := plainWord(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("plainWord(%q) = %v, want %v", b, got, want)
		}
	}
}

// The fuzzer drives the filler: its bytes choose every length, number and
// string, so it can reach any RunResult.
func FuzzRunJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x03run-1\x02\x7f\xe2\x80\xae\xff\x00\x01\x02\x03"))
	for seed := range uint64(8) {
		b := make([]byte, 512)
		r := rand.New(rand.NewPCG(seed, seed))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r detect.RunResult
		newFiller(t, &bytesEntropy{b: data}).fill(reflect.ValueOf(&r).Elem(), "RunResult")
		if err := checkRunJSON(&r); err != nil {
			t.Fatal(err)
		}
	})
}

// The runs of a real report encode back to their lines: point
// RUNAWAY_BENCH_NDJSON at an ndjson report (the bench corpus's, say) for
// thousands of them; the golden report's are the default.
func realRuns(tb testing.TB, max int) (runs []detect.RunResult, lines [][]byte) {
	path := os.Getenv("RUNAWAY_BENCH_NDJSON")
	if path == "" {
		path = "testdata/scan.ndjson"
	}
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for len(runs) < max && sc.Scan() {
		var r detect.RunResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		runs = append(runs, r)
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return runs, lines
}

func TestRunJSONRealRuns(t *testing.T) {
	runs, lines := realRuns(t, 100_000)
	for i := range runs {
		got, err := appendRunJSON(nil, &runs[i])
		if err != nil || !bytes.Equal(got, lines[i]) {
			t.Fatalf("line %d: %v\n got %s\nwant %s", i+1, err, got, lines[i])
		}
	}
}

// referenceWriteRunNDJSON is WriteRunNDJSON before appendRunJSON, for the
// benchmark.
func referenceWriteRunNDJSON(w io.Writer, r *detect.RunResult) error {
	buf := referenceBuffers.Get().(*bytes.Buffer)
	defer referenceBuffers.Put(buf)
	buf.Reset()
	if err := gojson.NewEncoder(buf).EncodeWithOption(normalizeRun(*r), gojson.DisableHTMLEscape()); err != nil {
		return fmt.Errorf("run %q: %w", r.RunID, err)
	}
	_, err := w.Write(escapeInvisibles(buf.Bytes()))
	return err
}

var referenceBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// BenchmarkRunJSON encodes real runs (see realRuns) as the ndjson format and
// as the json format's runs, before and after appendRunJSON.
func BenchmarkRunJSON(b *testing.B) {
	runs, _ := realRuns(b, 4000)
	var size int64
	for i := range runs {
		line, _ := appendRunJSON(nil, &runs[i])
		size += int64(len(line)) + 1
	}
	w := bufio.NewWriterSize(io.Discard, 64<<10)
	var run []byte
	for _, c := range []struct {
		name  string
		write func(io.Writer, *detect.RunResult) error
	}{
		{"ndjson/reference", referenceWriteRunNDJSON},
		{"ndjson/appender", WriteRunNDJSON},
		{"json/reference", func(w io.Writer, r *detect.RunResult) error {
			run, err := stdRunJSONIndented(r)
			w.Write(run)
			return err
		}},
		{"json/appender", func(w io.Writer, r *detect.RunResult) (err error) {
			run, err = appendRunJSONIndented(run[:0], r)
			w.Write(run)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size / int64(len(runs))) // of the ndjson line, to compare the two formats
			for i := 0; b.Loop(); i++ {
				if err := c.write(w, &runs[i%len(runs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
