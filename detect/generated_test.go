package detect

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated parts of docs/detectors/")

// TestGenerated fails when a generated part of the detector pages is not
// what the code says: the thresholds tables and the index. -update
// rewrites them.
func TestGenerated(t *testing.T) {
	dir := filepath.Join("..", "docs", "detectors")
	check := func(path, want string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil && !(*update && os.IsNotExist(err)) {
			t.Fatal(err)
		}
		if string(got) == want {
			return
		}
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s is stale: run go test ./detect -run TestGenerated -update", path)
	}
	check(filepath.Join(dir, "README.md"), IndexMarkdown())
	for _, d := range Registry {
		path := filepath.Join(dir, d.ID+".md")
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := withThresholds(string(page), ThresholdsMarkdown(d))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		check(path, want)
	}
}

// withThresholds puts table in the page's "## Thresholds" section, between
// the generated markers (a page without them has its first table there
// replaced).
func withThresholds(page, table string) (string, error) {
	block := GeneratedBegin + "\n" + table + GeneratedEnd + "\n"
	if i := strings.Index(page, GeneratedBegin); i >= 0 {
		j := strings.Index(page, GeneratedEnd)
		if j < i {
			return "", errString("the generated table's end marker is missing")
		}
		return page[:i] + block + page[j+len(GeneratedEnd)+1:], nil
	}
	const heading = "## Thresholds\n"
	h := strings.Index(page, heading)
	if h < 0 {
		return "", errString(`no "## Thresholds" section`)
	}
	start := h + len(heading)
	end := start
	for end < len(page) && page[end] == '|' {
		nl := strings.IndexByte(page[end:], '\n')
		if nl < 0 {
			end = len(page)
			break
		}
		end += nl + 1
	}
	return page[:start] + block + page[end:], nil
}

type errString string

func (e errString) Error() string { return string(e) }
