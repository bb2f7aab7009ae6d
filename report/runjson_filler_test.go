package report

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"
)

// filler sets every exported field it reaches, by reflection, from the
// entropy's choices: a field added to RunResult or to anything it holds is
// filled, and so compared, without this file changing, and a field of a kind
// it cannot fill stops the test rather than stay zero.
type filler struct {
	t    testing.TB
	src  entropy
	full bool // every slice and map non-empty, every number non-zero
}

func newFiller(t testing.TB, src entropy) *filler { return &filler{t: t, src: src} }

type entropy interface {
	intn(n int) int // in [0, n)
	u64() uint64
}

type randomEntropy struct{ r *rand.Rand }

func (e randomEntropy) intn(n int) int { return e.r.IntN(n) }
func (e randomEntropy) u64() uint64    { return e.r.Uint64() }

// bytesEntropy reads the choices from fuzz input, and chooses 0 once it is
// used up (nil slices, empty strings), so a short input still makes a whole
// value.
type bytesEntropy struct{ b []byte }

func (e *bytesEntropy) intn(n int) int {
	if len(e.b) == 0 {
		return 0
	}
	c := e.b[0]
	e.b = e.b[1:]
	return int(c) % n
}

func (e *bytesEntropy) u64() uint64 {
	var x uint64
	for range 8 {
		x = x<<8 | uint64(e.intn(256))
	}
	return x
}

func (f *filler) fill(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if !sf.IsExported() && !sf.Anonymous {
				continue // neither encoder sees it
			}
			f.fill(v.Field(i), path+"."+sf.Name)
		}
	case reflect.String:
		v.SetString(f.string())
	case reflect.Bool:
		v.SetBool(f.full || f.src.intn(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(f.int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.int()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f.float())
	case reflect.Slice:
		switch n := f.length(); n {
		case -1:
			v.SetZero()
		default:
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				f.fill(v.Index(i), path+"[]")
			}
		}
	case reflect.Map:
		switch n := f.length(); n {
		case -1:
			v.SetZero()
		default:
			v.Set(reflect.MakeMap(v.Type()))
			for range n {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				f.fill(k, path+"{key}")
				f.fill(e, path+"{}")
				v.SetMapIndex(k, e)
			}
		}
	case reflect.Pointer:
		if !f.full && f.src.intn(4) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem(), path)
	default:
		f.t.Fatalf("%s is a %s, which the filler cannot fill: teach it, and appendRunJSON, the new field", path, v.Type())
	}
}

// length is -1 for nil, else the length of a slice or map.
func (f *filler) length() int {
	if f.full {
		return 1 + f.src.intn(3)
	}
	return f.src.intn(6) - 1
}

func (f *filler) int() int64 {
	var n int64
	switch f.src.intn(8) {
	case 0:
	case 1:
		n = []int64{-1, 1, math.MinInt64, math.MaxInt64, 255, 256}[f.src.intn(6)]
	case 2, 3:
		n = int64(f.src.u64())
	case 4: // in the range of a Verdict
		n = int64(f.src.intn(4))
	default:
		n = int64(f.src.intn(1000)) - 10
	}
	if n == 0 && f.full {
		n = 1
	}
	return n
}

func (f *filler) float() float64 {
	var x float64
	switch f.src.intn(16) {
	case 0:
	case 1:
		if f.src.intn(32) == 0 && !f.full { // rarely, so most runs encode
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[f.src.intn(3)]
		}
		x = []float64{math.Copysign(0, -1), 5e-324, math.MaxFloat64, 1e-6, math.Nextafter(1e-6, 0), 1e21,
			math.Nextafter(1e21, 0), 1e-7, 1e20, 0.1, -1e-300}[f.src.intn(11)]
	case 2, 3, 4:
		if x = math.Float64frombits(f.src.u64()); math.IsNaN(x) || math.IsInf(x, 0) {
			x = 1.5
		}
	default:
		x = float64(f.src.intn(100_000)) / float64([]int{1, 10, 1000, 1e6, 1e7}[f.src.intn(5)])
	}
	if x == 0 && f.full {
		x = 1
	}
	return x
}

// hostileStrings are the pieces the filler builds strings from: what json
// encoders and escapeInvisibles treat specially, and bytes that are not UTF-8.
var hostileStrings = []string{"a", "Z", "run-0001", " ", "<", ">", "&", `"`, `\`, "/", "'",
	"\x00", "\x01", "\b", "\t", "\n", "\f", "\r", "\x1b", "\x1f", "\x7f",
	"\u0080", "\u0085", "\u009b", "\u009f", "\u00a0", "\u00ad", "é", "中", "😀",
	"\u061c", "\u200b", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202d", "\u202e", "\u202f",
	"\u2065", "\u2066", "\u2069", "\u206a", "\ufeff", "\ufffd", "\uffff", "\U0010ffff",
	"\x80", "\x9b", "\xc0\x80", "\xc2", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xfe", "\xff"}

func (f *filler) string() string {
	if !f.full && f.src.intn(8) == 0 {
		return ""
	}
	var b []byte
	for range 1 + f.src.intn(8) {
		switch f.src.intn(8) {
		case 0: // any byte
			b = append(b, byte(f.src.intn(256)))
		case 1: // any character, surrogates included (encoded, they are not UTF-8)
			r := rune(f.src.intn(0x110000))
			b = append(b, string([]rune{r})...)
			if r >= 0xd800 && r <= 0xdfff {
				b = append(b, 0xed, byte(0xa0|r>>6&0x1f), byte(0x80|r&0x3f))
			}
		default:
			b = append(b, hostileStrings[f.src.intn(len(hostileStrings))]...)
		}
	}
	if !utf8.Valid(b) && f.src.intn(4) == 0 {
		b = bytes.ToValidUTF8(b, []byte("\ufffd"))
	}
	return string(b)
}
