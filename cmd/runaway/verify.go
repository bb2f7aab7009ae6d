package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

// verifyCmd holds what verify's flags set.
type verifyCmd struct {
	cfg pipeline.VerifyConfig
	in  inputFlags
}

// verifyIgnores are the input flags verify hides and refuses: fixtures are
// checked strictly and each on its own.
var verifyIgnores = []string{"rejects", "strict", "keep-going"}

func (c *verifyCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("verify")
	fs.StringVar(&c.cfg.Format, "format", pipeline.VerifyFormats[0], "output format: "+strings.Join(pipeline.VerifyFormats, ", ")+" (junit: JUnit XML for CI)")
	setValues(fs, "format", pipeline.VerifyFormats...)
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.BoolVar(&c.cfg.Update, "update", false, "rewrite the want file of every failing fixture with runaway's verdict (review the differences first)")
	bindInputFlags(fs, &c.in)
	for _, name := range verifyIgnores {
		_ = fs.MarkHidden(name)
	}
	return fs
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	c := new(verifyCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "verify", stdout, stderr); !ok {
		return code
	}
	for _, name := range verifyIgnores {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "runaway verify: --%s does not apply: a fixture with a rejected line is an error, and every fixture is checked\n", name)
			return exitUsage
		}
	}
	cfg := c.cfg
	cfg.Config = c.in.config(fs, fs.Args(), stderr)
	cfg.Width = tableWidth(stdout)
	ctx, stop := interruptible(stderr)
	defer stop()
	return exit("verify", stderr, pipeline.Verify(ctx, cfg, stdout, stderr))
}
