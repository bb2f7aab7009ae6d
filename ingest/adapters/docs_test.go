package adapters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every adapter has its page, docs/adapters/<name>.md, which lists every
// rule it applies (its own and the shared ones) by name with the rule's
// Doc; the index lists every adapter. A rule added or reworded without its
// page fails here.
func TestAdapterDocs(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "adapters")
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range OutputRules {
		if !strings.Contains(string(index), "`"+r.Name+"`") || !strings.Contains(string(index), r.Doc) {
			t.Errorf("docs/adapters/README.md: shared rule %q or its Doc missing", r.Name)
		}
	}
	for _, r := range SaidRules {
		if !strings.Contains(string(index), "`"+r.Name+"`") || !strings.Contains(string(index), r.Doc) {
			t.Errorf("docs/adapters/README.md: rule %q on the agent's words or its Doc missing", r.Name)
		}
	}
	for _, f := range Registry {
		if !strings.Contains(string(index), "`"+f.Name+"`") || !strings.Contains(string(index), "("+f.Name+".md)") {
			t.Errorf("docs/adapters/README.md does not list %s with a link to its page", f.Name)
		}
		page, err := os.ReadFile(filepath.Join(dir, f.Name+".md"))
		if err != nil {
			t.Errorf("%s has no page: %v", f.Name, err)
			continue
		}
		rules, ok := formatRules[f.Name]
		if !ok {
			t.Errorf("format %s: list its rules in formatRules", f.Name)
		}
		for _, r := range append(append([]OutputRule(nil), rules...), OutputRules...) {
			if !strings.Contains(string(page), "`"+r.Name+"`") {
				t.Errorf("docs/adapters/%s.md does not name the rule %q", f.Name, r.Name)
			}
			if !strings.Contains(string(page), r.Doc) {
				t.Errorf("docs/adapters/%s.md does not say what the rule %q looks for: %q", f.Name, r.Name, r.Doc)
			}
		}
		if !strings.Contains(string(page), "--input-format "+f.Name) {
			t.Errorf("docs/adapters/%s.md does not give its --input-format", f.Name)
		}
	}
}
