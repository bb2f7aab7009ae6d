package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// Guard is a runtime guard replayed over one run at a time. Reset starts a
// new run; Step is called for the run's steps in order (i = 0, 1, ...) until
// it returns stop, and says whether the guard prevents step i: blocks its
// call, or ends the run before it. reason is the guard's message, for the
// report. A guard that acts on a result (a breaker opening on a failure)
// stops the run at the next step: the step it acted on had already run.
type Guard interface {
	Name() string
	Reset()
	Step(r detect.RunSteps, i int) (stop bool, reason string)
}

// Param is one integer parameter of a built-in guard.
type Param struct {
	Name    string
	Default int
	Min     int // smallest accepted value
	Help    string
}

// Spec documents a built-in guard and builds it: data plus a constructor,
// like detect's detectors.
type Spec struct {
	Name string
	// Source is where the guard and its defaults come from (a guide, the product),
	// and Rule what it does, in one line each.
	Source string
	Rule   string
	Params []Param
	// Variants are the parameter sets a replay without --guard runs (and
	// --guard NAME without params); nil means the defaults, once.
	Variants [][]int
	// ShowParams names the guard with its params even at their defaults,
	// for guards whose variants differ only by them (maxturns:n=10).
	ShowParams bool

	new func(p []int) stepper
}

// stepper is a built-in guard's state machine; builtin adds the name.
type stepper interface {
	Reset()
	Step(r detect.RunSteps, i int) (stop bool, reason string)
}

// builtin is a configured built-in guard.
type builtin struct {
	stepper
	spec   *Spec
	values []int
}

func (b *builtin) Name() string {
	var kv []string
	for k, p := range b.spec.Params {
		if b.spec.ShowParams || b.values[k] != p.Default {
			kv = append(kv, p.Name+"="+strconv.Itoa(b.values[k]))
		}
	}
	if len(kv) == 0 {
		return b.spec.Name
	}
	return b.spec.Name + ":" + strings.Join(kv, ",")
}

// Source is the guard's provenance, for reports.
func (b *builtin) Source() string { return b.spec.Source }

// Params returns the guard's parameter values, in the spec's order.
func (b *builtin) Params() []ParamValue {
	out := make([]ParamValue, len(b.values))
	for k, p := range b.spec.Params {
		out[k] = ParamValue{Name: p.Name, Value: b.values[k]}
	}
	return out
}

// ParamValue is one parameter as configured.
type ParamValue struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

func (s *Spec) build(values []int) *builtin {
	return &builtin{stepper: s.new(values), spec: s, values: values}
}

func (s *Spec) defaults() []int {
	v := make([]int, len(s.Params))
	for k, p := range s.Params {
		v[k] = p.Default
	}
	return v
}

// instances is the guard with each of its variants.
func (s *Spec) instances() []Guard {
	if s.Variants == nil {
		return []Guard{s.build(s.defaults())}
	}
	var gs []Guard
	for _, v := range s.Variants {
		gs = append(gs, s.build(append([]int(nil), v...)))
	}
	return gs
}

// Lookup returns the built-in guard spec with this name, or nil.
func Lookup(name string) *Spec {
	for _, s := range Registry {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Names lists the built-in guards, in registry order.
func Names() []string {
	names := make([]string, len(Registry))
	for k, s := range Registry {
		names[k] = s.Name
	}
	return names
}

// Defaults returns every built-in guard with its default variants.
func Defaults() []Guard {
	var gs []Guard
	for _, s := range Registry {
		gs = append(gs, s.instances()...)
	}
	return gs
}

// Parse reads a guard spec, NAME or NAME:param=value,..., strictly: an
// unknown guard or param, a repeated param, or a value that is not an
// integer at or above the param's minimum is an error that lists the valid
// choices. NAME alone gives the guard's default variants (maxturns: three).
func Parse(text string) ([]Guard, error) {
	name, list, hasParams := strings.Cut(text, ":")
	s := Lookup(name)
	if s == nil {
		return nil, fmt.Errorf("unknown guard %q; valid guards: %s", name, strings.Join(Names(), ", "))
	}
	if !hasParams {
		return s.instances(), nil
	}
	if len(s.Params) == 0 {
		return nil, fmt.Errorf("guard %s takes no params (got %q)", s.Name, list)
	}
	values := s.defaults()
	set := make([]bool, len(s.Params))
	for _, item := range strings.Split(list, ",") {
		key, val, ok := strings.Cut(item, "=")
		k := s.param(key)
		switch {
		case !ok || key == "":
			return nil, fmt.Errorf("guard %s: %q: want param=value; %s", s.Name, item, s.paramHelp())
		case k < 0:
			return nil, fmt.Errorf("guard %s: unknown param %q; %s", s.Name, key, s.paramHelp())
		case set[k]:
			return nil, fmt.Errorf("guard %s: param %s given twice", s.Name, key)
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < s.Params[k].Min {
			return nil, fmt.Errorf("guard %s: %s=%q: want an integer >= %d", s.Name, key, val, s.Params[k].Min)
		}
		values[k], set[k] = n, true
	}
	return []Guard{s.build(values)}, nil
}

func (s *Spec) param(name string) int {
	for k, p := range s.Params {
		if p.Name == name {
			return k
		}
	}
	return -1
}

// paramHelp lists the valid params with their defaults.
func (s *Spec) paramHelp() string {
	var ps []string
	for _, p := range s.Params {
		ps = append(ps, fmt.Sprintf("%s (default %d: %s)", p.Name, p.Default, p.Help))
	}
	return "valid params: " + strings.Join(ps, ", ")
}

// Sort orders guards by registry order, then by their params, so a report
// does not depend on the order --guard flags were given in. Guards that are
// not built in come last, by name.
func Sort(gs []Guard) {
	rank := func(g Guard) (int, []int) {
		if b, ok := g.(*builtin); ok {
			for k, s := range Registry {
				if s == b.spec {
					return k, b.values
				}
			}
		}
		return len(Registry), nil
	}
	slices.SortStableFunc(gs, func(a, b Guard) int {
		ra, va := rank(a)
		rb, vb := rank(b)
		return cmp.Or(cmp.Compare(ra, rb), slices.Compare(va, vb), strings.Compare(a.Name(), b.Name()))
	})
}
