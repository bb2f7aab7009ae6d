package detect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runawayhq/runaway/schema"
)

// Policy holds every threshold the detectors use. The guides' numbers are
// runtime-guard limits: offline, "suspicious" starts where a guard should
// have stepped in and "runaway" where the pattern kept going well past it.
// Params documents each field with its default and where the number comes from.
type Policy struct {
	// Window is the number of consecutive tool calls within which repeats of
	// one call chain together.
	Window int `yaml:"window"`
	// RepeatSuspicious and RepeatRunaway: identical calls (same tool, args
	// and result) in one chain.
	RepeatSuspicious int `yaml:"repeat_suspicious"`
	RepeatRunaway    int `yaml:"repeat_runaway"`
	// PlanLoopSuspicious and PlanLoopRunaway: consecutive PLAN<->ACT round
	// trips with no progress in between.
	PlanLoopSuspicious int `yaml:"plan_loop_suspicious"`
	PlanLoopRunaway    int `yaml:"plan_loop_runaway"`
	// NoProgressSuspicious and NoProgressRunaway: steps in a row without a
	// progress event.
	NoProgressSuspicious int `yaml:"no_progress_suspicious"`
	NoProgressRunaway    int `yaml:"no_progress_runaway"`
	// PagingSuspicious and PagingRunaway: calls in a row of one tool whose
	// args differ only in their numbers, going back over args already used.
	PagingSuspicious int `yaml:"paging_suspicious"`
	PagingRunaway    int `yaml:"paging_runaway"`
	// PagingThoughtSuspicious and PagingThoughtRunaway: calls in a row of
	// one tool whose args differ only in their numbers, each logging the
	// thought of the call before it.
	PagingThoughtSuspicious int `yaml:"paging_thought_suspicious"`
	PagingThoughtRunaway    int `yaml:"paging_thought_runaway"`
	// NoTerminalTail: steps without progress at the end of a run that never
	// reached STOP.
	NoTerminalTail int `yaml:"no_terminal_tail"`
	// LookOnlySuspicious and LookOnlyRunaway: calls in a row that only
	// read files and search, nothing changed or run.
	LookOnlySuspicious int `yaml:"look_only_suspicious"`
	LookOnlyRunaway    int `yaml:"look_only_runaway"`
	// ErrorStreakSuspicious and ErrorStreakRunaway: failed tool calls in a row.
	ErrorStreakSuspicious int `yaml:"error_streak_suspicious"`
	ErrorStreakRunaway    int `yaml:"error_streak_runaway"`
	// CycleSuspicious and CycleRunaway: repetitions of a cycle of 2-4 calls.
	CycleSuspicious int `yaml:"cycle_suspicious"`
	CycleRunaway    int `yaml:"cycle_runaway"`
	// NonRetryableSuspicious and NonRetryableRunaway: retries of a call that
	// failed with a non-retryable error.
	NonRetryableSuspicious int `yaml:"nonretryable_retries_suspicious"`
	NonRetryableRunaway    int `yaml:"nonretryable_retries_runaway"`
	// BackoffGrowth: a retry after RATE_LIMIT backs off when its gap is at
	// least this multiple of the previous retry's gap.
	BackoffGrowth float64 `yaml:"backoff_growth"`
	// RateLimitSuspicious and RateLimitRunaway: retries after RATE_LIMIT whose
	// gap did not grow.
	RateLimitSuspicious int `yaml:"ratelimit_no_backoff_suspicious"`
	RateLimitRunaway    int `yaml:"ratelimit_no_backoff_runaway"`
	// EmptySuspicious and EmptyRunaway: empty results for one intent without
	// a useful result in between.
	EmptySuspicious int `yaml:"empty_results_suspicious"`
	EmptyRunaway    int `yaml:"empty_results_runaway"`
	// RephrasedSuspicious and RephrasedRunaway: queries in a row to one
	// search tool, each sharing most of its words with the one before.
	RephrasedSuspicious int `yaml:"rephrased_search_suspicious"`
	RephrasedRunaway    int `yaml:"rephrased_search_runaway"`
	// MemoryReadsSuspicious and MemoryReadsRunaway: retrievals of a suspect
	// memory inside a stretch without progress; MemoryShare: the least share
	// of that stretch's steps that retrieved it.
	MemoryReadsSuspicious int     `yaml:"memory_reads_suspicious"`
	MemoryReadsRunaway    int     `yaml:"memory_reads_runaway"`
	MemoryShare           float64 `yaml:"memory_share"`
	// MonologueSuspicious and MonologueRunaway: steps in a row without a
	// tool call that repeat the same decision.
	MonologueSuspicious int `yaml:"monologue_suspicious"`
	MonologueRunaway    int `yaml:"monologue_runaway"`
	// ResultSimilarity: two text results of at least
	// schema.MinSimilarityWords words whose estimated similarity (the
	// cosine of their word-shingle vectors, from SimHash) is at least this
	// are the same answer.
	ResultSimilarity float64 `yaml:"result_similarity"`
	// VolatileKeys are args keys left out when calls are compared for
	// near-duplicates (request ids, timestamps, nonces); nil means
	// schema.DefaultVolatileKeys. Ingest applies them, so the caller passes
	// them to the reader.
	VolatileKeys []string `yaml:"volatile_keys"`
	// BudgetRunawayRatio: a run that used this multiple of any limit ran away;
	// crossing a limit at all is suspicious.
	BudgetRunawayRatio float64 `yaml:"budget_runaway_ratio"`
	// Default budget for runs that log none (0 = no limit). A logged budget wins.
	MaxSteps     int64   `yaml:"max_steps"`
	MaxToolCalls int64   `yaml:"max_tool_calls"`
	MaxTokens    int64   `yaml:"max_tokens"`
	MaxCostUSD   float64 `yaml:"max_cost_usd"`
	MaxSeconds   float64 `yaml:"max_seconds"`
}

