package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultPolicyIsValid(t *testing.T) {
	p := DefaultPolicy()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyFileOverridesDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(path, []byte("repeat_suspicious: 4\nrepeat_runaway: 9\nmax_steps: 30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := DefaultPolicy()
	if err := LoadPolicyFile(path, &p); err != nil {
		t.Fatal(err)
	}
	if p.RepeatSuspicious != 4 || p.RepeatRunaway != 9 || p.MaxSteps != 30 {
		t.Fatalf("file not applied: %+v", p)
	}
	if p.Window != DefaultPolicy().Window {
		t.Fatalf("keys absent from the file must keep their default, window = %d", p.Window)
	}
}

func TestPolicyFileErrorsAreClear(t *testing.T) {
	cases := map[string]string{
		"repeat_suspicous: 4\n":                     "repeat_suspicous", // typo: unknown key
		"repeat_suspicious: 9\nrepeat_runaway: 5\n": "repeat_runaway must be >= repeat_suspicious",
		"window: [1\n":                              "policy.yaml",
		"max_steps: -1\n":                           "max_steps must be >= 0",
		"backoff_growth: 1\n":                       "backoff_growth must be > 1",
		"memory_share: 1.5\n":                       "memory_share must be within 0..1",
	}
	for body, want := range cases {
		path := filepath.Join(t.TempDir(), "policy.yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		p := DefaultPolicy()
		err := LoadPolicyFile(path, &p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got error %v, want one mentioning %q", body, err, want)
		}
	}
	p := DefaultPolicy()
	if err := LoadPolicyFile(filepath.Join(t.TempDir(), "missing.yaml"), &p); err == nil {
		t.Error("a missing policy file must be an error")
	}
}
