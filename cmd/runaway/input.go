package main

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
)

// inputFlags are the flags of every command that analyzes step logs (scan,
// replay, eval, explain, fixture, verify): how to read the input and the
// detectors' policy.
type inputFlags struct {
	cfg    pipeline.Config
	quiet  bool
	policy *policyFlags
}

func bindInputFlags(fs *pflag.FlagSet, f *inputFlags) {
	d := pipeline.DefaultConfig()
	fs.StringVar(&f.cfg.RejectsFile, "rejects", "", "write every rejected input line, verbatim, to FILE, and the file and line each came from to FILE"+pipeline.RejectsIndexSuffix+" (docs/output.md)")
	fs.BoolVar(&f.cfg.Strict, "strict", false, "exit 3 when any input line is rejected")
	fs.BoolVar(&f.cfg.KeepGoing, "keep-going", false, "skip inputs that cannot be read or give no step, and mark the report partial, instead of exit 3")
	fs.IntVar(&f.cfg.MaxLineBytes, "max-line-bytes", d.MaxLineBytes, "reject lines longer than this")
	fs.StringVar(&f.cfg.InputFormat, "input-format", d.InputFormat, "how to read each input: "+strings.Join(ingest.InputFormats(), ", ")+" (auto: runaway's step lines or, recognised by their content, agent trajectories and traces; docs/adapters/)")
	setValues(fs, "input-format", ingest.InputFormats()...)
	fs.BoolVar(&f.cfg.StripOutput, "strip-output", false, "read trajectories without what their tools printed, as logs that keep no tool output are (docs/adapters/)")
	fs.StringVar(&f.cfg.PricesFile, "prices", "", "price table (JSON, the shape of the built-in pricing/prices.json) for estimating the cost of steps that log tokens and a model but no cost; default: the built-in table")
	fs.IntVar(&f.cfg.MaxDocBytes, "max-doc-bytes", d.MaxDocBytes, "reject a document read whole (a trajectory file, a session transcript, one line of a file of them) longer than this")
	fs.StringVar(&f.cfg.PolicyFile, "policy", "", "YAML file of detector thresholds (see 'runaway detectors')")
	// 0, not GOMAXPROCS, is the flag's default so that help, the man page
	// and docs/cli.md say the same on every machine; config resolves it.
	fs.IntVar(&f.cfg.Workers, "workers", 0, "decode and analysis goroutines (0: one per CPU Go may use, GOMAXPROCS)")
	fs.StringSliceVar(&f.cfg.Include, "include", nil, "read only files and objects whose name matches one of these globs (a pattern with / matches the path below the directory or prefix given)")
	fs.StringSliceVar(&f.cfg.Exclude, "exclude", nil, "skip files and objects whose name matches one of these globs")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar (it is only drawn when stderr is a terminal and TERM is not dumb)")
	f.policy = bindPolicyFlags(fs)
}

// config is the pipeline's configuration of the parsed flags, reading
// paths.
func (f *inputFlags) config(fs *pflag.FlagSet, paths []string, stderr io.Writer) pipeline.Config {
	c := f.cfg
	c.Paths = paths
	// 0 is the default, one per processor; a negative count is the
	// pipeline's to refuse (a usage error).
	if c.Workers == 0 {
		c.Workers = pipeline.DefaultConfig().Workers
	}
	c.Thresholds = f.policy.thresholds(fs)
	c.Progress = progressWanted(stderr, f.quiet)
	return c
}
