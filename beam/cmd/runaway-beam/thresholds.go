package main

import (
	"flag"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/pipeline"
)

// thresholdFlags binds one flag per policy field, named as runaway scan
// names it; a flag given overrides --policy.
type thresholdFlags struct {
	values detect.Policy
}

func bindThresholds(fs *flag.FlagSet) *thresholdFlags {
	tf := &thresholdFlags{values: detect.DefaultPolicy()}
	pipeline.BindThresholds(&tf.values, func(name, help string, value any) {
		switch f := value.(type) {
		case *int:
			fs.IntVar(f, name, *f, help)
		case *int64:
			fs.Int64Var(f, name, *f, help)
		case *float64:
			fs.Float64Var(f, name, *f, help)
		case *[]string:
			fs.Func(name, help+" (comma-separated)", func(v string) error {
				*f = strings.Split(v, ",")
				return nil
			})
		}
	})
	return tf
}

// set is the thresholds given on the command line.
func (tf *thresholdFlags) set(fs *flag.FlagSet) pipeline.Thresholds {
	t := pipeline.Thresholds{Values: tf.values}
	fs.Visit(func(f *flag.Flag) {
		if key := pipeline.ThresholdKey(f.Name); key != "" {
			t.Keys = append(t.Keys, key)
		}
	})
	return t
}
