package main

import (
	"reflect"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
)

// policyFlags binds one flag per policy field (yaml key with - for _), so
// every threshold can be set from the command line. Flags override --policy,
// which overrides the defaults.
type policyFlags struct {
	values detect.Policy
	fields map[string]int // flag name -> field index
}

func bindPolicyFlags(fs *pflag.FlagSet) *policyFlags {
	pf := &policyFlags{values: detect.DefaultPolicy(), fields: map[string]int{}}
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
		pf.fields[name] = i
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

// apply copies the flags the user set onto p.
func (pf *policyFlags) apply(fs *pflag.FlagSet, p *detect.Policy) {
	dst := reflect.ValueOf(p).Elem()
	src := reflect.ValueOf(&pf.values).Elem()
	fs.Visit(func(f *pflag.Flag) {
		if i, ok := pf.fields[f.Name]; ok {
			dst.Field(i).Set(src.Field(i))
		}
	})
}
