package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// When the input cannot be read again, the scan writes the page without
// timelines, warns, and its exit code and other outputs are unchanged.
func TestScanHTMLSecondReadFails(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	scan := func(name string) (int, string, string, string) {
		if err := os.WriteFile(input, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ndjson := filepath.Join(dir, name+".ndjson")
		cfg := scanConfig(input)
		cfg.Format, cfg.FailOn, cfg.Outputs = "html", "suspicious", []string{"ndjson=" + ndjson}
		code, page, stderr := runScan(t, "", cfg)
		out, err := os.ReadFile(ndjson)
		if err != nil {
			t.Fatal(err)
		}
		return code, page, stderr, string(out)
	}
	wantCode, wantPage, _, wantNDJSON := scan("ok")
	beforeTimelineRead = func() { os.Remove(input) }
	defer func() { beforeTimelineRead = nil }()
	code, page, stderr, ndjson := scan("gone")
	if code != wantCode || wantCode != ExitFindings || ndjson != wantNDJSON {
		t.Errorf("exit %d (want %d), ndjson changed: %v", code, wantCode, ndjson != wantNDJSON)
	}
	if !strings.Contains(stderr, "warning: the html overview has no step-by-step timelines") || !strings.Contains(stderr, "in.jsonl") {
		t.Errorf("stderr: %s", stderr)
	}
	const timeline = `<svg class="timeline"`
	if before, after := strings.Count(wantPage, timeline), strings.Count(page, timeline); before == 0 || after != 0 || !strings.Contains(page, "reading the input again failed") {
		t.Errorf("%d timelines, then %d; the page does not say why", before, after)
	}
}