// threshold is one policy field: its key, default, bounds and what it is
// for, in one place. DefaultPolicy, Validate, Params (and through it the
// flags, `runaway detectors` and the threshold tables of
// docs/detectors/*.md, which TestGenerated keeps in step) all read this
// table, so a threshold cannot be documented with one default and applied
// with another.
type threshold struct {
	key     string
	def     float64 // the default
	none    bool    // a default of 0 means "no limit"
	min     float64 // the least value that can work
	above   bool    // the value must be above min, not at it
	max     float64 // the most, when above min
	atLeast string  // another key this one must not be below
	source  string  // where the number comes from
	help    string
	field   func(*Policy) any
}

// thresholds lists the policy's numeric fields in a fixed order.
var thresholds = []threshold{
	{key: "window", def: 20, min: 2, source: "guide B ToolCallGuard(size=20)", help: "tool calls within which repeats of one call chain together", field: func(p *Policy) any { return &p.Window }},
	{key: "repeat_suspicious", def: 3, min: 2, source: "guide D ToolLoopBreaker(limit=3); guide B ToolCallGuard(maxRepeat=2) blocks the 3rd", help: "identical calls (same tool, args, result) in a chain: suspicious", field: func(p *Policy) any { return &p.RepeatSuspicious }},
	{key: "repeat_runaway", def: 4, min: 2, atLeast: "repeat_suspicious", source: "OpenHands stuck detector: 4 identical action+observation pairs (Gemini CLI waits for 5 in a row)", help: "identical calls in a chain: runaway", field: func(p *Policy) any { return &p.RepeatRunaway }},
	{key: "plan_loop_suspicious", def: 3, min: 1, source: "guide B: PLAN allowed at most 1 or 2 times", help: "PLAN<->ACT round trips without progress: suspicious", field: func(p *Policy) any { return &p.PlanLoopSuspicious }},
	{key: "plan_loop_runaway", def: 5, min: 1, atLeast: "plan_loop_suspicious", source: "ours: past the guard by two more re-plans", help: "PLAN<->ACT round trips without progress: runaway", field: func(p *Policy) any { return &p.PlanLoopRunaway }},
	{key: "no_progress_suspicious", def: 10, min: 1, source: "guide A: max 10 reasoning steps", help: "steps in a row without a progress event: suspicious", field: func(p *Policy) any { return &p.NoProgressSuspicious }},
	{key: "no_progress_runaway", def: 20, min: 1, atLeast: "no_progress_suspicious", source: "ours: twice guide A's step limit", help: "steps in a row without a progress event: runaway", field: func(p *Policy) any { return &p.NoProgressRunaway }},
	{key: "paging_suspicious", def: 10, min: 2, source: "guide A: max 10 reasoning steps", help: "calls in a row of one tool whose args differ only in their numbers, some repeating an earlier call's: suspicious", field: func(p *Policy) any { return &p.PagingSuspicious }},
	{key: "paging_runaway", def: 20, min: 2, atLeast: "paging_suspicious", source: "ours: twice guide A's step limit", help: "calls in a row of one tool whose args differ only in their numbers, some repeating an earlier call's: runaway", field: func(p *Policy) any { return &p.PagingRunaway }},
	{key: "paging_thought_suspicious", def: 4, min: 2, source: "ours: repeat_runaway's 4 identical calls, as each of these differs only in its numbers", help: "calls in a row of one tool whose args differ only in their numbers, each under the thought of the call before: suspicious", field: func(p *Policy) any { return &p.PagingThoughtSuspicious }},
	{key: "paging_thought_runaway", def: 6, min: 2, atLeast: "paging_thought_suspicious", source: "ours: two past the suspicious count, as monologue_runaway", help: "calls in a row of one tool whose args differ only in their numbers, each under the thought of the call before: runaway", field: func(p *Policy) any { return &p.PagingThoughtRunaway }},
	{key: "no_terminal_tail", def: 5, min: 1, source: "ours: half of no_progress_suspicious", help: "steps without progress at the end of a run without STOP", field: func(p *Policy) any { return &p.NoTerminalTail }},
	{key: "look_only_suspicious", def: 20, min: 1, source: "ours: twice guide A's 10 steps, as reading brings something new each time", help: "calls in a row that only read files or search (an editor's view, a search), nothing changed or run: suspicious", field: func(p *Policy) any { return &p.LookOnlySuspicious }},
	{key: "look_only_runaway", def: 30, min: 1, atLeast: "look_only_suspicious", source: "ours: three times guide A's 10 steps", help: "calls in a row that only read files or search: runaway", field: func(p *Policy) any { return &p.LookOnlyRunaway }},
	{key: "error_streak_suspicious", def: 3, min: 1, source: "guide B: circuit breaker opens after 3 consecutive failures", help: "failed tool calls in a row: suspicious", field: func(p *Policy) any { return &p.ErrorStreakSuspicious }},
	{key: "error_streak_runaway", def: 4, min: 1, atLeast: "error_streak_suspicious", source: "the labelling rubric: a person reading a run calls the same failure coming back 3-4 times, a stretch of about 4 actions, a storm", help: "failed tool calls in a row: runaway", field: func(p *Policy) any { return &p.ErrorStreakRunaway }},
	{key: "cycle_suspicious", def: 3, min: 2, source: "OpenHands stuck detector: A B A B over 6 actions", help: "repetitions of a cycle of 2-16 identical calls: suspicious", field: func(p *Policy) any { return &p.CycleSuspicious }},
	{key: "cycle_runaway", def: 5, min: 2, atLeast: "cycle_suspicious", source: "ours: two turns past the suspicious count", help: "repetitions of a cycle of 2-16 identical calls: runaway", field: func(p *Policy) any { return &p.CycleRunaway }},
	{key: "nonretryable_retries_suspicious", def: 2, min: 1, source: "guide B: SCHEMA_ERROR maxRetries 0; guide D: retryable=false means do not call again", help: "retries of a call after a non-retryable error: suspicious (one retry is tolerated)", field: func(p *Policy) any { return &p.NonRetryableSuspicious }},
	{key: "nonretryable_retries_runaway", def: 4, min: 1, atLeast: "nonretryable_retries_suspicious", source: "ours", help: "retries of a call after a non-retryable error: runaway", field: func(p *Policy) any { return &p.NonRetryableRunaway }},
	{key: "backoff_growth", def: 1.5, min: 1, above: true, source: "guide B and guide D: exponential backoff (x2), less jitter", help: "a retry after RATE_LIMIT backs off when its gap is at least this multiple of the previous gap", field: func(p *Policy) any { return &p.BackoffGrowth }},
	{key: "ratelimit_no_backoff_suspicious", def: 2, min: 1, source: "guide B: RATE_LIMIT maxRetries 2 with backoff", help: "retries after RATE_LIMIT whose gap did not grow: suspicious", field: func(p *Policy) any { return &p.RateLimitSuspicious }},
	{key: "ratelimit_no_backoff_runaway", def: 4, min: 1, atLeast: "ratelimit_no_backoff_suspicious", source: "ours: twice the retry cap", help: "retries after RATE_LIMIT whose gap did not grow: runaway", field: func(p *Policy) any { return &p.RateLimitRunaway }},
	{key: "empty_results_suspicious", def: 3, min: 1, source: "guide A: stop after 2 empty results for one intent", help: "empty results for one intent with no useful result in between: suspicious", field: func(p *Policy) any { return &p.EmptySuspicious }},
	{key: "empty_results_runaway", def: 4, min: 1, atLeast: "empty_results_suspicious", source: "the labelling rubric: searches rephrased and coming back empty over a stretch of about 4 actions", help: "empty results for one intent: runaway", field: func(p *Policy) any { return &p.EmptyRunaway }},
	{key: "rephrased_search_suspicious", def: 5, min: 2, source: "ours: one past the labelling rubric's stuck stretch of about 4 actions, as every query was answered", help: "queries in a row to one search tool, each rephrasing the one before: suspicious", field: func(p *Policy) any { return &p.RephrasedSuspicious }},
	{key: "rephrased_search_runaway", def: 6, min: 2, atLeast: "rephrased_search_suspicious", source: "ours: set on the development runs, where stuck stretches of rephrased web searches ran 6 to 15 queries", help: "queries in a row to one search tool, each rephrasing the one before: runaway", field: func(p *Policy) any { return &p.RephrasedRunaway }},
	{key: "memory_reads_suspicious", def: 3, min: 1, source: "ours: as repeat_suspicious", help: "retrievals of a memory written from inference, a tool error or low confidence, inside a stretch without progress: suspicious", field: func(p *Policy) any { return &p.MemoryReadsSuspicious }},
	{key: "memory_reads_runaway", def: 5, min: 1, atLeast: "memory_reads_suspicious", source: "ours: two past the suspicious count", help: "those retrievals: runaway", field: func(p *Policy) any { return &p.MemoryReadsRunaway }},
	{key: "memory_share", def: 0.5, min: 0, max: 1, source: "ours", help: "the least share of the stretch's steps that retrieved the memory", field: func(p *Policy) any { return &p.MemoryShare }},
	{key: "monologue_suspicious", def: 3, min: 2, source: "OpenHands stuck detector: 3 identical monologue messages", help: "steps in a row without a tool call that repeat the same decision: suspicious", field: func(p *Policy) any { return &p.MonologueSuspicious }},
	{key: "monologue_runaway", def: 5, min: 2, atLeast: "monologue_suspicious", source: "ours: two past the suspicious count", help: "steps in a row without a tool call that repeat the same decision: runaway", field: func(p *Policy) any { return &p.MonologueRunaway }},
	{key: "result_similarity", def: 0.9, min: 0.5, max: 1, source: "ours: 9 of 64 SimHash bits; unrelated texts differ in about 32 (sd 4)", help: "text results of 12 words or more at least this similar (estimated cosine of their word 3-shingles) are the same answer", field: func(p *Policy) any { return &p.ResultSimilarity }},
	{key: "budget_runaway_ratio", def: 1.5, min: 1, source: "ours", help: "usage of a limit at which a budget overrun is runaway (any crossing is suspicious)", field: func(p *Policy) any { return &p.BudgetRunawayRatio }},
	{key: "max_steps", none: true, source: "guide A uses 10, guide C maxIterations 6", help: "budget for runs that log none: steps", field: func(p *Policy) any { return &p.MaxSteps }},
	{key: "max_tool_calls", none: true, source: "guide A uses 6, guide C LoopGuard 10", help: "budget for runs that log none: tool calls", field: func(p *Policy) any { return &p.MaxToolCalls }},
	{key: "max_tokens", none: true, help: "budget for runs that log none: prompt + completion tokens", field: func(p *Policy) any { return &p.MaxTokens }},
	{key: "max_cost_usd", none: true, help: "budget for runs that log none: cost in USD", field: func(p *Policy) any { return &p.MaxCostUSD }},
	{key: "max_seconds", none: true, source: "guide E: hard time limit", help: "budget for runs that log none: seconds from first to last ts", field: func(p *Policy) any { return &p.MaxSeconds }},
}

