package spill

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	path := filepath.Join(t.TempDir(), "results.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	rw := &resultWriter{w: bufio.NewWriter(f)}
	for i := range in {
		if err := rw.write(&in[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := rw.w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var out []detect.RunResult
	if err := mergeResults([]string{path}, 0, nil, func(r *detect.RunResult) error {
		out = append(out, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
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
}

// A cut or padded result file is an error, not a shorter report.
func TestResultFilesCutShortAreErrors(t *testing.T) {
	var r detect.RunResult
	counter := 0
	fill(reflect.ValueOf(&r).Elem(), &counter)
	var buf bytes.Buffer
	rw := &resultWriter{w: bufio.NewWriter(&buf)}
	if err := rw.write(&r); err != nil {
		t.Fatal(err)
	}
	if err := rw.w.Flush(); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	for _, b := range [][]byte{whole[:len(whole)-3], whole[:1], append(append([]byte{}, whole...), 0x05, 0x00)} {
		path := filepath.Join(t.TempDir(), "results.bin")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := mergeResults([]string{path}, 0, nil, func(*detect.RunResult) error { return nil }); err == nil {
			t.Errorf("%d bytes of a %d-byte result file read without error", len(b), len(whole))
		}
	}
}

// The merge emits in run-id order across files and batches, and an error
// from emit stops it and is returned.
func TestMergeOrdersAcrossFilesAndStopsAtAnEmitError(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for f := range 3 {
		path := filepath.Join(dir, fmt.Sprintf("results-%d.bin", f))
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		rw := &resultWriter{w: bufio.NewWriter(file)}
		for i := f; i < 3000; i += 3 {
			if err := rw.write(&detect.RunResult{RunID: fmt.Sprintf("run-%05d", i), Steps: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := errors.Join(rw.w.Flush(), file.Close()); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	n := 0
	if err := mergeResults(paths, 0, nil, func(r *detect.RunResult) error {
		if want := fmt.Sprintf("run-%05d", n); r.RunID != want || r.Steps != int64(n) {
			return fmt.Errorf("result %d is %s (steps %d), want %s", n, r.RunID, r.Steps, want)
		}
		n++
		return nil
	}); err != nil || n != 3000 {
		t.Fatalf("merged %d results: %v", n, err)
	}
	stop := errors.New("stop")
	n = 0
	err := mergeResults(paths, 0, nil, func(*detect.RunResult) error {
		if n++; n == 700 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 700 {
		t.Fatalf("after %d results: %v, want the emit error at 700", n, err)
	}
}
