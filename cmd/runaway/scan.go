package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
)

func runScan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("scan", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	d := pipeline.DefaultScanConfig()
	cfg := d
	var (
		in        inputFlags
		maxMemory string
	)
	fs.StringVar(&cfg.Format, "format", d.Format, "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&cfg.FailOn, "fail-on", d.FailOn, "exit 1 when a run is at or above this verdict: runaway, suspicious, never")
	fs.IntVar(&cfg.MaxRows, "max-rows", 0, "table and html: show at most this many flagged runs (0 = all; html: at most 500)")
	fs.StringVar(&maxMemory, "max-memory", "1GiB", "memory the scan aims to stay under (at least 64MiB); runs that look finished are analyzed while reading, and input that does not fit spills to --spill-dir, partitioned by run id")
	fs.StringVar(&cfg.SpillDir, "spill-dir", "", "existing directory for temporary files: spilled input, results of runs analyzed early (default: $TMPDIR or /tmp); they are removed on exit")
	fs.StringArrayVar(&cfg.Outputs, "output", nil, "also write FORMAT=PATH from the same pass (repeatable); FORMAT: "+strings.Join(pipeline.OutputFormats, ", "))
	fs.BoolVar(&cfg.Redact, "redact", false, "replace args values in evidence, messages and headlines, and secrets anywhere (run ids, tools, error types, memory ids), with stable placeholders, in every output (docs/output.md)")
	fs.IntVar(&cfg.HTMLTimelines, "html-timelines", d.HTMLTimelines, fmt.Sprintf("html: embed the step-by-step timelines of this many flagged runs, the first in the page's order, read again from the input (0 = none, at most %d)", pipeline.MaxHTMLTimelines))
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway scan [flags] PATH...\n\nPATH is a file, a directory (read recursively), a glob, an s3:// or gs:// URL, or - for stdin.\n.gz and .zst input is read transparently; Parquet tables are recognised by their content.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "scan", stderr); !ok {
		return code
	}
	cfg.Config = in.config(fs, fs.Args(), stderr)
	cfg.Color = colorWanted(stdout)
	// The reports and the gate are checked before the process is set up
	// for the scan's memory, as a bad --max-memory is.
	if err := cfg.Validate(); err != nil {
		return exit("scan", fs, stderr, err)
	}
	ctx, stop := interruptible(stderr)
	defer stop()
	n, err := humanize.ParseBytes(maxMemory)
	if err != nil || n < pipeline.MinMemory {
		fmt.Fprintf(stderr, "runaway scan: --max-memory %q: want a size of at least 64MiB, such as 512MiB or 2GiB\n", maxMemory)
		return exitUsage
	}
	cfg.MaxMemory = int64(n)
	budgetMemory(cfg.MaxMemory)
	_, err = pipeline.Scan(ctx, cfg, stdin, stdout, stderr)
	return exit("scan", fs, stderr, err)
}
