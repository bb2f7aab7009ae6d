package pipeline

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Scan called with a configuration writes, byte for byte, what the runaway
// command writes for the same flags, and ends with the same exit code. It
// builds the command, since a test cannot import a main package.
func TestScanMatchesTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runaway command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "runaway")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/runaway").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := []struct {
		args []string
		cfg  func(*ScanConfig)
	}{
		{nil, func(*ScanConfig) {}},
		{[]string{"--format", "ndjson"}, func(c *ScanConfig) { c.Format = "ndjson" }},
		{[]string{"--format", "json", "--redact"}, func(c *ScanConfig) { c.Format, c.Redact = "json", true }},
		{[]string{"--format", "html"}, func(c *ScanConfig) { c.Format = "html" }},
		{[]string{"--max-memory", "64MiB", "--format", "ndjson"}, func(c *ScanConfig) { c.Format, c.MaxMemory = "ndjson", 64<<20 }},
		{[]string{"--fail-on", "runaway", "--max-rows", "3"}, func(c *ScanConfig) { c.FailOn, c.MaxRows = "runaway", 3 }},
		{[]string{"--error-streak-suspicious", "2", "--format", "ndjson"}, func(c *ScanConfig) {
			c.Format = "ndjson"
			c.Thresholds.Values.ErrorStreakSuspicious = 2
			c.Thresholds.Keys = []string{"error_streak_suspicious"}
		}},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, append(append([]string{"scan"}, c.args...), fixturesDir)...)
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		wantCode := 0
		if err := cmd.Run(); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatal(err)
			}
			wantCode = exit.ExitCode()
		}
		cfg := scanConfig(fixturesDir)
		c.cfg(&cfg)
		code, got, gotErr := runScan(t, "", cfg)
		if code != wantCode || got != stdout.String() || gotErr != stderr.String() {
			t.Errorf("scan %v: exit %d, %d bytes out, stderr %q; the command: exit %d, %d bytes out, stderr %q",
				c.args, code, len(got), gotErr, wantCode, stdout.Len(), stderr.String())
		}
	}
}
