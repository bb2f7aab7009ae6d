package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in  inputFlags
		cfg pipeline.VerifyConfig
	)
	fs.StringVar(&cfg.Format, "format", "table", "output format: table, junit (JUnit XML for CI)")
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.BoolVar(&cfg.Update, "update", false, "rewrite the want file of every failing fixture with runaway's verdict (review the differences first)")
	bindInputFlags(fs, &in)
	// Fixtures are checked strictly and each on its own: these do not apply.
	for _, name := range []string{"rejects", "strict", "keep-going"} {
		_ = fs.MarkHidden(name)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway verify [flags] DIR...\n\n"+
			"Checks every fixture under DIR (a <name>.jsonl with its <name>.want.json, recursively):\n"+
			"runaway's verdict, root cause, onset step and detectors must match the want file.\n"+
			"Exit codes: 0 all match, 1 a fixture does not match, 2 usage error,\n"+
			"3 a fixture cannot be read, holds rejected lines or has no want file.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "verify", stderr); !ok {
		return code
	}
	for _, name := range []string{"rejects", "strict", "keep-going"} {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "runaway verify: --%s does not apply: a fixture with a rejected line is an error, and every fixture is checked\n", name)
			return exitUsage
		}
	}
	cfg.Config = in.config(fs, fs.Args(), stderr)
	ctx, stop := interruptible(stderr)
	defer stop()
	return exit("verify", fs, stderr, pipeline.Verify(ctx, cfg, stdout, stderr))
}
