// Package pricing holds the model price table runaway estimates costs with:
// when a step logs tokens and the model but no cost, its cost is the
// tokens at the model's list price, and every output marks it estimated.
// The table ships with the binary (prices.json, versioned by the date its
// prices were read) and a file of the same shape replaces it.
//
// It imports nothing of runaway's.
package pricing

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Price is a model's list price in USD per million tokens. CacheRead and
// CacheWrite are the prices of prompt tokens read from and written to the
// provider's prompt cache; without them, cached tokens cost Input.
// CacheWrite1h is the price of a write kept for an hour (Anthropic's
// longer cache), CacheWrite where it has none.
type Price struct {
	Input        float64  `json:"input"`
	Output       float64  `json:"output"`
	CacheRead    *float64 `json:"cache_read,omitempty"`
	CacheWrite   *float64 `json:"cache_write,omitempty"`
	CacheWrite1h *float64 `json:"cache_write_1h,omitempty"`
}

// Table is a price table: a version (the date its prices were read) and
// the price of each model, by name.
type Table struct {
	Version string           `json:"version"`
	About   string           `json:"about,omitempty"`
	Models  map[string]Price `json:"models"`
}

//go:embed prices.json
var builtin []byte

// Default is the table that ships with the binary.
func Default() *Table {
	t, err := parse(builtin)
	if err != nil {
		panic("pricing: the built-in table does not parse: " + err.Error()) // caught by TestDefaultTable
	}
	return t
}

// Load reads a table from a file of the built-in table's shape.
func Load(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func parse(b []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	if t.Version == "" || len(t.Models) == 0 {
		return nil, fmt.Errorf("a price table needs a version and at least one model")
	}
	models := make(map[string]Price, len(t.Models))
	for name, p := range t.Models {
		if p.Input < 0 || p.Output < 0 || (p.CacheRead != nil && *p.CacheRead < 0) || (p.CacheWrite != nil && *p.CacheWrite < 0) || (p.CacheWrite1h != nil && *p.CacheWrite1h < 0) {
			return nil, fmt.Errorf("model %q: a negative price", name)
		}
		models[normalize(name)] = p
	}
	t.Models = models
	return &t, nil
}

// Lookup finds a model's price. A model is found by its name as logged,
// lower-cased, without a provider prefix ("openai/gpt-4o", "bedrock/..."),
// and, when that is not in the table, without a dated or versioned suffix
// (gpt-4o-2024-08-06, claude-3-5-sonnet-20241022, claude-sonnet-4@20250514,
// gemini-2.5-pro-preview-05-06): the longest name in the table that the
// model's name starts with, followed by "-" or "@". Anthropic's ids write
// a version with hyphens (claude-sonnet-4-5); GitHub Copilot, OpenRouter
// and others write it with a dot (claude-sonnet-4.5), which is read as
// the hyphen. Other vendors' dots are their own (gpt-4.1, gemini-2.5-pro).
func (t *Table) Lookup(model string) (Price, bool) {
	m := normalize(model)
	if p, ok := t.Models[m]; ok {
		return p, true
	}
	if strings.HasPrefix(m, "claude-") {
		m = strings.ReplaceAll(m, ".", "-")
		if p, ok := t.Models[m]; ok {
			return p, true
		}
	}
	best := ""
	for name := range t.Models {
		if len(name) > len(best) && strings.HasPrefix(m, name) && len(m) > len(name) && (m[len(name)] == '-' || m[len(name)] == '@') {
			best = name
		}
	}
	if best == "" {
		return Price{}, false
	}
	return t.Models[best], true
}

// Cost is the cost of prompt and completion tokens of model, and whether
// the model has a price.
func (t *Table) Cost(model string, prompt, completion int64) (float64, bool) {
	return t.CostCached(model, prompt, completion, 0, 0, 0)
}

// CostCached is Cost with cacheRead and cacheWrite of the prompt tokens
// read from and written to the prompt cache, at the model's cache prices
// (Input where it has none), cacheWrite1h of the writes kept for an hour.
// Cache counts larger than the prompt are taken as the prompt: a logger
// that counts them apart is still priced on what it logged.
func (t *Table) CostCached(model string, prompt, completion, cacheRead, cacheWrite, cacheWrite1h int64) (float64, bool) {
	p, ok := t.Lookup(model)
	if !ok {
		return 0, false
	}
	prompt, completion = max(prompt, 0), max(completion, 0)
	read := min(max(cacheRead, 0), prompt)
	write := min(max(cacheWrite, 0), prompt-read)
	readPrice, writePrice := p.Input, p.Input
	if p.CacheRead != nil {
		readPrice = *p.CacheRead
	}
	if p.CacheWrite != nil {
		writePrice = *p.CacheWrite
	}
	long := min(max(cacheWrite1h, 0), write)
	longPrice := writePrice
	if p.CacheWrite1h != nil {
		longPrice = *p.CacheWrite1h
	}
	return (float64(prompt-read-write)*p.Input + float64(read)*readPrice + float64(write-long)*writePrice +
		float64(long)*longPrice + float64(completion)*p.Output) / 1e6, true
}

// Names lists the table's models, sorted.
func (t *Table) Names() []string {
	names := make([]string, 0, len(t.Models))
	for n := range t.Models {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func normalize(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	return m
}
