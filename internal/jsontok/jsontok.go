// Package jsontok walks a JSON text token by token, giving each token's
// offsets into the input, so that a rewriter can copy everything it does
// not change byte for byte: the white space, colons and commas between
// tokens are never tokens, only the bytes between two of them. It also
// decodes a string token. It imports nothing from the module.
package jsontok

import (
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// Kind is what a token is.
type Kind uint8

const (
	ObjectStart Kind = iota + 1 // {
	ObjectEnd                   // }
	ArrayStart                  // [
	ArrayEnd                    // ]
	Key                         // an object key, quotes included (the ':' after it is not part of it)
	String                      // a string value, quotes included
	Number                      // a number as written
	Literal                     // true, false or null
)

// Token is one token: in[Start:End] are its bytes as written.
type Token struct {
	Kind       Kind
	Start, End int
}

// MaxDepth is the deepest nesting accepted, encoding/json's, so that a text
// is valid here exactly when json.Valid says so.
const MaxDepth = 10000

// SyntaxError says where and why a text stopped being JSON.
type SyntaxError struct {
	Offset int // of the byte that is wrong, or the input's length
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "jsontok: " + e.Msg + " at byte " + strconv.Itoa(e.Offset)
}

// state is what the scanner expects next.
type state uint8

const (
	wantValue        state = iota // a value (at the top, after ':' or after ',' in an array)
	wantValueOrClose              // a value or ']' (just after '[')
	wantKey                       // a key (after ',' in an object)
	wantKeyOrClose                // a key or '}' (just after '{')
	wantColon                     // ':' then a value
	wantSeparator                 // ',' or the close of the container, or the end of the input at the top
)

// Scanner yields the tokens of one JSON value. Its zero value is not
// usable; NewScanner makes one.
type Scanner struct {
	in    []byte
	pos   int
	state state
	stack []byte // the open containers, '{' or '[', innermost last
	err   error  // once set, every Next returns it
}

// NewScanner returns a scanner of the JSON value in, which may have white
// space around it.
func NewScanner(in []byte) Scanner { return Scanner{in: in} }

// Depth is the number of containers open after the last token.
func (s *Scanner) Depth() int { return len(s.stack) }

// Next returns the next token. After the value and the white space after
// it, it returns io.EOF; on anything that is not JSON, a *SyntaxError; the
// same error again after either.
func (s *Scanner) Next() (Token, error) {
	if s.err != nil {
		return Token{}, s.err
	}
	in := s.in
	for {
		i := s.pos
		for i < len(in) && isSpace(in[i]) {
			i++
		}
		if s.state == wantSeparator && len(s.stack) == 0 {
			if i == len(in) {
				s.pos, s.err = i, io.EOF
				return Token{}, s.err
			}
			return s.fail(i, "data after the value")
		}
		if i == len(in) {
			return s.fail(i, "unexpected end")
		}
		c := in[i]
		switch s.state {
		case wantSeparator:
			top := s.stack[len(s.stack)-1]
			switch {
			case c == ',':
				s.pos, s.state = i+1, wantValue
				if top == '{' {
					s.state = wantKey
				}
				continue
			case c == '}' && top == '{':
				return s.close(i, ObjectEnd)
			case c == ']' && top == '[':
				return s.close(i, ArrayEnd)
			}
			return s.fail(i, "want ',' or the end of the "+containerName(top))
		case wantKey, wantKeyOrClose:
			if c == '}' && s.state == wantKeyOrClose {
				return s.close(i, ObjectEnd)
			}
			if c != '"' {
				return s.fail(i, "want an object key")
			}
			end, err := s.str(i)
			if err != nil {
				return Token{}, err
			}
			s.pos, s.state = end, wantColon
			return Token{Kind: Key, Start: i, End: end}, nil
		case wantColon:
			if c != ':' {
				return s.fail(i, "want ':' after an object key")
			}
			s.pos, s.state = i+1, wantValue
			continue
		}
		// wantValue, wantValueOrClose
		if c == ']' && s.state == wantValueOrClose {
			return s.close(i, ArrayEnd)
		}
		return s.value(i, c)
	}
}

// value reads the value starting with c at i.
func (s *Scanner) value(i int, c byte) (Token, error) {
	var end int
	kind := Literal
	switch {
	case c == '{' || c == '[':
		if len(s.stack) >= MaxDepth {
			return s.fail(i, "nested too deep")
		}
		s.stack = append(s.stack, c)
		s.pos, s.state = i+1, wantKeyOrClose
		if c == '[' {
			s.state = wantValueOrClose
			return Token{Kind: ArrayStart, Start: i, End: i + 1}, nil
		}
		return Token{Kind: ObjectStart, Start: i, End: i + 1}, nil
	case c == '"':
		var err error
		if end, err = s.str(i); err != nil {
			return Token{}, err
		}
		kind = String
	case c == '-' || c >= '0' && c <= '9':
		if end = number(s.in, i); end < 0 {
			return s.fail(-end, "invalid number")
		}
		kind = Number
	case c == 't':
		end = s.literal(i, "true")
	case c == 'f':
		end = s.literal(i, "false")
	case c == 'n':
		end = s.literal(i, "null")
	default:
		return s.fail(i, "unexpected character "+strconv.QuoteRune(rune(c)))
	}
	if end < 0 {
		return s.fail(i, "invalid literal")
	}
	s.pos, s.state = end, wantSeparator
	return Token{Kind: kind, Start: i, End: end}, nil
}

func (s *Scanner) close(i int, kind Kind) (Token, error) {
	s.stack = s.stack[:len(s.stack)-1]
	s.pos, s.state = i+1, wantSeparator
	return Token{Kind: kind, Start: i, End: i + 1}, nil
}

func (s *Scanner) fail(i int, msg string) (Token, error) {
	s.pos, s.err = i, &SyntaxError{Offset: i, Msg: msg}
	return Token{}, s.err
}

func (s *Scanner) literal(i int, lit string) int {
	if len(s.in)-i < len(lit) || string(s.in[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// str returns the offset just past the string starting at i.
func (s *Scanner) str(i int) (int, error) {
	in := s.in
	for j := i + 1; j < len(in); j++ {
		switch c := in[j]; {
		case c == '"':
			return j + 1, nil
		case c < 0x20:
			_, err := s.fail(j, "control character in string")
			return 0, err
		case c == '\\':
			j++
			if j == len(in) {
				break
			}
			switch in[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(in) || !isHex(in[j+1]) || !isHex(in[j+2]) || !isHex(in[j+3]) || !isHex(in[j+4]) {
					_, err := s.fail(j, "invalid \\u escape")
					return 0, err
				}
				j += 4
			default:
				_, err := s.fail(j, "invalid escape")
				return 0, err
			}
		}
	}
	_, err := s.fail(len(in), "unterminated string")
	return 0, err
}

// number returns the offset just past the number starting at i, or minus
// the offset of the byte that makes it invalid.
func number(in []byte, i int) int {
	if in[i] == '-' {
		i++
	}
	switch {
	case i == len(in) || in[i] < '0' || in[i] > '9':
		return -i
	case in[i] == '0':
		i++
	default:
		i = digits(in, i)
	}
	if i < len(in) && in[i] == '.' {
		i++
		if i == len(in) || in[i] < '0' || in[i] > '9' {
			return -i
		}
		i = digits(in, i)
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if i == len(in) || in[i] < '0' || in[i] > '9' {
			return -i
		}
		i = digits(in, i)
	}
	return i
}

func digits(in []byte, i int) int {
	for i < len(in) && in[i] >= '0' && in[i] <= '9' {
		i++
	}
	return i
}

// SkipValue reads the rest of the value that t, the token Next just
// returned, begins, and returns the offset just past it: past the matching
// close for an object or array, t.End for anything else.
func (s *Scanner) SkipValue(t Token) (int, error) {
	if t.Kind != ObjectStart && t.Kind != ArrayStart {
		return t.End, nil
	}
	depth := len(s.stack) - 1
	for {
		u, err := s.Next()
		if err != nil {
			return 0, err
		}
		if (u.Kind == ObjectEnd || u.Kind == ArrayEnd) && len(s.stack) == depth {
			return u.End, nil
		}
	}
}

// Unquote decodes a string or key token as written, quotes included, from
// a text known to be valid. Invalid UTF-8 becomes U+FFFD, as with
// encoding/json.
func Unquote(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	plain := utf8.Valid(inner)
	for _, c := range inner {
		if c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func containerName(open byte) string {
	if open == '{' {
		return "object"
	}
	return "array"
}
