package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

const fixturesDir = "../fixtures"

// scanConfig is the CLI's scan configuration reading paths.
func scanConfig(paths ...string) ScanConfig {
	cfg := DefaultScanConfig()
	cfg.Paths = paths
	return cfg
}

// runScan runs Scan on stdin and returns what the CLI prints and exits
// with; it does not tune the garbage collector as the CLI does.
func runScan(t *testing.T, stdin string, cfg ScanConfig) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	_, err := Scan(context.Background(), cfg, strings.NewReader(stdin), &out, &errb)
	if err != nil && !Reported(err) {
		fmt.Fprintf(&errb, "runaway scan: %v\n", err)
	}
	return ExitCode(err), out.String(), errb.String()
}
