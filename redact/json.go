package redact

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/runawayhq/runaway/internal/jsontok"
	"github.com/runawayhq/runaway/schema"
)

// smallInt bounds the integers kept verbatim: counts, limits, page numbers,
// HTTP statuses. Larger numbers (ids, amounts, phone numbers, timestamps)
// are mapped.
const smallInt = 10000

// JSON redacts any JSON value (tool args, result data and items): object
// keys stay, strings go through Text, numbers stay when they are integers of
// magnitude below 10000 and otherwise become a keyed number of the same
// kind (integer or not, in the same notation), true, false and null stay.
// The value under a key that names a credential (password, api_key,
// access_token, Authorization, ...) becomes a secret placeholder whatever
// its type, numbers included. Structure, key order and the white space
// between tokens are kept byte for byte, so two values that were written
// alike are still written alike and two that were not still are not.
func (r *Redactor) JSON(raw []byte) ([]byte, error) {
	if !json.Valid(raw) {
		return nil, errors.New("redact: not a JSON value")
	}
	out := make([]byte, 0, len(raw)+len(raw)/2)
	s := jsontok.NewScanner(raw)
	// arrays holds, per open container, whether an array's values are
	// credentials (every value of "api_keys": [...] is secret); an
	// object's values take theirs from their keys.
	var buf [16]bool
	arrays := buf[:0]
	credential, last := false, 0
	for {
		t, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.New("redact: not a JSON value")
		}
		out = append(out, raw[last:t.Start]...)
		tok := raw[t.Start:t.End]
		last = t.End
		switch t.Kind {
		case jsontok.Key:
			out = append(out, tok...) // keys are kept as written
			credential = isCredentialKey(jsontok.Unquote(tok))
		case jsontok.String:
			if credential {
				out = schema.AppendJSONString(out, r.secretPlaceholder("credential", jsontok.Unquote(tok)))
			} else {
				out = schema.AppendJSONString(out, r.Text(jsontok.Unquote(tok)))
			}
		case jsontok.Number:
			out = append(out, r.number(string(tok), credential)...)
		case jsontok.ArrayStart:
			arrays = append(arrays, credential)
			out = append(out, tok...)
		case jsontok.ObjectStart:
			arrays = append(arrays, false)
			out = append(out, tok...)
		case jsontok.ArrayEnd, jsontok.ObjectEnd:
			arrays = arrays[:len(arrays)-1]
			credential = len(arrays) > 0 && arrays[len(arrays)-1]
			out = append(out, tok...)
		default:
			out = append(out, tok...)
		}
	}
	return append(out, raw[last:]...), nil
}

// number maps a JSON number. Equal values map to equal values whatever
// their notation (canonical args compare numbers by value), and the result
// keeps the notation: an integer stays an integer, "1.5e3" stays in
// exponent form, "20000.0" keeps its ".0", and a number that is not an
// integer stays one. Integers keep their sign and number of digits (up to
// 15, where float64 stops being exact). credential maps small integers too.
func (r *Redactor) number(text string, credential bool) string {
	f, err := strconv.ParseFloat(text, 64)
	integral := err == nil && f == math.Trunc(f)
	if err == nil && integral && math.Abs(f) < smallInt && !credential {
		return text
	}
	var key [8]byte
	if err != nil { // beyond float64: key on the text
		f = math.Inf(1)
		if text[0] == '-' {
			f = math.Inf(-1)
		}
		integral = true
	}
	if f == 0 {
		f = 0 // -0 and 0 are one value
	}
	binary.LittleEndian.PutUint64(key[:], math.Float64bits(f))
	keyText := string(key[:])
	if math.IsInf(f, 0) {
		keyText = text
	}
	sum := r.sum(domainNumber, keyText)
	h1 := binary.LittleEndian.Uint64(sum[:8])
	h2 := binary.LittleEndian.Uint64(sum[8:16])

	a := math.Abs(f)
	var m float64
	switch {
	case integral:
		m = float64(mapDigits(a, h1))
	case a < 1e9:
		var whole float64
		if a >= 1 {
			whole = float64(mapDigits(math.Trunc(a), h1))
		}
		m = whole + float64(h2%999999+1)/1e6
	default:
		m = float64(mapDigits(math.Trunc(a), h1)) + 0.5
	}
	if f < 0 {
		m = -m
	}
	hasExp, hasDot := false, false
	for i := 0; i < len(text); i++ {
		hasExp = hasExp || text[i] == 'e' || text[i] == 'E'
		hasDot = hasDot || text[i] == '.'
	}
	switch {
	case hasExp:
		return strconv.FormatFloat(m, 'e', -1, 64)
	case integral && hasDot:
		return strconv.FormatFloat(m, 'f', -1, 64) + ".0"
	default:
		return strconv.FormatFloat(m, 'f', -1, 64)
	}
}

// mapDigits maps the integer a >= 0 to an integer with as many digits (at
// most 15; 0 counts as one digit and maps to 1..9).
func mapDigits(a float64, h uint64) int64 {
	d := 1
	for p := 10.0; p <= a && d < 15; p *= 10 {
		d++
	}
	lo := int64(1)
	for range d - 1 {
		lo *= 10
	}
	if d == 1 {
		return 1 + int64(h%9)
	}
	return lo + int64(h%uint64(9*lo))
}
