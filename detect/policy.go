package detect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runawayhq/runaway/schema"
)

// Policy holds every threshold the detectors use. The seeds' numbers are
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
	// NoTerminalTail: steps without progress at the end of a run that never
	// reached STOP.
	NoTerminalTail int `yaml:"no_terminal_tail"`
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

// DefaultPolicy returns the documented defaults.
func DefaultPolicy() Policy {
	return Policy{
		Window:                 20,
		RepeatSuspicious:       3,
		RepeatRunaway:          4,
		PlanLoopSuspicious:     3,
		PlanLoopRunaway:        5,
		NoProgressSuspicious:   10,
		NoProgressRunaway:      20,
		NoTerminalTail:         5,
		ErrorStreakSuspicious:  3,
		ErrorStreakRunaway:     5,
		CycleSuspicious:        3,
		CycleRunaway:           5,
		NonRetryableSuspicious: 2,
		NonRetryableRunaway:    4,
		BackoffGrowth:          1.5,
		RateLimitSuspicious:    2,
		RateLimitRunaway:       4,
		EmptySuspicious:        3,
		EmptyRunaway:           5,
		MemoryReadsSuspicious:  3,
		MemoryReadsRunaway:     5,
		MemoryShare:            0.5,
		MonologueSuspicious:    3,
		MonologueRunaway:       5,
		BudgetRunawayRatio:     1.5,
		ResultSimilarity:       0.9,
	}
}

// Param describes one policy field for docs, `runaway detectors` and flags.
type Param struct {
	Key     string // yaml key and flag name (with - for _)
	Default string
	Source  string
	Help    string
	Used    []string // detector IDs that read it
}

