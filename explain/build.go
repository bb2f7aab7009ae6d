package explain

import (
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// Input is what Build needs of one run. Build must be called inside
// runstore.Collector.Visit: Steps is valid only there.
type Input struct {
	Steps  detect.RunSteps
	Result *detect.RunResult
	// Lines are the run's step lines, verbatim, in input order.
	Lines [][]byte
	// Guards are replayed over the run to find the one that would have
	// stopped it (replay.Defaults() for every built-in guard).
	Guards []replay.Guard
	// Redact, if set, replaces args values, the goal and reasons with
	// stable placeholders in everything the model holds, and the secrets
	// of every other string (run id, tools, states, error types, memory).
	Redact report.Redactor
}

// Build makes the post-mortem of one run.
func Build(in Input) *Run {
	r := in.Steps
	res := *in.Result
	run := &Run{RunID: r.ID(), Result: res}
	lines, undecoded := decodeLines(in.Lines)
	run.Undecoded = undecoded
	run.Loop = loopSegment(&res)

	red := newRedaction(in.Redact)
	n := r.Len()
	run.Steps = make([]Step, n)
	j := 0
	for i := 0; i < n; i++ {
		s := &run.Steps[i]
		s.Step = r.Step(i)
		s.TS, s.HasTS = r.TS(i)
		s.State = r.State(i).String()
		s.Tokens, s.CostUSD = r.Tokens(i), r.CostUSD(i)
		s.Progress = r.Progress(i)
		s.InLoop = run.Loop != nil && s.Step >= run.Loop.From && s.Step <= run.Loop.To
		if r.HasCall(i) {
			s.Tool, s.CallKey, s.NormKey = r.Tool(i), r.CallKey(i), r.NormKey(i)
			s.Args = r.ArgsKey(i)
			s.Result.Class = NoResult
			switch {
			case r.IsError(i):
				s.Result = Result{Class: Error, ErrorType: r.ErrorType(i)}
			case r.IsEmpty(i):
				s.Result.Class = Empty
			case r.HasResult(i):
				s.Result.Class = OK
			}
		}
		// The decoded lines are in the analysis's order: walk both.
		for j < len(lines) && *lines[j].step.Step < s.Step {
			j++
		}
		if j < len(lines) && *lines[j].step.Step == s.Step {
			fill(s, &lines[j].step, r.ArgsKey(i), red)
			if run.Goal == "" && lines[j].step.Goal != "" {
				run.Goal = red.text(lines[j].step.Goal)
			}
			j++
		} else if s.Tool != "" {
			s.Args = red.args(s.Tool, s.Args, nil)
		}
		if s.HasTS && !run.HasTS {
			run.FirstTS, run.HasTS = s.TS, true
		}
	}
	run.Result = red.result(res)
	run.Memory = contamination(run)
	run.Guards = replayGuards(in, red)
	run.Guard = chooseGuard(run.Guards, &run.Result)
	run.Rows = fold(run.Steps)
	if in.Redact != nil {
		run = scrubbed(run, in.Redact)
	}
	return run
}

// fill adds to s what only the raw line holds: the state as logged, the
// args as logged, the result's status, memory and the decision.
func fill(s *Step, line *schema.Step, argsKey string, red *redaction) {
	if line.State != "" {
		s.State = strings.TrimSpace(line.State)
	}
	if s.Tool != "" {
		var raw []byte
		if line.ToolCall != nil {
			raw = line.ToolCall.Args
		}
		s.Args = red.args(s.Tool, argsKey, raw)
	}
	if tr := line.ToolResult; tr != nil && tr.Status != nil {
		s.Result.Status, s.Result.HasStatus = *tr.Status, true
	}
	if m := line.Memory; m != nil {
		s.Retrieved = slices.Clone(m.Retrieved)
		s.Written = slices.Clone(m.Written)
		s.WriteTags = slices.Clone(m.WriteTags)
		s.Entries = slices.Clone(m.Entries)
		for _, e := range m.Entries {
			if e.Type != "" && slices.Contains(m.Written, e.ID) && !slices.Contains(s.WriteTags, e.Type) {
				s.WriteTags = append(s.WriteTags, e.Type)
			}
		}
	}
	if d := line.Decision; d != nil {
		s.NextState = d.NextState
		s.Reason = red.text(d.Reason)
	}
}

// loopSegment is the primary finding's segment: from the onset to the end
// of its last step range. nil for a healthy run.
func loopSegment(res *detect.RunResult) *Segment {
	if res.Verdict == detect.Healthy || len(res.Findings) == 0 || res.OnsetStep < 0 {
		return nil
	}
	f := &res.Findings[0]
	seg := &Segment{From: res.OnsetStep, To: res.OnsetStep, Detector: f.Detector}
	for _, sr := range f.Evidence.Steps {
		if sr.To >= seg.From {
			seg.To = max(seg.To, sr.To)
		}
	}
	return seg
}

// contamination reads RA501's finding, if any, and says how the memory was
// written from the step that wrote it.
func contamination(run *Run) *Contamination {
	for _, f := range run.Result.Findings {
		if f.Detector != "RA501" || len(f.Evidence.Keys) == 0 {
			continue
		}
		c := &Contamination{ID: f.Evidence.Keys[0], WrittenAt: -1}
		for _, cnt := range f.Evidence.Counts {
			switch cnt.Name {
			case "written_at_step":
				c.WrittenAt = cnt.Value
			case "retrievals":
				c.Reads = int(cnt.Value)
			case "loop_steps":
				c.LoopSteps = int(cnt.Value)
			}
		}
		for _, s := range run.Steps {
			if s.Step == c.WrittenAt && slices.Contains(s.Written, c.ID) {
				var why []string
				if len(s.WriteTags) > 0 {
					why = append(why, "tagged "+strings.Join(s.WriteTags, ", "))
				}
				for _, e := range s.Entries {
					if e.ID != c.ID {
						continue
					}
					if e.Source != "" {
						why = append(why, "source "+e.Source)
					}
					if e.Confidence != nil {
						why = append(why, "confidence "+strconv.FormatFloat(*e.Confidence, 'g', 3, 64))
					}
				}
				c.Why = strings.Join(why, ", ")
				break
			}
		}
		return c
	}
	return nil
}
