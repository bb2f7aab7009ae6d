package main

import (
	"flag"
	"reflect"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/pipeline"
)

// thresholdFlags binds one flag per policy field, named as runaway scan
// names it (the yaml key with - for _); a flag given overrides --policy.
type thresholdFlags struct {
	values detect.Policy
	keys   map[string]string // flag name -> yaml key
}

func bindThresholds(fs *flag.FlagSet) *thresholdFlags {
	tf := &thresholdFlags{values: detect.DefaultPolicy(), keys: map[string]string{}}
	help := map[string]string{}
	for _, p := range detect.Params() {
		help[p.Key] = p.Help
	}
	rv := reflect.ValueOf(&tf.values).Elem()
	for i := range rv.NumField() {
		key := rv.Type().Field(i).Tag.Get("yaml")
		name := strings.ReplaceAll(key, "_", "-")
		tf.keys[name] = key
		switch f := rv.Field(i).Addr().Interface().(type) {
		case *int:
			fs.IntVar(f, name, *f, help[key])
		case *int64:
			fs.Int64Var(f, name, *f, help[key])
		case *float64:
			fs.Float64Var(f, name, *f, help[key])
		case *[]string:
			fs.Func(name, help[key]+" (comma-separated)", func(v string) error {
				*f = strings.Split(v, ",")
				return nil
			})
		}
	}
	return tf
}

// set is the thresholds given on the command line.
func (tf *thresholdFlags) set(fs *flag.FlagSet) pipeline.Thresholds {
	t := pipeline.Thresholds{Values: tf.values}
	fs.Visit(func(f *flag.Flag) {
		if key, ok := tf.keys[f.Name]; ok {
			t.Keys = append(t.Keys, key)
		}
	})
	return t
}
