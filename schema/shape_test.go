package schema

import "testing"

func TestArgsShape(t *testing.T) {
	shape := func(s string) uint64 {
		h, _ := ArgsShape([]byte(s), nil)
		return h
	}
	same := [][2]string{
		{`{"args":"view /testbed/a.py --view_range 600 620"}`, `{"args":"view /testbed/a.py --view_range 5 12"}`},
		{`{"command":"sed -n '100,140p' f.py"}`, `{"command": "sed -n '1,40p' f.py"}`},
		{`{"q":"x","page":1}`, `{"q":"x","page":25}`},
		{`{"wait":1.5}`, `{"wait":20.25}`},
		{`{"a":[1,2,3]}`, `{ "a" : [ 10 , 20 , 30 ] }`},
	}
	for _, p := range same {
		if shape(p[0]) != shape(p[1]) {
			t.Errorf("%s and %s: different shapes", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"args":"view /testbed/a.py"}`, `{"args":"view /testbed/b.py"}`},
		{`{"page1":1}`, `{"page2":1}`}, // keys are kept
		{`{"q":"x","page":1}`, `{"page":1,"q":"x"}`},
		{`{"n":1}`, `{"n":"1"}`},
		{`{"n":-1}`, `{"n":1}`},
		{`{"a":[1,2]}`, `{"a":[1,2,3]}`},
		{`{"s":"a\"1"}`, `{"s":"a\"b"}`},
	}
	for _, p := range differ {
		if shape(p[0]) == shape(p[1]) {
			t.Errorf("%s and %s: the same shape", p[0], p[1])
		}
	}
	for _, s := range []string{"", "  \n"} {
		if h := shape(s); h != 0 {
			t.Errorf("%q: shape %x, want 0", s, h)
		}
	}
	if shape(`{"a":`) == 0 || shape(`null`) == 0 {
		t.Error("args that are not empty have a shape")
	}
	// Keys inside nested objects are kept; digits inside arrays of objects masked.
	if shape(`{"o":{"k1":1},"l":[{"k":2}]}`) != shape(`{"o":{"k1":7},"l":[{"k":9}]}`) {
		t.Error("nested values: different shapes")
	}
	if shape(`{"o":{"k1":1}}`) == shape(`{"o":{"k2":1}}`) {
		t.Error("nested keys: the same shape")
	}
}
