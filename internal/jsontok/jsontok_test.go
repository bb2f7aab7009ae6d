package jsontok

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

var seeds = []string{
	`{"q": "vector db", "k": [1, 2.5e-3, -0, true, false, null], "o": {}, "a": []}`,
	" \t{ \"a\" :\n[ {\"b\":\"c\\\"d\\u00e9\"} ] } \r\n",
	`"just a string"`, `42`, `-1.5E+10`, `null`, `[]`, `{}`, `[[[]]]`,
	"\"caf\xc3\"", `"\ud83d\ude00"`,
	``, ` `, `{`, `}`, `[1,]`, `{"a"}`, `{"a":1,}`, `{"a" 1}`, `01`, `1.`, `1e`, `-`, `tru`, `nul`, `truex`,
	`{"a":1}x`, `[1 2]`, "\"a\x01\"", `"\x"`, `"\u12g4"`, `"abc`, `{"a":1]`, `[1}`, `{1:2}`,
}

// tokens scans in to its end and returns the tokens and the error that
// ended the scan (nil for a valid text).
func tokens(t *testing.T, in []byte) ([]Token, error) {
	t.Helper()
	s := NewScanner(in)
	var out []Token
	for {
		tok, err := s.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(in) {
				t.Fatalf("%q: error %v", in, err)
			}
			if _, again := s.Next(); again != err {
				t.Fatalf("%q: error %v, then %v", in, err, again)
			}
			return out, err
		}
		out = append(out, tok)
	}
}

// FuzzTokens: a scan never panics; its tokens are in order, within the
// input, and re-joined with the bytes between them give the input back; it
// fails exactly where json.Valid says the text is not JSON; keys alternate
// with values in objects.
func FuzzTokens(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		toks, err := tokens(t, in)
		var joined []byte
		last := 0
		for _, tok := range toks {
			if tok.Start < last || tok.End <= tok.Start || tok.End > len(in) {
				t.Fatalf("%q: token %+v after offset %d", in, tok, last)
			}
			gap := in[last:tok.Start]
			if strings.Trim(string(gap), " \t\r\n,:") != "" {
				t.Fatalf("%q: %q between tokens", in, gap)
			}
			joined = append(joined, gap...)
			joined = append(joined, in[tok.Start:tok.End]...)
			last = tok.End
		}
		valid := json.Valid(in)
		if (err == nil) != valid {
			t.Fatalf("%q: error %v, json.Valid %v", in, err, valid)
		}
		if !valid {
			return
		}
		if joined = append(joined, in[last:]...); string(joined) != string(in) {
			t.Fatalf("%q: re-joined %q", in, joined)
		}
		for _, tok := range toks {
			if tok.Kind == Key || tok.Kind == String {
				var want string
				if json.Unmarshal(in[tok.Start:tok.End], &want) != nil || Unquote(in[tok.Start:tok.End]) != want {
					t.Fatalf("%q: %q unquoted %q, want %q", in, in[tok.Start:tok.End], Unquote(in[tok.Start:tok.End]), want)
				}
			}
		}
	})
}

func TestTokensOnSeeds(t *testing.T) {
	for _, s := range seeds {
		toks, err := tokens(t, []byte(s))
		if (err == nil) != json.Valid([]byte(s)) {
			t.Errorf("%q: error %v", s, err)
		}
		if s == seeds[0] && len(toks) != 19 {
			t.Errorf("%q: %d tokens %+v", s, len(toks), toks)
		}
	}
}

func TestKindsAndOffsets(t *testing.T) {
	in := []byte(` {"a" : [1, "x", true], "b":{}} `)
	toks, err := tokens(t, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range toks {
		got = append(got, string(in[tok.Start:tok.End]))
	}
	kinds := []Kind{ObjectStart, Key, ArrayStart, Number, String, Literal, ArrayEnd, Key, ObjectStart, ObjectEnd, ObjectEnd}
	if want := `{ "a" [ 1 "x" true ] "b" { } }`; strings.Join(got, " ") != want {
		t.Fatalf("tokens %q, want %s", got, want)
	}
	for i, tok := range toks {
		if tok.Kind != kinds[i] {
			t.Errorf("token %d %q: kind %d, want %d", i, got[i], tok.Kind, kinds[i])
		}
	}
}

func TestSkipValueEndsAtTheMatchingClose(t *testing.T) {
	in := []byte(`{"a":[1,{"b":[]}],"c":2}`)
	s := NewScanner(in)
	s.Next() // {
	s.Next() // "a"
	open, _ := s.Next()
	end, err := s.SkipValue(open)
	if err != nil || string(in[open.Start:end]) != `[1,{"b":[]}]` || s.Depth() != 1 {
		t.Fatalf("skipped %q (%v), depth %d", in[open.Start:end], err, s.Depth())
	}
	if key, _ := s.Next(); string(in[key.Start:key.End]) != `"c"` {
		t.Fatalf("then %q", in[key.Start:key.End])
	}
}

// The depth limit is encoding/json's, so validity agrees on deep texts too.
func TestDepthLimitIsJSONValids(t *testing.T) {
	for _, depth := range []int{MaxDepth, MaxDepth + 1} {
		in := []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
		if _, err := tokens(t, in); (err == nil) != json.Valid(in) {
			t.Errorf("depth %d: error %v, json.Valid %v", depth, err, json.Valid(in))
		}
	}
}
