package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Steps that log tokens and the model but no cost get the model's list
// price, marked estimated in every output; --prices replaces the table; a
// run that logs no cost at all says "not logged", never $0.00.
func TestCostsEstimatedFromPrices(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, `{"run_id":"priced","step":%d,"state":"ACT","tool_call":{"name":"get_order","args":{"id":1}},"tool_result":{"ok":false,"error_type":"TIMEOUT"},"usage":{"prompt_tokens":100000,"completion_tokens":10000,"model":"openai/gpt-4o-2024-08-06"}}`+"\n", i)
		fmt.Fprintf(&b, `{"run_id":"unpriced","step":%d,"state":"ACT","tool_call":{"name":"get_order","args":{"id":1}},"tool_result":{"ok":false,"error_type":"TIMEOUT"}}`+"\n", i)
	}
	logs := filepath.Join(dir, "steps.jsonl")
	if err := os.WriteFile(logs, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	type run struct {
		RunID         string  `json:"run_id"`
		WastedCostUSD float64 `json:"wasted_cost_usd"`
		CostLogged    bool    `json:"cost_logged"`
		CostEstimated bool    `json:"cost_estimated"`
	}
	scanRuns := func(args ...string) map[string]run {
		t.Helper()
		code, out, stderr := runCLI(t, "", append([]string{"scan", "--format", "ndjson"}, args...)...)
		if code != exitClean {
			t.Fatalf("scan: exit %d: %s", code, stderr)
		}
		got := map[string]run{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var r run
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			got[r.RunID] = r
		}
		return got
	}
	got := scanRuns(logs)
	// gpt-4o at $2.50 and $10 per million tokens: 6 x (0.25 + 0.10).
	if r := got["priced"]; !r.CostLogged || !r.CostEstimated || r.WastedCostUSD < 2.0999 || r.WastedCostUSD > 2.1001 {
		t.Errorf("priced run: %+v, want an estimated $2.10", r)
	}
	if r := got["unpriced"]; r.CostLogged || r.CostEstimated || r.WastedCostUSD != 0 {
		t.Errorf("unpriced run: %+v", r)
	}
	prices := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(prices, []byte(`{"version":"team-2026-12","models":{"gpt-4o":{"input":1,"output":1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := scanRuns("--prices", prices, logs)["priced"]; r.WastedCostUSD < 0.6599 || r.WastedCostUSD > 0.6601 {
		t.Errorf("with --prices: %+v, want 6 x 110,000 tokens at $1 per million", r)
	}
	code, out, _ := runCLI(t, "", "scan", logs)
	if code != exitClean || !strings.Contains(out, "(~$2.10)") || !strings.Contains(out, "(cost not logged)") {
		t.Errorf("table:\n%s", out)
	}
	// replay says the same of what the runs spent and what a guard saves.
	if code, out, stderr := runCLI(t, "", "replay", logs); code != exitClean || !strings.Contains(out, "tokens, ~$") {
		t.Errorf("replay: exit %d: %s%s", code, out, stderr)
	}
	unpriced := filepath.Join(dir, "unpriced.jsonl")
	var only strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if strings.Contains(l, `"unpriced"`) {
			only.WriteString(l + "\n")
		}
	}
	if err := os.WriteFile(unpriced, []byte(only.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCLI(t, "", "replay", unpriced); code != exitClean || !strings.Contains(out, "cost not logged") || strings.Contains(out, "$0.00") {
		t.Errorf("replay of runs without a cost: exit %d: %s%s", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "", "scan", "--prices", filepath.Join(dir, "missing.json"), logs); code != exitUsage || !strings.Contains(stderr, "--prices") {
		t.Errorf("a missing price table: exit %d: %s", code, stderr)
	}
}
