// Package synth generates a deterministic synthetic corpus of agent step
// logs (schema v1 JSONL) with ground-truth labels. It serves two purposes:
// scoring the detectors (verdict, root cause and onset step per run), and
// producing large benchmark corpora.
//
// Healthy runs carry the confounders a naive loop detector trips on
// (pagination, polling, a legitimate re-plan, retries with backoff, volatile
// request ids, long runs, runs close to their budget); runaway runs carry one
// of the six root causes (docs/root-causes.md) after a healthy prefix. docs/synth.md
// describes every pattern, confounder and onset definition.
//
// Files: config.go (Config, causes), generate.go (the writer and run
// planning), pipeline.go (parallel, ordered run building), runs.go (one
// run), healthy.go, confounders.go and patterns.go (what runs do), vocab.go
// and tools.go (scenarios, calls, results), rephrase.go, budget.go, usage.go,
// write.go and json.go (encoding), labels.go.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package synth
