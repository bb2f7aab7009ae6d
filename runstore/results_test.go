package runstore

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// fill sets every field reachable from v to a value of its own (counter
// numbers them), slices and maps to two elements: a field the codec
// forgets comes back zero.
func fill(v reflect.Value, counter *int) {
	*counter++
	n := *counter
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n) * 1_000_003)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n % 200))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), counter)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), counter)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, counter)
			fill(e, counter)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		panic(fmt.Sprintf("fill: unhandled kind %s: teach the result codec and this test about it", v.Kind()))
	}
}

func roundTrip(t *testing.T, in []detect.RunResult) []detect.RunResult {
	t.Helper()
	var buf bytes.Buffer
	rw := &ResultWriter{W: bufio.NewWriter(&buf)}
	for i := range in {
		if err := rw.Write(&in[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := rw.W.Flush(); err != nil {
		t.Fatal(err)
	}
	out, err := readResults(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readResults decodes every record of a result file's bytes.
func readResults(b []byte) ([]detect.RunResult, error) {
	r := bufio.NewReader(bytes.NewReader(b))
	var out []detect.RunResult
	var rec []byte
	for {
		var ok bool
		var err error
		if rec, ok, err = ReadRecord(r, rec); err != nil || !ok {
			return out, err
		}
		var res detect.RunResult
		if err := DecodeResult(rec, &res); err != nil {
			return out, err
		}
		out = append(out, res)
	}
}

// Every field of a result survives the result files, nil and empty slices
// and maps stay apart (JSON writes null for one, [] or {} for the other),
// and special floats keep their bits.
func TestResultCodecRoundTripsEveryField(t *testing.T) {
	var full detect.RunResult
	counter := 0
	fill(reflect.ValueOf(&full).Elem(), &counter)
	full.RunID = "a"
	empty := detect.RunResult{RunID: "b", Signals: []string{}, Findings: []detect.Finding{{Evidence: detect.Evidence{
		Steps: []detect.StepRange{}, Keys: []string{}, Counts: []detect.Count{}}}}, DataProblems: []string{}}
	empty.Indicators.ToolErrorsByType = map[string]int64{}
	zero := detect.RunResult{RunID: "c", OnsetStep: -1, WastedCostUSD: -0.0}
	zero.Indicators.DurationMS = -1
	in := []detect.RunResult{full, empty, zero}
	out := roundTrip(t, in)
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip changed the results:\n got %+v\nwant %+v", out, in)
	}
	// One result on its own, as runaway-beam moves it between workers.
	for i := range in {
		var got detect.RunResult
		if err := DecodeResult(EncodeResult(nil, &in[i]), &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, in[i]) {
			t.Fatalf("EncodeResult changed run %s:\n got %+v\nwant %+v", in[i].RunID, got, in[i])
		}
	}
}

// A cut or padded result file is an error, not a shorter report.
func TestResultFilesCutShortAreErrors(t *testing.T) {
	var r detect.RunResult
	counter := 0
	fill(reflect.ValueOf(&r).Elem(), &counter)
	var buf bytes.Buffer
	rw := &ResultWriter{W: bufio.NewWriter(&buf)}
	if err := rw.Write(&r); err != nil {
		t.Fatal(err)
	}
	if err := rw.W.Flush(); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	for _, b := range [][]byte{whole[:len(whole)-3], whole[:1], append(append([]byte{}, whole...), 0x05, 0x00)} {
		if _, err := readResults(b); err == nil {
			t.Errorf("%d bytes of a %d-byte result file read without error", len(b), len(whole))
		}
	}
}