// volatileKeysParam documents the one policy field that is not a number.
var volatileKeysParam = Param{
	Key: "volatile_keys", Default: strings.Join(schema.DefaultVolatileKeys, ","),
	Source: "ours: ids, timestamps and nonces that change on every call; the agent's words about a call (Claude Code's and Gemini CLI's description, Cursor's explanation)",
	Help:   "args keys ignored (at any depth, any case) when comparing calls for near-duplicates",
}

// value reads a threshold's field of p as a number.
func (t *threshold) value(p *Policy) float64 {
	switch f := t.field(p).(type) {
	case *int:
		return float64(*f)
	case *int64:
		return float64(*f)
	case *float64:
		return *f
	}
	panic("detect: threshold " + t.key + " is not a number")
}

func (t *threshold) set(p *Policy, v float64) {
	switch f := t.field(p).(type) {
	case *int:
		*f = int(v)
	case *int64:
		*f = int64(v)
	case *float64:
		*f = v
	}
}

// DefaultPolicy returns the documented defaults.
func DefaultPolicy() Policy {
	var p Policy
	for i := range thresholds {
		thresholds[i].set(&p, thresholds[i].def)
	}
	return p
}

// Param describes one policy field for docs, `runaway detectors` and flags.
type Param struct {
	Key     string // yaml key and flag name (with - for _)
	Default string
	Source  string
	Help    string
	Used    []string // detector IDs that read it: those whose Params name it
}

