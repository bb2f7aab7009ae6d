package synth

// model is the LLM a run used, with list prices in USD per million tokens.
// The name is not logged (schema v1 has no field for it); it sets the cost
// per token and the context window, so cost_usd differs between runs with
// the same token counts, as it does in real logs.
type model struct {
	name          string
	inPerM        float64
	outPerM       float64
	contextWindow int64
}

var models = []model{
	{"gpt-4o", 2.50, 10.00, 128_000},
	{"gpt-4o-mini", 0.15, 0.60, 128_000},
	{"gpt-4.1", 2.00, 8.00, 200_000},
	{"claude-sonnet-4", 3.00, 15.00, 200_000},
	{"claude-haiku-3.5", 0.80, 4.00, 200_000},
	{"llama-3.1-70b", 0.60, 0.80, 64_000},
}

func (m model) cost(prompt, completion int64) float64 {
	return (float64(prompt)*m.inPerM + float64(completion)*m.outPerM) / 1e6
}

// Completion tokens by state: plans and final answers are long, tool calls
// short (the call JSON and a line of reasoning).
func (r *run) completionTokens(state string) int64 {
	switch state {
	case statePlan:
		return r.between(150, 520)
	case stateAct:
		return r.between(35, 140)
	case stateEval:
		return r.between(60, 260)
	case stateRecover:
		return r.between(40, 160)
	default: // STOP writes the answer
		return r.between(180, 720)
	}
}

// contextGrowth is how many tokens a step adds to the prompt of the steps
// after it: its completion, and the tool output the agent read. The logged
// result is a summary; the agent saw the full page or rows, a few times
// larger.
func (r *run) contextGrowth(s *step) int64 {
	g := s.completion + 20*int64(len(s.retrieved))
	if len(s.result) > 0 {
		g += int64(len(s.result)) * r.between(1, 4)
		if s.tool == "fetch_url" || s.tool == "read_file" {
			g += r.between(300, 1500)
		}
	}
	return g
}
