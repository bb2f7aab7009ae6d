package ingest

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/runawayhq/runaway/schema"
)

// stepNormalizer makes a converted step what writing it as a JSON line
// and reading the line back would make it: text valid UTF-8 (each invalid
// byte a U+FFFD, as encoding/json writes it) and JSON values compact.
// Adapters hand over steps as structs; this is what lets them skip the
// round trip and still give the rows their lines would.
type stepNormalizer struct {
	buf bytes.Buffer
}

func (n *stepNormalizer) normalize(s *schema.Step) {
	validText(&s.RunID)
	validText(&s.State)
	validText(&s.Goal)
	validText(&s.Intent)
	validTexts(s.Artifacts)
	if tc := s.ToolCall; tc != nil {
		validText(&tc.Name)
		validText(&tc.ArgsHash)
		tc.Args = n.compact(tc.Args)
	}
	if r := s.ToolResult; r != nil {
		validText(&r.ErrorType)
		validText(&r.Reason)
		r.Items = n.compact(r.Items)
		r.Data = n.compact(r.Data)
	}
	if m := s.Memory; m != nil {
		validTexts(m.Retrieved)
		validTexts(m.Written)
		validTexts(m.WriteTags)
		for i := range m.Entries {
			validText(&m.Entries[i].ID)
			validText(&m.Entries[i].Type)
			validText(&m.Entries[i].Source)
		}
	}
	if dc := s.Decision; dc != nil {
		validText(&dc.NextState)
		validText(&dc.Reason)
	}
	if u := s.Usage; u != nil {
		validText(&u.Model)
	}
}

// compact returns raw without white space outside its strings; raw itself
// when it has none (the common case: adapters write compact JSON).
func (n *stepNormalizer) compact(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] == '"' || bytes.IndexAny(raw, " \t\r\n") < 0 {
		return raw // a JSON string (tool output, mostly) has nothing outside its quotes
	}
	n.buf.Reset()
	if json.Compact(&n.buf, raw) != nil {
		return raw // not JSON: the decoder rejects it as the line would be
	}
	if n.buf.Len() == len(raw) {
		return raw // the white space was all inside strings
	}
	return bytes.Clone(n.buf.Bytes())
}

func validTexts(ss []string) {
	for i := range ss {
		validText(&ss[i])
	}
}

// validText replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when it writes a string.
func validText(s *string) {
	if utf8.ValidString(*s) {
		return
	}
	var b []byte
	for i := 0; i < len(*s); {
		r, size := utf8.DecodeRuneInString((*s)[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, (*s)[i:i+size]...)
		}
		i += size
	}
	*s = string(b)
}
