package explain

import (
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
)

// redaction applies --redact while the model is built. Evidence, messages
// and guard reasons quote calls as "tool args-key" (detect.RunSteps.ArgsKey):
// each step's call text is recorded with its redacted form, and every such
// string is rewritten by exact replacement, so no args text survives in them
// and the same call reads the same everywhere in the report.
type redaction struct {
	red   report.Redactor // nil: no redaction
	calls map[string]string
	// rep replaces calls; built on first use, once every step is recorded.
	rep *strings.Replacer
}

func newRedaction(red report.Redactor) *redaction {
	return &redaction{red: red, calls: map[string]string{}}
}

func (x *redaction) text(s string) string {
	if x.red == nil || s == "" {
		return s
	}
	return x.red.Text(s)
}

// args renders a call's args for the timeline: the args as logged, short
// (line's, redacted as it was read), else the analysis's key (an args
// hash). Redacted, the call's text in evidence is recorded for replace.
func (x *redaction) args(tool, key string, line *lineDetail) string {
	shown := key
	switch {
	case line != nil && line.hasArgs:
		shown = line.args
	case x.red != nil:
		shown = report.RedactArgs(key, x.red)
	}
	if x.red != nil {
		x.calls[tool+" "+key] = tool + " " + shown
	}
	return shown
}

// replace rewrites the recorded calls in s.
func (x *redaction) replace(s string) string {
	if x.red == nil || len(x.calls) == 0 {
		return s
	}
	if x.rep == nil {
		x.rep = report.NewReplacer(x.calls)
	}
	return x.rep.Replace(s)
}

// result is res with the recorded calls rewritten in its evidence.
func (x *redaction) result(res detect.RunResult) detect.RunResult {
	if x.red == nil {
		return res
	}
	return report.RewriteCallTexts(res, x.replace)
}
