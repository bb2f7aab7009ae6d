package explain

import (
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
)

// Input is what Build needs of one run. Build must be called inside
// runstore.Collector.Visit: Steps is valid only there.
type Input struct {
	Steps  detect.RunSteps
	Result *detect.RunResult
	// Lines are what was read of the run's step lines (NewRunLines, with
	// Redact's redactor); nil for none.
	Lines *RunLines
	// Guards are replayed over the run to find the one that would have
	// stopped it (replay.Defaults() for every built-in guard).
	Guards []replay.Guard
	// Redact, if set, replaces args values, the goal and reasons with
	// stable placeholders in everything the model holds, and the secrets
	// of every other string (run id, tools, states, error types, memory).
	Redact report.Redactor
	// NotAnalyzed, if the run went past the most steps one run may hold,
	// says which of its steps were not analysed (Run.NotAnalyzed).
	NotAnalyzed string
}

// Build makes the post-mortem of one run.
func Build(in Input) *Run {
	r := in.Steps
	res := *in.Result
	run := &Run{RunID: r.ID(), Result: res, NotAnalyzed: in.NotAnalyzed}
	lines := in.Lines.order()
	if in.Lines != nil {
		run.Undecoded = in.Lines.undecoded
	}
	run.Loop = loopSegment(&res)

	red := newRedaction(in.Redact)
	// The guards first: a long run shows the recommended one's stop. Their
	// reasons are redacted once every call is recorded, below.
	guards := replayGuards(in)
	guard := chooseGuard(guards, &res)
	n := r.Len()
	shown := shownRanges(n, anchors(r, &res, guard)...)
	count := 0
	for _, w := range shown {
		count += w[1] - w[0]
	}
	run.Steps = make([]Step, 0, count)
	if in.Lines != nil && in.Lines.goal != "" {
		run.Goal = red.text(in.Lines.goal)
	}
	j, w := 0, 0 // the next line (in lines' order) and window
	for i := 0; i < n; i++ {
		step := r.Step(i)
		// The lines are in the analysis's order: walk both.
		for j < len(lines) && lines[j].key.step < step {
			j++
		}
		var line *lineDetail
		if j < len(lines) && lines[j].key.step == step {
			line = &lines[j]
			j++
		}
		if ts, ok := r.TS(i); ok && !run.HasTS {
			run.FirstTS, run.HasTS = ts, true
		}
		for w < len(shown) && i >= shown[w][1] {
			w++
		}
		if w == len(shown) || i < shown[w][0] {
			run.folded(r, i)
			if r.HasCall(i) && red.red != nil {
				red.args(r.Tool(i), r.ArgsKey(i), line) // evidence may quote the call
			}
			continue
		}
		s := Step{Step: step}
		s.TS, s.HasTS = r.TS(i)
		s.State = r.State(i).String()
		s.Tokens, s.CostUSD = r.Tokens(i), r.CostUSD(i)
		s.Progress = r.Progress(i)
		s.InLoop = run.Loop != nil && s.Step >= run.Loop.From && s.Step <= run.Loop.To
		if r.HasCall(i) {
			s.Tool, s.CallKey, s.NormKey, s.ShapeKey = r.Tool(i), r.CallKey(i), r.NormKey(i), r.ShapeKey(i)
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
		if line != nil {
			fill(&s, line, red)
		}
		if s.Tool != "" {
			s.Args = red.args(s.Tool, r.ArgsKey(i), line)
		}
		run.Steps = append(run.Steps, s)
	}
	run.Result = red.result(res)
	for k := range guards {
		guards[k].Reason = red.replace(guards[k].Reason)
	}
	if guard != nil {
		guard.Reason = red.replace(guard.Reason)
	}
	run.Guards, run.Guard = guards, guard
	run.Memory = contamination(run)
	run.Rows = foldShown(run.Steps, run.Gaps)
	if in.Redact != nil {
		run = scrubbed(run, in.Redact)
	}
	return run
}

// folded counts step i, which is not shown, into the gap it is in.
func (run *Run) folded(r detect.RunSteps, i int) {
	step := r.Step(i)
	if k := len(run.Gaps) - 1; k >= 0 && run.Gaps[k].At == len(run.Steps) {
		g := &run.Gaps[k]
		g.Steps++
		g.To = step
		g.InLoop = g.InLoop && run.Loop != nil && step <= run.Loop.To
		return
	}
	run.Gaps = append(run.Gaps, Gap{At: len(run.Steps), Steps: 1, From: step, To: step,
		InLoop: run.Loop != nil && step >= run.Loop.From && step <= run.Loop.To})
}

// fill adds to s what only the line holds: the state as logged, the
// result's status, memory and the decision.
func fill(s *Step, line *lineDetail, red *redaction) {
	if line.state != "" {
		s.State = line.state
	}
	if line.hasStatus {
		s.Result.Status, s.Result.HasStatus = line.status, true
	}
	if m := line.mem; m != nil {
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
	s.Why = line.why
	if line.decision {
		s.NextState = line.next
		s.Reason, s.reasonKey = line.reason, line.reasonKey // redacted when read
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
