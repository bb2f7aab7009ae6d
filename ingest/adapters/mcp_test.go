package adapters

import (
	"strings"
	"testing"
)

// An MCP result is read for the text its tool gave, through a proxy's
// wrapper, and a result that is no MCP result is read as it is.
func TestMCPUnwrap(t *testing.T) {
	cases := []struct {
		name, in, want string
		isError, ok    bool
	}{
		{"json", `{"content": [{"type": "text", "text": "a\nb"}, {"type": "image", "data": "x"}, {"type": "text", "text": "c"}], "isError": false}`, "a\nb\nc", false, true},
		{"python repr", `meta=None content=[TextContent(type='text', text='it\'s \\ "done"\n\x41\u00e9', annotations=None)] isError=True`, "it's \\ \"done\"\nAé", true, true},
		{"proxy of a failure", `meta=None content=[TextContent(type='text', text='{"content": [{"type": "text", "text": "Error: no canvas"}], "isError": true}', annotations=None)] isError=False`, "Error: no canvas", true, true},
		{"json without isError", `{"content": [{"type": "text", "text": "a"}]}`, "", false, false},
		{"text naming isError", `the flag isError=False is set by the server`, "", false, false},
		{"unterminated literal", `meta=None content=[TextContent(type='text', text='abc isError=False`, "", false, false},
	}
	for _, c := range cases {
		got, isError, ok := mcpUnwrap(c.in)
		if ok != c.ok || (ok && (got != c.want || isError != c.isError)) {
			t.Errorf("%s: got %q, isError %v, ok %v; want %q, %v, %v", c.name, got, isError, ok, c.want, c.isError, c.ok)
		}
	}
}

// Whatever a tool printed, unwrapping it never panics, takes a wrapper off
// only text that names isError, and returns no more text than it was given.
func FuzzMCPUnwrap(f *testing.F) {
	for _, s := range []string{
		`{"content": [{"type": "text", "text": "a"}], "isError": true}`,
		`meta=None content=[TextContent(type='text', text='x\n\'y\'', annotations=None)] isError=False`,
		`meta=None content=[TextContent(type='text', text='\u00e9\x41\U0001F600', annotations=None)] isError=True`,
		`content=[TextContent(type='text', text='\`, `isError=True`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		inner, _, ok := mcpUnwrap(s)
		if ok && !strings.Contains(s, "isError") {
			t.Fatalf("unwrapped %q, which names no isError", s)
		}
		if ok && len(inner) > len(s) {
			t.Fatalf("unwrapped %q into the longer %q", s, inner)
		}
	})
}

// A step keeps the text the tool gave, not its wrappers: two different
// validation errors of one proxy are two answers, not one wrapper's
// boilerplate twice; a wrapper around no text is kept as logged.
func TestMCPResultKeepsTheToolsText(t *testing.T) {
	wrapped := `meta=None content=[TextContent(type='text', text='{\n  "_meta": null,\n  "content": [{"type": "text", "text": "Input validation error: \'file_path\' is a required property"}],\n  "isError": true\n}', annotations=None)] isError=False`
	c, run := convertOne(t, OpenAIMessages, chatDoc(t, "execute-tool", map[string]any{"tool_name": "get_text_file_contents"}, wrapped))
	s := c.step(t, run, 1)
	if got := data(t, s); got != "Input validation error: 'file_path' is a required property" || result(s) != "error ERROR" {
		t.Errorf("%s %q, want the inner tool's error text", result(s), got)
	}
	image := `{"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}], "isError": false}`
	c, run = convertOne(t, OpenAIMessages, chatDoc(t, "screenshot", map[string]any{}, image))
	if got := data(t, c.step(t, run, 1)); got != image {
		t.Errorf("image-only result: %q, want it as logged", got)
	}
}
