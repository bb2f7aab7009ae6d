package pricing

import (
	"math"
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
		{"gpt-4o", Price{Input: 2.5, Output: 10}, true},
		{"openai/GPT-4o-2024-08-06", Price{Input: 2.5, Output: 10}, true},
		{"gpt-4o-mini-2024-07-18", Price{Input: 0.15, Output: 0.6}, true}, // the longer name wins over gpt-4o
		{"claude-3-5-sonnet-20241022", Price{Input: 3, Output: 15}, true},
		{"anthropic/claude-sonnet-4@20250514", Price{Input: 3, Output: 15}, true},
		{"gemini-2.5-pro-preview-05-06", Price{Input: 1.25, Output: 10}, true},
		{"claude-sonnet-4.5", Price{Input: 3, Output: 15}, true}, // GitHub Copilot's and OpenRouter's spelling
		{"anthropic/claude-opus-4.1", Price{Input: 15, Output: 75}, true},
		{"gpt-4.1", Price{Input: 2, Output: 8}, true},
		{"gemini-2-5-pro", Price{}, false}, // only Claude's dots are read as hyphens
		{"gpt-4-0613", Price{Input: 30, Output: 60}, true},
		{"gpt-4-1106-preview", Price{Input: 10, Output: 30}, true}, // a turbo model under gpt-4's name
		{"gpt-4oo", Price{}, false},
		{"my-finetune", Price{}, false},
		{"", Price{}, false},
	} {
		got, ok := tab.Lookup(c.model)
		if ok != c.ok || got.Input != c.want.Input || got.Output != c.want.Output {
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
	if p, ok := tab.Lookup("our-model-v2"); !ok || p.Input != 1 || p.Output != 2 || p.CacheRead != nil {
		t.Errorf("our-model-v2: %+v %v", p, ok)
	}
	for _, bad := range []string{`{"models":{"m":{"input":1,"output":1}}}`, `{"version":"x","models":{}}`, `{"version":"x","models":{"m":{"input":-1,"output":1}}}`, `{"version":"x","models":{"m":{"input":1,"output":1,"cache_read":-0.1}}}`, `not json`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil {
			t.Errorf("%s: loaded", bad)
		}
	}
}

// Cached prompt tokens are priced at the model's cache prices: a Claude
// Code turn that reads 90% of its prompt from the cache costs a fraction
// of the same prompt uncached. A model without cache prices prices them as
// input, and cache counts beyond the prompt are taken as the prompt.
func TestCachedTokensArePricedAtCachePrices(t *testing.T) {
	tab := Default()
	// claude-sonnet-4-6: $3 input, $15 output, $0.30 cache read, $3.75 cache write.
	cost, ok := tab.CostCached("claude-sonnet-4-6", 1_000_000, 0, 900_000, 50_000, 0)
	if want := 0.05*3 + 0.9*0.30 + 0.05*3.75; !ok || math.Abs(cost-want) > 1e-9 {
		t.Errorf("1M prompt tokens, 900k read and 50k written: %v %v, want %v", cost, ok, want)
	}
	if plain, _ := tab.Cost("claude-sonnet-4-6", 1_000_000, 0); plain != 3 || plain <= cost {
		t.Errorf("uncached: %v, want 3, more than cached %v", plain, cost)
	}
	// A newer Opus is not priced as the Opus 4 its name begins with.
	if p, ok := tab.Lookup("claude-opus-4-6"); !ok || p.Input != 5 || p.Output != 25 {
		t.Errorf("claude-opus-4-6: %+v %v, want $5/$25", p, ok)
	}
	if cost, _ := tab.CostCached("gemini-2.5-pro", 1_000_000, 0, 1_000_000, 0, 0); cost != 1.25 {
		t.Errorf("a model without cache prices: %v, want the input price 1.25", cost)
	}
	if cost, _ := tab.CostCached("claude-sonnet-4-6", 100, 0, 500, 500, 500); math.Abs(cost-100*0.30/1e6) > 1e-12 {
		t.Errorf("cache counts beyond the prompt: %v", cost)
	} // Writes kept for an hour cost twice the input price, not the 5-minute
	// cache's 1.25 times: of 1M written, 400k for an hour.
	long, _ := tab.CostCached("claude-sonnet-4-6", 1_000_000, 0, 0, 1_000_000, 400_000)
	if want := 0.6*3.75 + 0.4*6; math.Abs(long-want) > 1e-9 {
		t.Errorf("1M written, 400k of it for an hour: %v, want %v", long, want)
	}
	if cost, _ := tab.CostCached("gemini-2.5-pro", 1_000_000, 0, 0, 1_000_000, 1_000_000); cost != 1.25 {
		t.Errorf("an hour's writes of a model without cache prices: %v, want the input price 1.25", cost)
	}
}