// Params lists every policy field in a fixed order: the thresholds, the
// volatile keys after result_similarity.
func Params() []Param {
	var out []Param
	for _, t := range thresholds {
		def := fmt.Sprint(t.def)
		if t.none {
			def = "0 (none)"
		}
		out = append(out, Param{Key: t.key, Default: def, Source: t.source, Help: t.help})
		if t.key == "result_similarity" {
			out = append(out, volatileKeysParam)
		}
	}
	for i := range out {
		for _, d := range Registry {
			if slices.Contains(d.Params, out[i].Key) {
				out[i].Used = append(out[i].Used, d.ID)
			}
		}
	}
	return out
}

// Volatile returns the args keys near-duplicate detection ignores.
func (p Policy) Volatile() []string {
	if p.VolatileKeys == nil {
		return schema.DefaultVolatileKeys
	}
	return p.VolatileKeys
}

// Validate rejects thresholds that cannot work: each within its bounds,
// and each runaway count at least its suspicious one.
func (p *Policy) Validate() error {
	byKey := map[string]*threshold{}
	for i := range thresholds {
		byKey[thresholds[i].key] = &thresholds[i]
	}
	for i := range thresholds {
		t := &thresholds[i]
		v := t.value(p)
		switch {
		case t.max > t.min && (v < t.min || v > t.max):
			return fmt.Errorf("policy: %s must be within %v..%v", t.key, t.min, t.max)
		case t.above && v <= t.min:
			return fmt.Errorf("policy: %s must be > %v", t.key, t.min)
		case v < t.min:
			return fmt.Errorf("policy: %s must be >= %v", t.key, t.min)
		case t.atLeast != "" && v < byKey[t.atLeast].value(p):
			return fmt.Errorf("policy: %s must be >= %s", t.key, t.atLeast)
		}
	}
	return nil
}

// LoadPolicyFile reads a YAML policy file over p. Unknown keys are errors,
// so a typo does not silently keep a default.
func LoadPolicyFile(path string, p *Policy) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return decodePolicy(path, data, p)
}

func decodePolicy(name string, data []byte, p *Policy) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
