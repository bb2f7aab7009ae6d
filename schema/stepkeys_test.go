package schema

import (
	"reflect"
	"testing"
)

func memoryOf(t *testing.T, s string) *Memory { return unmarshalled[Memory](t, s) }

func TestMemoryProgressNeedsAGoodWriteAndNoGuess(t *testing.T) {
	for _, tc := range []struct {
		memory string
		want   bool
	}{
		{`{"written":["m1"],"write_tags":["observation"]}`, true},
		{`{"written":["m1"],"entries":[{"id":"m1","type":"decision"}]}`, true},
		{`{"written":["m1"],"write_tags":["observation","inference"]}`, false}, // a guess among them
		{`{"written":["m1"],"write_tags":["observation"],"entries":[{"id":"m1","type":"tool_error"}]}`, false},
		{`{"written":["m1"]}`, false},                                                // untyped
		{`{"written":[],"write_tags":["observation"]}`, false},                       // wrote nothing
		{`{"retrieved":["m1"],"entries":[{"id":"m1","type":"observation"}]}`, false}, // read, not written
	} {
		if got := MemoryProgress(memoryOf(t, tc.memory)); got != tc.want {
			t.Errorf("%s: progress %v, want %v", tc.memory, got, tc.want)
		}
	}
	if MemoryProgress(nil) {
		t.Error("no memory is no progress")
	}
}

func TestSuspectWritesNameWhatAndWhy(t *testing.T) {
	for _, tc := range []struct {
		memory string
		want   []SuspectWrite
	}{
		{`{"written":["a","b"],"write_tags":["inference"]}`,
			[]SuspectWrite{{"a", "tagged inference"}, {"b", "tagged inference"}}},
		// The last guessing tag names why; plan and observation tags do not.
		{`{"written":["a"],"write_tags":["tool_error","plan","inference","observation"]}`,
			[]SuspectWrite{{"a", "tagged inference"}}},
		{`{"written":["a"],"write_tags":["observation"]}`, nil},
		{`{"entries":[{"id":"e1","type":"tool_error"},{"id":"e2","confidence":0.2},{"id":"e3","confidence":0.31},{"type":"inference"},{"id":"e4","type":"observation","confidence":0.3}]}`,
			[]SuspectWrite{{"e1", "type tool_error"}, {"e2", "confidence 0.2"}, {"e4", "confidence 0.3"}}},
		// A typed guess is suspect for its type, whatever its confidence.
		{`{"entries":[{"id":"e1","type":"inference","confidence":0.1}]}`, []SuspectWrite{{"e1", "type inference"}}},
	} {
		got := AppendSuspectWrites(nil, memoryOf(t, tc.memory))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.memory, got, tc.want)
		}
	}
	kept := []SuspectWrite{{"x", "y"}}
	if got := AppendSuspectWrites(kept, memoryOf(t, `{"written":["a"],"write_tags":["inference"]}`)); len(got) != 2 || got[0] != kept[0] {
		t.Errorf("AppendSuspectWrites must append: %v", got)
	}
}

func TestPlanMemoryKeyIsTheSetOfPlanIDs(t *testing.T) {
	ab := PlanMemoryKey(memoryOf(t, `{"written":["a","b"],"write_tags":["plan"]}`))
	if want := IDHash("a") + IDHash("b"); ab != want {
		t.Errorf("key %x, want %x", ab, want)
	}
	if ba := PlanMemoryKey(memoryOf(t, `{"written":["b","a"],"write_tags":["observation","plan"]}`)); ba != ab {
		t.Errorf("the order of the ids must not matter: %x and %x", ab, ba)
	}
	for _, m := range []string{`{"written":["a"],"write_tags":["observation"]}`, `{"written":["a"]}`, `{"write_tags":["plan"]}`} {
		if k := PlanMemoryKey(memoryOf(t, m)); k != 0 {
			t.Errorf("%s: key %x, want 0: no plan written", m, k)
		}
	}
}

func TestDecisionKeyMixesTheNextState(t *testing.T) {
	r := IDHash("retry") | 1
	if DecisionKey(0, "ACT") != 0 {
		t.Error("no reason, no decision")
	}
	if DecisionKey(r, "") != r {
		t.Error("without next_state the key is the reason's hash")
	}
	act, plan := DecisionKey(r, "ACT"), DecisionKey(r, "PLAN")
	if act == plan || act == r || act != DecisionKey(r, "ACT") {
		t.Errorf("the same reason towards other states must differ, and be stable: %x %x %x", act, plan, r)
	}
}

func TestArgsKeyTakesTheSHA256Prefix(t *testing.T) {
	h, _ := ArgsHash([]byte(`{"q":"x"}`))
	if k, canonical := ArgsKey(h); !canonical || k != mustHex(t, h[7:23]) {
		t.Errorf("%s: key %x canonical %v", h, k, canonical)
	}
	for _, h := range []string{"logged-hash", "sha256:0123", "sha256:0123456789abcdeX0000", "SHA256:0123456789abcdef"} {
		if k, canonical := ArgsKey(h); canonical || k != IDHash(h) {
			t.Errorf("%s: key %x canonical %v, want its IDHash and not canonical", h, k, canonical)
		}
	}
}

func mustHex(t *testing.T, s string) uint64 {
	t.Helper()
	v, ok := parseHex64(s)
	if !ok {
		t.Fatalf("%q is not 16 hex digits", s)
	}
	return v
}

func TestCanonicalKeyIsTheHashsPrefix(t *testing.T) {
	for _, canon := range []string{"null", `{"q":"x"}`, `[1,2.5,"é"]`, ""} {
		key, canonical := ArgsKey(HashCanonical([]byte(canon)))
		if got := CanonicalKey([]byte(canon)); !canonical || got != key {
			t.Errorf("%q: CanonicalKey %x, ArgsKey of the hash %x (canonical %v)", canon, got, key, canonical)
		}
	}
}