// Params lists every policy field in a fixed order.
func Params() []Param {
	d := DefaultPolicy()
	return []Param{
		{"window", fmt.Sprint(d.Window), "seed 001 ToolCallGuard(size=20)", "tool calls within which repeats of one call chain together", []string{"RA101", "RA103"}},
		{"repeat_suspicious", fmt.Sprint(d.RepeatSuspicious), "seed 003 ToolLoopBreaker(limit=3); seed 001 ToolCallGuard(maxRepeat=2) blocks the 3rd", "identical calls (same tool, args, result) in a chain: suspicious", []string{"RA101", "RA103"}},
		{"repeat_runaway", fmt.Sprint(d.RepeatRunaway), "OpenHands stuck detector: 4 identical action+observation pairs (Gemini CLI waits for 5 in a row)", "identical calls in a chain: runaway", []string{"RA101", "RA103"}},
		{"plan_loop_suspicious", fmt.Sprint(d.PlanLoopSuspicious), "seed 001 3-2: PLAN allowed at most 1 or 2 times", "PLAN<->ACT round trips without progress: suspicious", []string{"RA201"}},
		{"plan_loop_runaway", fmt.Sprint(d.PlanLoopRunaway), "ours: past the guard by two more re-plans", "PLAN<->ACT round trips without progress: runaway", []string{"RA201"}},
		{"no_progress_suspicious", fmt.Sprint(d.NoProgressSuspicious), "seed 000: max 10 reasoning steps", "steps in a row without a progress event: suspicious", []string{"RA202"}},
		{"no_progress_runaway", fmt.Sprint(d.NoProgressRunaway), "ours: twice seed 000's step limit", "steps in a row without a progress event: runaway", []string{"RA202"}},
		{"no_terminal_tail", fmt.Sprint(d.NoTerminalTail), "ours: half of no_progress_suspicious", "steps without progress at the end of a run without STOP", []string{"RA203"}},
		{"error_streak_suspicious", fmt.Sprint(d.ErrorStreakSuspicious), "seed 001 4-4: circuit breaker opens after 3 consecutive failures", "failed tool calls in a row: suspicious", []string{"RA301"}},
		{"error_streak_runaway", fmt.Sprint(d.ErrorStreakRunaway), "ours: two failures past the breaker; a person reading a run sees a storm from 3-4 repeats of one failure", "failed tool calls in a row: runaway", []string{"RA301"}},
		{"cycle_suspicious", fmt.Sprint(d.CycleSuspicious), "OpenHands stuck detector: A B A B over 6 actions", "repetitions of a cycle of 2-16 identical calls: suspicious", []string{"RA102"}},
		{"cycle_runaway", fmt.Sprint(d.CycleRunaway), "ours: two turns past the suspicious count", "repetitions of a cycle of 2-16 identical calls: runaway", []string{"RA102"}},
		{"nonretryable_retries_suspicious", fmt.Sprint(d.NonRetryableSuspicious), "seed 001 4-2: SCHEMA_ERROR maxRetries 0; seed 003: retryable=false means do not call again", "retries of a call after a non-retryable error: suspicious (one retry is tolerated)", []string{"RA302"}},
		{"nonretryable_retries_runaway", fmt.Sprint(d.NonRetryableRunaway), "ours", "retries of a call after a non-retryable error: runaway", []string{"RA302"}},
		{"backoff_growth", fmt.Sprint(d.BackoffGrowth), "seed 001 4-2 and seed 003: exponential backoff (x2), less jitter", "a retry after RATE_LIMIT backs off when its gap is at least this multiple of the previous gap", []string{"RA303"}},
		{"ratelimit_no_backoff_suspicious", fmt.Sprint(d.RateLimitSuspicious), "seed 001 4-2: RATE_LIMIT maxRetries 2 with backoff", "retries after RATE_LIMIT whose gap did not grow: suspicious", []string{"RA303"}},
		{"ratelimit_no_backoff_runaway", fmt.Sprint(d.RateLimitRunaway), "ours: twice the retry cap", "retries after RATE_LIMIT whose gap did not grow: runaway", []string{"RA303"}},
		{"empty_results_suspicious", fmt.Sprint(d.EmptySuspicious), "seed 000: stop after 2 empty results for one intent", "empty results for one intent with no useful result in between: suspicious", []string{"RA601"}},
		{"empty_results_runaway", fmt.Sprint(d.EmptyRunaway), "ours", "empty results for one intent: runaway", []string{"RA601"}},
		{"memory_reads_suspicious", fmt.Sprint(d.MemoryReadsSuspicious), "ours: as repeat_suspicious", "retrievals of a memory written from inference, a tool error or low confidence, inside a stretch without progress: suspicious", []string{"RA501"}},
		{"memory_reads_runaway", fmt.Sprint(d.MemoryReadsRunaway), "ours: two past the suspicious count", "those retrievals: runaway", []string{"RA501"}},
		{"memory_share", fmt.Sprint(d.MemoryShare), "ours", "the least share of the stretch's steps that retrieved the memory", []string{"RA501"}},
		{"monologue_suspicious", fmt.Sprint(d.MonologueSuspicious), "OpenHands stuck detector: 3 identical monologue messages", "steps in a row without a tool call that repeat the same decision: suspicious", []string{"RA204"}},
		{"monologue_runaway", fmt.Sprint(d.MonologueRunaway), "ours: two past the suspicious count", "steps in a row without a tool call that repeat the same decision: runaway", []string{"RA204"}},
		{"result_similarity", fmt.Sprint(d.ResultSimilarity), "ours: 9 of 64 SimHash bits; unrelated texts differ in about 32 (sd 4)", "text results of 12 words or more at least this similar (estimated cosine of their word 3-shingles) are the same answer", []string{"RA101", "RA102", "RA103", "RA202"}},
		{"volatile_keys", strings.Join(schema.DefaultVolatileKeys, ","), "ours: ids, timestamps and nonces that change on every call", "args keys ignored (at any depth, any case) when comparing calls for near-duplicates", []string{"RA103"}},
		{"budget_runaway_ratio", fmt.Sprint(d.BudgetRunawayRatio), "ours", "usage of a limit at which a budget overrun is runaway (any crossing is suspicious)", []string{"RA401"}},
		{"max_steps", "0 (none)", "seed 000 uses 10, seed 002 maxIterations 6", "budget for runs that log none: steps", []string{"RA401"}},
		{"max_tool_calls", "0 (none)", "seed 000 uses 6, seed 002 LoopGuard 10", "budget for runs that log none: tool calls", []string{"RA401"}},
		{"max_tokens", "0 (none)", "", "budget for runs that log none: prompt + completion tokens", []string{"RA401"}},
		{"max_cost_usd", "0 (none)", "", "budget for runs that log none: cost in USD", []string{"RA401"}},
		{"max_seconds", "0 (none)", "seed 004: hard time limit", "budget for runs that log none: seconds from first to last ts", []string{"RA401"}},
	}
}

