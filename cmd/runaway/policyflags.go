package main

import (
	"reflect"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/pipeline"
)

// policyFlags binds one flag per policy field (yaml key with - for _), so
// every threshold can be set from the command line. Flags override --policy,
// which overrides the defaults.
type policyFlags struct {
	values detect.Policy
	keys   map[string]string // flag name -> yaml key
}

func bindPolicyFlags(fs *pflag.FlagSet) *policyFlags {
	pf := &policyFlags{values: detect.DefaultPolicy(), keys: map[string]string{}}
	help := map[string]string{}
	for _, p := range detect.Params() {
		h := p.Help
		if p.Source != "" {
			h += " [" + p.Source + "]"
		}
		help[p.Key] = h
	}
	rv := reflect.ValueOf(&pf.values).Elem()
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		key := rt.Field(i).Tag.Get("yaml")
		name := strings.ReplaceAll(key, "_", "-")
		pf.keys[name] = key
		switch f := rv.Field(i).Addr().Interface().(type) {
		case *int:
			fs.IntVar(f, name, *f, help[key])
		case *int64:
			fs.Int64Var(f, name, *f, help[key])
		case *float64:
			fs.Float64Var(f, name, *f, help[key])
		case *[]string:
			fs.StringSliceVar(f, name, *f, help[key])
		}
	}
	return pf
}

// thresholds are the thresholds the user set by flag.
func (pf *policyFlags) thresholds(fs *pflag.FlagSet) pipeline.Thresholds {
	t := pipeline.Thresholds{Values: pf.values}
	fs.Visit(func(f *pflag.Flag) {
		if key, ok := pf.keys[f.Name]; ok {
			t.Keys = append(t.Keys, key)
		}
	})
	return t
}
