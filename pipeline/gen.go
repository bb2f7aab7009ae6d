package pipeline

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/internal/atomicfile"
	"github.com/runawayhq/runaway/synth"
)

// GenConfig is the writing of a labelled synthetic corpus.
type GenConfig struct {
	synth.Config        // --runs, --runaway-rate, --seed, --interleave, --causes, --size
	Out          string // --out: the steps; "" or "-" is stdout
	Labels       string // --labels: the labels, one JSON per run; "" writes none
}

// check finds the values synth would refuse, named by their flags, before
// a file is opened.
func (cfg *GenConfig) check() error {
	switch {
	case cfg.Runs < 0:
		return usagef("--runs %d: want 0 or more", cfg.Runs)
	case !(cfg.RunawayRate >= 0 && cfg.RunawayRate <= 1): // NaN too
		return usagef("--runaway-rate %v: want a fraction within 0..1", cfg.RunawayRate)
	case cfg.Interleave < 0:
		return usagef("--interleave %d: want 1 or more (0 is the default, 16)", cfg.Interleave)
	case cfg.TargetBytes < 0:
		return usagef("--size %d: want a positive size", cfg.TargetBytes)
	}
	if err := checkPaths(inputs{}, []namedPath{flagPath("--out", cfg.Out), flagPath("--labels", cfg.Labels)}); err != nil {
		return err
	}
	for i, c := range cfg.Causes {
		if !slices.Contains(synth.AllCauses, c) {
			return usagef("--causes: unknown root cause %q; want some of %s", c, strings.Join(synth.AllCauses, ", "))
		}
		if slices.Contains(cfg.Causes[:i], c) {
			return usagef("--causes: %q listed twice", c)
		}
	}
	return nil
}

// Gen writes the corpus cfg describes to cfg.Out (or stdout) and its labels
// to cfg.Labels, both atomically, and says on stderr what it wrote. When ctx
// is cancelled it stops, and writes neither file.
func Gen(ctx context.Context, cfg GenConfig, stdout, stderr io.Writer) error {
	if err := cfg.check(); err != nil {
		return err
	}
	var labels *atomicfile.File
	var labelsW io.Writer
	if cfg.Labels != "" {
		f, err := atomicfile.Create(cfg.Labels)
		if err != nil {
			return outputf("--labels: %v", err)
		}
		defer f.Abort()
		labels, labelsW = f, ctxWriter{ctx, f}
	}
	var sum synth.Summary
	err := WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
		var err error
		sum, err = synth.Generate(cfg.Config, ctxWriter{ctx, w}, labelsW)
		return err
	})
	if ctx.Err() != nil {
		return &InterruptedError{Msg: "interrupted; nothing written"}
	}
	if err == nil && labels != nil {
		err = labels.Commit()
	}
	if err != nil {
		return outputf("%v", err)
	}
	fmt.Fprintf(stderr, "runaway gen: %d runs (%d runaway), %d lines, %d bytes\n", sum.Runs, sum.RunawayRuns, sum.Lines, sum.Bytes)
	return nil
}

// ctxWriter fails every write once ctx is cancelled: synth, which knows
// nothing of contexts, then stops at its next write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
