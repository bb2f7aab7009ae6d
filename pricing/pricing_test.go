package pricing

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultTable(t *testing.T) {
	tab := Default()
	if tab.Version == "" || len(tab.Models) < 10 {
		t.Fatalf("built-in table: version %q, %d models", tab.Version, len(tab.Models))
	}
}

// Models are found as agents log them: with a provider prefix, in other
// case, with a date or version after the name; an unknown model has no
// price, so its cost stays not logged rather than guessed.
func TestLookupAsModelsAreLogged(t *testing.T) {
	tab := Default()
	for _, c := range []struct {
		model string
		want  Price
		ok    bool
	}{
		{"gpt-4o", Price{2.5, 10}, true},
		{"openai/GPT-4o-2024-08-06", Price{2.5, 10}, true},
		{"gpt-4o-mini-2024-07-18", Price{0.15, 0.6}, true}, // the longer name wins over gpt-4o
		{"claude-3-5-sonnet-20241022", Price{3, 15}, true},
		{"anthropic/claude-sonnet-4@20250514", Price{3, 15}, true},
		{"gemini-2.5-pro-preview-05-06", Price{1.25, 10}, true},
		{"gpt-4oo", Price{}, false},
		{"my-finetune", Price{}, false},
		{"", Price{}, false},
	} {
		got, ok := tab.Lookup(c.model)
		if ok != c.ok || got != c.want {
			t.Errorf("%q: %+v %v, want %+v %v", c.model, got, ok, c.want, c.ok)
		}
	}
	if cost, ok := tab.Cost("gpt-4o", 1_000_000, 100_000); !ok || cost != 3.5 {
		t.Errorf("1M prompt + 100k completion tokens of gpt-4o: %v %v, want 3.5", cost, ok)
	}
}

func TestLoadReplacesTheTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(path, []byte(`{"version":"ours-1","models":{"Our-Model":{"input":1,"output":2}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tab.Lookup("gpt-4o"); ok {
		t.Error("a loaded table replaces the built-in one")
	}
	if p, ok := tab.Lookup("our-model-v2"); !ok || p != (Price{1, 2}) {
		t.Errorf("our-model-v2: %+v %v", p, ok)
	}
	for _, bad := range []string{`{"models":{"m":{"input":1,"output":1}}}`, `{"version":"x","models":{}}`, `{"version":"x","models":{"m":{"input":-1,"output":1}}}`, `not json`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil {
			t.Errorf("%s: loaded", bad)
		}
	}
}