// Volatile returns the args keys near-duplicate detection ignores.
func (p Policy) Volatile() []string {
	if p.VolatileKeys == nil {
		return schema.DefaultVolatileKeys
	}
	return p.VolatileKeys
}

// Validate rejects thresholds that cannot work.
func (p *Policy) Validate() error {
	checks := []struct {
		name string
		ok   bool
	}{
		{"window must be >= 2", p.Window >= 2},
		{"repeat_suspicious must be >= 2", p.RepeatSuspicious >= 2},
		{"repeat_runaway must be >= repeat_suspicious", p.RepeatRunaway >= p.RepeatSuspicious},
		{"plan_loop_suspicious must be >= 1", p.PlanLoopSuspicious >= 1},
		{"plan_loop_runaway must be >= plan_loop_suspicious", p.PlanLoopRunaway >= p.PlanLoopSuspicious},
		{"no_progress_suspicious must be >= 1", p.NoProgressSuspicious >= 1},
		{"no_progress_runaway must be >= no_progress_suspicious", p.NoProgressRunaway >= p.NoProgressSuspicious},
		{"no_terminal_tail must be >= 1", p.NoTerminalTail >= 1},
		{"error_streak_suspicious must be >= 1", p.ErrorStreakSuspicious >= 1},
		{"error_streak_runaway must be >= error_streak_suspicious", p.ErrorStreakRunaway >= p.ErrorStreakSuspicious},
		{"cycle_suspicious must be >= 2", p.CycleSuspicious >= 2},
		{"cycle_runaway must be >= cycle_suspicious", p.CycleRunaway >= p.CycleSuspicious},
		{"nonretryable_retries_suspicious must be >= 1", p.NonRetryableSuspicious >= 1},
		{"nonretryable_retries_runaway must be >= nonretryable_retries_suspicious", p.NonRetryableRunaway >= p.NonRetryableSuspicious},
		{"backoff_growth must be > 1", p.BackoffGrowth > 1},
		{"ratelimit_no_backoff_suspicious must be >= 1", p.RateLimitSuspicious >= 1},
		{"ratelimit_no_backoff_runaway must be >= ratelimit_no_backoff_suspicious", p.RateLimitRunaway >= p.RateLimitSuspicious},
		{"empty_results_suspicious must be >= 1", p.EmptySuspicious >= 1},
		{"empty_results_runaway must be >= empty_results_suspicious", p.EmptyRunaway >= p.EmptySuspicious},
		{"memory_reads_suspicious must be >= 1", p.MemoryReadsSuspicious >= 1},
		{"memory_reads_runaway must be >= memory_reads_suspicious", p.MemoryReadsRunaway >= p.MemoryReadsSuspicious},
		{"memory_share must be within 0..1", p.MemoryShare >= 0 && p.MemoryShare <= 1},
		{"monologue_suspicious must be >= 2", p.MonologueSuspicious >= 2},
		{"monologue_runaway must be >= monologue_suspicious", p.MonologueRunaway >= p.MonologueSuspicious},
		{"budget_runaway_ratio must be >= 1", p.BudgetRunawayRatio >= 1},
		{"result_similarity must be within 0.5..1", p.ResultSimilarity >= 0.5 && p.ResultSimilarity <= 1},
		{"budget limits must not be negative", p.MaxSteps >= 0 && p.MaxToolCalls >= 0 && p.MaxTokens >= 0 && p.MaxCostUSD >= 0 && p.MaxSeconds >= 0},
	}
	for _, c := range checks {
		if !c.ok {
			return fmt.Errorf("policy: %s", c.name)
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
