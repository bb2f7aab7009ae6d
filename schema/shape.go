package schema

import "github.com/zeebo/xxh3"

// ArgsShape is the shape of a call's args (raw JSON): their hash with every
// run of ASCII digits masked, in string values and in numbers alike, keys
// kept as they are, white space outside strings dropped. Two calls of one
// tool with the same shape are the same call but for its numbers: a view of
// lines 600-620 and one of lines 568-592, page 3 and page 4, a wait of 2
// and of 4 seconds (RA104 tells them apart by their exact args).
//
// Members are hashed in the order they were logged: an agent writes one
// tool's args the same way every time. The text is not otherwise
// normalised. ArgsShape returns 0 for args that are absent or only white
// space, never for others; JSON that does not parse still has a shape.
// scratch is a buffer for the masked text, returned (maybe grown) for the
// next call.
func ArgsShape(raw, scratch []byte) (uint64, []byte) {
	out := scratch[:0]
	// depth-first stack of containers: true for an object. Args nest little;
	// deeper than the stack the kind is taken as an array's (a value, not a key).
	var stack [32]bool
	depth := 0
	inObject := func() bool { return depth > 0 && depth <= len(stack) && stack[depth-1] }
	expectKey := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '"':
			key := expectKey
			expectKey = false
			out = append(out, '"')
			for i++; i < len(raw); i++ {
				c := raw[i]
				if c == '"' {
					break
				}
				if c == '\\' && i+1 < len(raw) {
					out = append(out, c, raw[i+1])
					i++
					continue
				}
				if !key && isDigit(c) {
					for i+1 < len(raw) && isDigit(raw[i+1]) {
						i++
					}
					c = '#'
				}
				out = append(out, c)
			}
			out = append(out, '"')
			continue
		case isDigit(c):
			for i+1 < len(raw) && isDigit(raw[i+1]) {
				i++
			}
			c = '#'
		case c == '{' || c == '[':
			if depth < len(stack) {
				stack[depth] = c == '{'
			}
			depth++
			expectKey = c == '{'
		case c == '}' || c == ']':
			if depth > 0 {
				depth--
			}
		case c == ',':
			expectKey = inObject()
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return 0, out
	}
	return xxh3.Hash(out) | 1, out
}
