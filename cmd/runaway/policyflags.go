package main

import (
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/pipeline"
)

// policyFlags binds one flag per policy field (yaml key with - for _), so
// every threshold can be set from the command line. Flags override --policy,
// which overrides the defaults.
type policyFlags struct {
	values detect.Policy
}

func bindPolicyFlags(fs *pflag.FlagSet) *policyFlags {
	pf := &policyFlags{values: detect.DefaultPolicy()}
	pipeline.BindThresholds(&pf.values, func(name, help string, value any) {
		switch f := value.(type) {
		case *int:
			fs.IntVar(f, name, *f, help)
		case *int64:
			fs.Int64Var(f, name, *f, help)
		case *float64:
			fs.Float64Var(f, name, *f, help)
		case *[]string:
			fs.StringSliceVar(f, name, *f, help)
		}
	})
	return pf
}

// thresholds are the thresholds the user set by flag.
func (pf *policyFlags) thresholds(fs *pflag.FlagSet) pipeline.Thresholds {
	t := pipeline.Thresholds{Values: pf.values}
	fs.Visit(func(f *pflag.Flag) {
		if key := pipeline.ThresholdKey(f.Name); key != "" {
			t.Keys = append(t.Keys, key)
		}
	})
	return t
}
