package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err      error
		code     int
		reported bool
	}{
		{nil, ExitClean, false},
		{&FindingsError{Reason: "runs at or above --fail-on runaway"}, ExitFindings, true},
		{fmt.Errorf("scan: %w", &FindingsError{}), ExitFindings, true},
		{&UsageError{Err: errors.New("--format x")}, ExitUsage, false},
		{fmt.Errorf("wrapped: %w", &UsageError{Err: errors.New("x")}), ExitUsage, false},
		{&InputError{Err: errors.New("unreadable")}, ExitFailure, false},
		{&OutputError{Err: errors.New("disk full")}, ExitFailure, false},
		{&InterruptedError{Msg: "interrupted"}, ExitFailure, false},
		{&PartialError{Failed: 2, What: "fixtures"}, ExitFailure, true},
		{errors.New("an error the package does not know"), ExitFailure, false},
	} {
		if got := ExitCode(c.err); got != c.code {
			t.Errorf("ExitCode(%#v) = %d, want %d", c.err, got, c.code)
		}
		if got := Reported(c.err); got != c.reported {
			t.Errorf("Reported(%#v) = %v, want %v", c.err, got, c.reported)
		}
	}
}

// Each kind of failure of a scan comes back as its type, with the exit
// code the CLI documents.
func TestScanErrorsAreTyped(t *testing.T) {
	bad := func(mod func(*ScanConfig)) ScanConfig {
		cfg := scanConfig(fixturesDir)
		mod(&cfg)
		return cfg
	}
	for name, c := range map[string]struct {
		cfg  ScanConfig
		want any
	}{
		"fail-on":        {bad(func(c *ScanConfig) { c.FailOn = "runaway" }), new(*FindingsError)},
		"bad fail-on":    {bad(func(c *ScanConfig) { c.FailOn = "often" }), new(*UsageError)},
		"bad format":     {bad(func(c *ScanConfig) { c.Format = "xml" }), new(*UsageError)},
		"two to stdout":  {bad(func(c *ScanConfig) { c.Outputs = []string{"json=-"} }), new(*UsageError)},
		"no input":       {bad(func(c *ScanConfig) { c.Paths = nil }), new(*UsageError)},
		"small memory":   {bad(func(c *ScanConfig) { c.MaxMemory = 1 << 20 }), new(*UsageError)},
		"missing input":  {bad(func(c *ScanConfig) { c.Paths = []string{"/nonexistent/in.jsonl"} }), new(*InputError)},
		"unwritable out": {bad(func(c *ScanConfig) { c.Out = "/nonexistent/dir/report.txt" }), new(*OutputError)},
	} {
		_, err := Scan(context.Background(), c.cfg, strings.NewReader(""), io.Discard, io.Discard)
		if err == nil || !errors.As(err, c.want) {
			t.Errorf("%s: error %T %v, want %T", name, err, err, c.want)
		}
	}
	var usage *UsageError
	_, err := Scan(context.Background(), scanConfig(), strings.NewReader(""), io.Discard, io.Discard)
	if !errors.As(err, &usage) || !usage.ShowUsage {
		t.Errorf("no input: %v, want a usage error that shows the usage", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var interrupted *InterruptedError
	if _, err := Scan(ctx, scanConfig(fixturesDir), strings.NewReader(""), io.Discard, io.Discard); !errors.As(err, &interrupted) {
		t.Errorf("cancelled: %T %v, want *InterruptedError", err, err)
	}
}
