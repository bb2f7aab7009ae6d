package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
)

// scanCmd holds what scan's flags set.
type scanCmd struct {
	cfg       pipeline.ScanConfig
	in        inputFlags
	out       outputFlags
	maxMemory string
}

func (c *scanCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("scan")
	d := pipeline.DefaultScanConfig()
	c.cfg = d
	fs.StringVar(&c.cfg.Format, "format", d.Format, "output format: "+strings.Join(report.Formats, ", "))
	setValues(fs, "format", report.Formats...)
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&c.cfg.FailOn, "fail-on", d.FailOn, "exit 1 when a run is at or above this verdict: "+strings.Join(pipeline.FailOnLevels, ", ")+"; also the runs that fail in --output junit (default there: runaway)")
	setValues(fs, "fail-on", pipeline.FailOnLevels...)
	fs.IntVar(&c.cfg.MaxRows, "max-rows", 0, "table and html: show at most this many flagged runs (0 = all; html: at most 500)")
	fs.StringVar(&c.maxMemory, "max-memory", "1GiB", "memory the scan aims to stay under (at least 64MiB); runs that look finished are analyzed while reading, and input that does not fit spills to --spill-dir, partitioned by run id")
	fs.StringVar(&c.cfg.SpillDir, "spill-dir", "", "existing directory for temporary files: spilled input, results of runs analyzed early (default: $TMPDIR or /tmp); they are removed on exit")
	fs.StringArrayVar(&c.cfg.Outputs, "output", nil, "also write FORMAT=PATH from the same pass (repeatable); FORMAT: "+strings.Join(pipeline.OutputFormats, ", "))
	setValues(fs, "output", suffixed(pipeline.OutputFormats, "=")...)
	fs.BoolVar(&c.cfg.Redact, "redact", false, "replace args values in evidence, messages and headlines, and secrets anywhere (run ids, tools, error types, memory ids), with stable placeholders, in every output (docs/output.md)")
	fs.IntVar(&c.cfg.HTMLTimelines, "html-timelines", d.HTMLTimelines, fmt.Sprintf("html: embed the step-by-step timelines of this many flagged runs, the first in the page's order, read again from the input (0 = none, at most %d)", pipeline.MaxHTMLTimelines))
	bindOutputFlags(fs, &c.out)
	bindInputFlags(fs, &c.in)
	return fs
}

func runScan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := new(scanCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "scan", stdout, stderr); !ok {
		return code
	}
	cfg := c.cfg
	cfg.Config = c.in.config(fs, fs.Args(), stderr)
	if fs.Changed("fail-on") {
		cfg.JUnitFailOn = cfg.FailOn // the junit report fails what the exit code fails
	}
	look, err := c.out.look(stdout)
	if err != nil {
		return exit("scan", stderr, err)
	}
	cfg.Color, cfg.Width = look.color, look.width
	// The reports and the gate are checked before the process is set up
	// for the scan's memory, as a bad --max-memory is.
	if err := cfg.Validate(); err != nil {
		return exit("scan", stderr, err)
	}
	ctx, stop := interruptible(stderr)
	defer stop()
	if cfg.MaxMemory, err = parseMaxMemory(c.maxMemory); err != nil {
		return exit("scan", stderr, err)
	}
	budgetMemory(cfg.MaxMemory)
	_, err = pipeline.Scan(ctx, cfg, stdin, stdout, stderr)
	return exit("scan", stderr, err)
}

// suffixed is every value with suffix appended.
func suffixed(values []string, suffix string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = v + suffix
	}
	return out
}
