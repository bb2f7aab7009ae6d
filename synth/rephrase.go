package synth

import "strings"

// rephrasings returns n distinct queries for one information need, the way a
// model rewrites a search that came back empty: the same core words with one
// or more edits (a synonym, a word dropped or added, words swapped, quotes, a
// site: filter). Consecutive queries share most tokens.
func (r *run) rephrasings(subject, aspect string, n int) []string {
	base := strings.Fields(subject + " " + aspect)
	seen := map[string]bool{}
	var out []string
	cur := append([]string(nil), base...)
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		next := r.edit(cur, base)
		q := strings.Join(next, " ")
		if seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, q)
		// Most rewrites start from the last query; some go back to the
		// original wording.
		if r.chance(0.7) {
			cur = next
		} else {
			cur = append([]string(nil), base...)
		}
	}
	for len(out) < n { // only if the edits ran out: number the variants
		out = append(out, strings.Join(base, " ")+" "+strings.Repeat("?", len(out)))
	}
	return out
}

var queryExtras = []string{"2026", "official", "latest", "docs", "documentation", "details", "current", "policy",
	"explained", "how", "what", "exact", "overview", "guide", "limits", "example"}

var synonyms = map[string][]string{
	"pricing": {"price", "cost", "plans"}, "limits": {"quotas", "caps"}, "errors": {"failures", "failed"},
	"refund": {"reimbursement", "money back"}, "status": {"state", "progress"}, "latency": {"response time", "delay"},
	"revenue": {"sales", "income"}, "changes": {"updates", "changelog"}, "policy": {"rules", "terms"},
	"report": {"document", "certificate"}, "backup": {"snapshot"}, "events": {"history", "log"},
	"test": {"unit test", "spec"}, "fixes": {"patches"}, "features": {"additions", "what's new"},
}

func (r *run) edit(cur, base []string) []string {
	next := append([]string(nil), cur...)
	edits := 1 + r.rng.IntN(2)
	for e := 0; e < edits; e++ {
		switch r.rng.IntN(6) {
		case 0: // add a word
			next = append(next, pick(r, queryExtras))
		case 1: // drop a word, keeping at least the core
			if len(next) > len(base)-1 && len(next) > 2 {
				i := r.rng.IntN(len(next))
				next = append(next[:i], next[i+1:]...)
			}
		case 2: // swap two neighbours
			if len(next) > 1 {
				i := r.rng.IntN(len(next) - 1)
				next[i], next[i+1] = next[i+1], next[i]
			}
		case 3: // synonym
			for i, w := range next {
				if s, ok := synonyms[strings.ToLower(w)]; ok {
					next[i] = pick(r, s)
					break
				}
			}
		case 4: // quote a word
			i := r.rng.IntN(len(next))
			if !strings.HasPrefix(next[i], `"`) && !strings.HasPrefix(next[i], "site:") {
				next[i] = `"` + next[i] + `"`
			}
		default: // restrict to a site
			if !strings.HasPrefix(next[0], "site:") {
				next = append([]string{"site:" + pick(r, []string{"docs.example.com", "stackoverflow.com", "github.com", "reddit.com"})}, next...)
			}
		}
	}
	return next
}
