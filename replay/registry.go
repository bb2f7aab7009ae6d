package replay

// Registry lists the built-in guards, sorted by name. It is explicit on
// purpose, like detect.Registry: what runs is what is listed here.
// docs/replay.md has a section per guard.
var Registry = []*Spec{
	Breaker,
	CrewAI,
	Dedup,
	EmptyStop,
	Gemini,
	LoopGuard,
	MaxCalls,
	MaxSteps,
	MaxTurns,
	OpenHands,
	RephraseStop,
	ToolCallGuard,
	ToolLoopBreaker,
}
