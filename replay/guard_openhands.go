package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// OpenHands is the OpenHands stuck detector (software-agent-sdk
// StuckDetector, also the V0 controller's stuck.py), checked before every
// agent step over the last 20 events of the conversation:
//  1. the last 4 actions are identical and the last 4 observations are
//     identical;
//  2. the last 3 actions are identical and the last 3 observations are
//     errors;
//  3. (monologue: 3 agent messages in a row; not replayed, see below);
//  4. the last 6 actions alternate A B A B A B and so do their
//     observations.
//
// Events: a step with a call is an action and its observation (an error
// observation when the call failed); a step without a call is an agent
// message, which takes a place in the 20-event window but is neither an
// action nor an observation. An action's identity is the call key, an
// observation's the tool, result fingerprint, error and emptiness. OpenHands
// also compares the action's thought text, which the log does not carry, so
// the replay fires at least as often as OpenHands would. The monologue rule
// is not replayed: every step without a call is a message here, so it
// would fire on every PLAN, EVAL, STOP stretch of a healthy run; a model
// repeating itself needs the message text to see. Since the check runs before
// the next step, the run stops at the step after the one that completed the
// pattern.
var OpenHands = &Spec{
	Name:   "openhands",
	Source: "OpenHands StuckDetector: 4 identical action+observation, 3 action+error, A B A B over 6; last 20 events",
	Rule:   "end the run when the last 20 events show a stuck pattern",
	new:    func([]int) stepper { return &openHands{} },
}

// Thresholds of the SDK's StuckDetectionThresholds and its event window.
const (
	ohEvents      = 20
	ohActionObs   = 4
	ohActionError = 3
	ohAlternating = 6
	ohMinEvents   = 3 // min(action_observation, action_error, monologue)
)

// Event kinds.
const (
	ohKindMessage byte = iota
	ohKindAction
	ohKindObs
)

type ohEvent struct {
	kind  byte
	key   uint64 // action: call key; observation: result fingerprint
	tool  string // observation: the tool
	err   bool   // observation: the call failed
	empty bool
	step  int64
}

func (e ohEvent) sameAs(o ohEvent) bool {
	return e.kind == o.kind && e.key == o.key && e.tool == o.tool && e.err == o.err && e.empty == o.empty
}

type openHands struct {
	events   []ohEvent // the last ohEvents events
	pending  string
	acts, os [ohAlternating]ohEvent // scratch for last
}

func (g *openHands) Reset() { g.events = g.events[:0]; g.pending = "" }

func (g *openHands) Step(r detect.RunSteps, i int) (bool, string) {
	if g.pending != "" {
		return true, g.pending
	}
	step := r.Step(i)
	if r.HasCall(i) {
		g.push(ohEvent{kind: ohKindAction, key: r.CallKey(i), step: step})
		if r.HasResult(i) {
			g.push(ohEvent{kind: ohKindObs, key: uint64(r.ResultHash(i)), tool: r.Tool(i), err: r.IsError(i), empty: r.IsEmpty(i), step: step})
		}
	} else {
		g.push(ohEvent{kind: ohKindMessage, step: step})
	}
	g.pending = g.stuck()
	return false, ""
}

func (g *openHands) push(e ohEvent) {
	if len(g.events) == ohEvents {
		copy(g.events, g.events[1:])
		g.events = g.events[:ohEvents-1]
	}
	g.events = append(g.events, e)
}

// last returns the last n events of a kind, newest first, in buf.
func (g *openHands) last(kind byte, n int, buf *[ohAlternating]ohEvent) []ohEvent {
	out := buf[:0]
	for k := len(g.events) - 1; k >= 0 && len(out) < n; k-- {
		if g.events[k].kind == kind {
			out = append(out, g.events[k])
		}
	}
	return out
}

func allSame(es []ohEvent) bool {
	for _, e := range es[1:] {
		if !e.sameAs(es[0]) {
			return false
		}
	}
	return true
}

// stuck applies the rules in the detector's order and returns the reason,
// or "".
func (g *openHands) stuck() string {
	if len(g.events) < ohMinEvents {
		return ""
	}
	acts, obs := g.last(ohKindAction, ohActionObs, &g.acts), g.last(ohKindObs, ohActionObs, &g.os)
	if len(acts) >= ohActionObs && len(obs) >= ohActionObs && allSame(acts) && allSame(obs) {
		return fmt.Sprintf("stuck: %d identical action+observation pairs (steps %d-%d)", ohActionObs, acts[len(acts)-1].step, acts[0].step)
	}
	if len(acts) >= ohActionError && len(obs) >= ohActionError && allSame(acts[:ohActionError]) {
		errs := true
		for _, o := range obs[:ohActionError] {
			errs = errs && o.err
		}
		if errs {
			return fmt.Sprintf("stuck: %d identical actions, each an error (steps %d-%d)", ohActionError, acts[ohActionError-1].step, acts[0].step)
		}
	}
	if len(g.events) >= ohAlternating {
		acts, obs := g.last(ohKindAction, ohAlternating, &g.acts), g.last(ohKindObs, ohAlternating, &g.os)
		if len(acts) == ohAlternating && len(obs) == ohAlternating {
			alt := true
			for k := 0; k+2 < ohAlternating; k++ {
				alt = alt && acts[k].sameAs(acts[k+2]) && obs[k].sameAs(obs[k+2])
			}
			if alt {
				return fmt.Sprintf("stuck: alternating action+observation pattern over %d actions (steps %d-%d)", ohAlternating, acts[ohAlternating-1].step, acts[0].step)
			}
		}
	}
	return ""
}
