package pipeline

import (
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
)

// Config is how a job reads its input and which policy it analyses with:
// what every command that reads step logs shares. Messages name the CLI
// flag each field comes from.
type Config struct {
	// Paths are the inputs: files, directories (read recursively), globs,
	// s3:// or gs:// URLs, "-" for the job's stdin.
	Paths []string
	// Include and Exclude are globs selecting the files and objects read
	// (--include, --exclude).
	Include, Exclude []string

	// How each source is read.
	InputFormat  string // --input-format: ingest.FormatAuto, "jsonl" or an adapter name
	MaxLineBytes int    // --max-line-bytes, at least 1024
	MaxDocBytes  int    // --max-doc-bytes, at least 1024
	StripOutput  bool   // --strip-output
	PricesFile   string // --prices; "" is the built-in table
	Workers      int    // --workers: decode and analysis goroutines

	// The detectors' policy: the defaults, then PolicyFile (--policy), then
	// Thresholds.
	PolicyFile string
	Thresholds Thresholds

	// What a line or source that cannot be read does.
	RejectsFile string // --rejects: every rejected line, verbatim
	Strict      bool   // --strict: any rejected line fails the job
	KeepGoing   bool   // --keep-going: unreadable sources make a partial report

	// Progress draws a progress bar on stderr; the CLI sets it when stderr
	// is a terminal and --quiet is not given.
	Progress bool
}

// Thresholds are policy values set one by one (the CLI's threshold flags):
// the fields of Values whose yaml keys are in Keys override --policy.
type Thresholds struct {
	Values detect.Policy
	Keys   []string
}

// apply copies the thresholds set onto p.
func (t Thresholds) apply(p *detect.Policy) {
	dst := reflect.ValueOf(p).Elem()
	src := reflect.ValueOf(&t.Values).Elem()
	for i := range dst.NumField() {
		if slices.Contains(t.Keys, dst.Type().Field(i).Tag.Get("yaml")) {
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// Policy is the policy the configuration names: the defaults, then
// PolicyFile (--policy), then the thresholds set one by one.
func (c Config) Policy() (detect.Policy, error) {
	policy := detect.DefaultPolicy()
	if c.PolicyFile != "" {
		if err := detect.LoadPolicyFile(c.PolicyFile, &policy); err != nil {
			return policy, usagef("--policy: %v", err)
		}
	}
	c.Thresholds.apply(&policy)
	if err := policy.Validate(); err != nil {
		// The message names policy keys; say which flags set them.
		var flags []string
		for _, k := range c.Thresholds.Keys {
			if strings.Contains(err.Error(), k) {
				flags = append(flags, "--"+strings.ReplaceAll(k, "_", "-"))
			}
		}
		if len(flags) > 0 {
			return policy, usagef("%v (set by %s)", err, strings.Join(flags, ", "))
		}
		return policy, &UsageError{Err: err}
	}
	return policy, nil
}

// DefaultConfig is the CLI's defaults: the flags' defaults are read from it.
func DefaultConfig() Config {
	return Config{
		InputFormat:  ingest.FormatAuto,
		MaxLineBytes: 16 << 20,
		MaxDocBytes:  256 << 20,
		Workers:      runtime.GOMAXPROCS(0),
		Thresholds:   Thresholds{Values: detect.DefaultPolicy()},
	}
}

// BindThresholds calls bind once per policy field, in the policy's order,
// with the flag name the commands give it (its yaml key, - for _), its
// help and a pointer to its value in values (*int, *int64, *float64 or
// *[]string), so that a command line of any flag library sets every
// threshold by name. ThresholdKey maps a flag name back to its key.
func BindThresholds(values *detect.Policy, bind func(name, help string, value any)) {
	help := map[string]string{}
	for _, p := range detect.Params() {
		h := p.Help
		if p.Source != "" {
			h += " [" + p.Source + "]"
		}
		help[p.Key] = h
	}
	rv := reflect.ValueOf(values).Elem()
	for i := range rv.NumField() {
		key := rv.Type().Field(i).Tag.Get("yaml")
		bind(strings.ReplaceAll(key, "_", "-"), help[key], rv.Field(i).Addr().Interface())
	}
}

// ThresholdKey is the policy key of a flag BindThresholds named, or "".
func ThresholdKey(flagName string) string {
	key := strings.ReplaceAll(flagName, "-", "_")
	for f := range reflect.TypeFor[detect.Policy]().Fields() {
		if f.Tag.Get("yaml") == key {
			return key
		}
	}
	return ""
}
