package report

import (
	"bufio"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/runawayhq/runaway/detect"
)

// ScanTiming is what the Prometheus file says besides the summary. It is
// not part of Summary because it differs between two scans of the same
// input, and the json document must not.
type ScanTiming struct {
	// Duration is the scan's wall time.
	Duration time.Duration
	// Completed is when the scan finished; required, so that an alert can
	// tell a stale file from a fresh one.
	Completed time.Time
}

// promMetric is one metric family of the Prometheus file.
type promMetric struct {
	name, help string
	series     func(s *Summary, t ScanTiming) []promSample
}

type promSample struct {
	labels []promLabel // sorted by name
	value  float64
}

type promLabel struct{ name, value string }

// promMetrics are the families WriteProm writes, in this order. Every one
// is a gauge: the file describes the last scan, and tomorrow's scan may
// find fewer runs, so a counter (and its _total suffix) would make rate()
// see resets. Families whose label values are known in advance (verdicts,
// the root causes detect lists) have every value, 0 included, so an alert
// never meets a missing series.
var promMetrics = []promMetric{
	{name: "runaway_runs_scanned", help: "Runs analysed by the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.Runs)) }},
	{name: "runaway_runs", help: "Runs of the last scan by verdict.",
		series: func(s *Summary, _ ScanTiming) []promSample {
			return sortedSamples([]promSample{
				{labels: []promLabel{{"verdict", detect.Healthy.String()}}, value: float64(s.Healthy)},
				{labels: []promLabel{{"verdict", detect.Suspicious.String()}}, value: float64(s.Suspicious)},
				{labels: []promLabel{{"verdict", detect.Runaway.String()}}, value: float64(s.Runaway)},
			})
		}},
	{name: "runaway_flagged_runs", help: "Runaway and suspicious runs of the last scan by primary root cause.",
		series: flaggedByRootCause},
	{name: "runaway_wasted_steps", help: "Steps spent after the onset of a loop, over all runs of the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.WastedSteps)) }},
	{name: "runaway_wasted_tokens", help: "Tokens spent after the onset of a loop, over all runs of the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.WastedTokens)) }},
	{name: "runaway_wasted_cost_usd", help: "Cost in US dollars spent after the onset of a loop, over all runs of the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(s.WastedCostUSD) }},
	{name: "runaway_input_files", help: "Input files read to their end by the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.Input.Files)) }},
	{name: "runaway_input_lines_read", help: "Non-blank input lines read by the last scan.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.Input.LinesRead)) }},
	{name: "runaway_input_lines_rejected", help: "Input lines the last scan could not use as a step.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.Input.LinesRejected)) }},
	// Reject kinds are an open set owned by ingest, so only the kinds seen
	// are listed; runaway_input_lines_rejected is the always-present total.
	{name: "runaway_input_lines_rejected_by_kind", help: "Input lines the last scan rejected, by kind of problem.",
		series: func(s *Summary, _ ScanTiming) []promSample {
			var out []promSample
			for kind, n := range s.Input.RejectsByKind {
				out = append(out, promSample{labels: []promLabel{{"kind", kind}}, value: float64(n)})
			}
			return sortedSamples(out)
		}},
	{name: "runaway_input_runs_read_again", help: "Runs that logged again after the last scan had analyzed them as finished, whose steps it read a second time.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(s.Input.RunsReadAgain)) }},
	{name: "runaway_input_sources_failed", help: "Input sources the last scan could not read (--keep-going).",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(float64(len(s.Input.FailedSources))) }},
	{name: "runaway_scan_partial", help: "1 when the last scan skipped sources it could not read, so its counts cover part of the input.",
		series: func(s *Summary, _ ScanTiming) []promSample { return one(boolValue(s.Partial)) }},
	{name: "runaway_scan_duration_seconds", help: "Wall time of the last scan in seconds.",
		series: func(_ *Summary, t ScanTiming) []promSample { return one(t.Duration.Seconds()) }},
	{name: "runaway_scan_completion_timestamp_seconds", help: "When the last scan finished, in seconds since the Unix epoch.",
		series: func(_ *Summary, t ScanTiming) []promSample { return one(float64(t.Completed.UnixMilli()) / 1e3) }},
}

// flaggedByRootCause lists every known root cause twice, once per flagged
// verdict, and any other cause the summary holds: a root cause detect adds
// later still shows up.
func flaggedByRootCause(s *Summary, _ ScanTiming) []promSample {
	causes := map[detect.RootCause]bool{}
	for _, c := range detect.RootCauses {
		causes[c] = true
	}
	for c := range s.ByRootCause {
		causes[c] = true
	}
	var out []promSample
	for c := range causes {
		runaway := s.RunawayByRootCause[c]
		for _, x := range []struct {
			verdict detect.Verdict
			n       int
		}{{detect.Runaway, runaway}, {detect.Suspicious, s.ByRootCause[c] - runaway}} {
			out = append(out, promSample{
				labels: []promLabel{{"root_cause", string(c)}, {"verdict", x.verdict.String()}},
				value:  float64(x.n),
			})
		}
	}
	return sortedSamples(out)
}

func one(v float64) []promSample { return []promSample{{value: v}} }

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sortedSamples orders series by their label values (labels are already in
// name order), so the file is the same whatever order maps gave.
func sortedSamples(s []promSample) []promSample {
	slices.SortFunc(s, func(a, b promSample) int {
		for i := range min(len(a.labels), len(b.labels)) {
			if c := strings.Compare(a.labels[i].value, b.labels[i].value); c != 0 {
				return c
			}
		}
		return len(a.labels) - len(b.labels)
	})
	return s
}

// WriteProm writes the summary of a scan in the Prometheus text exposition
// format 0.0.4, for node_exporter's textfile collector: # HELP and # TYPE
// for every family, series sorted by label, no sample timestamps (the
// collector refuses them; the completion time is a metric instead). The
// same summary and timing give the same bytes.
//
// The collector reads *.prom files whenever it is scraped, so write to a
// temporary name that does not end in .prom and rename it into place, as
// `runaway scan --out` does.
func WriteProm(w io.Writer, s *Summary, t ScanTiming) error {
	if s == nil {
		return errors.New("report: prom: nil summary")
	}
	if t.Completed.IsZero() {
		return errors.New("report: prom: scan completion time not set")
	}
	bw := bufio.NewWriter(w)
	for _, m := range promMetrics {
		bw.WriteString("# HELP " + m.name + " " + escapeHelp(m.help) + "\n")
		bw.WriteString("# TYPE " + m.name + " gauge\n")
		for _, sample := range m.series(s, t) {
			bw.WriteString(m.name)
			if len(sample.labels) > 0 {
				bw.WriteByte('{')
				for i, l := range sample.labels {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l.name + `="` + escapeLabelValue(l.value) + `"`)
				}
				bw.WriteByte('}')
			}
			bw.WriteString(" " + formatPromValue(sample.value) + "\n")
		}
	}
	return bw.Flush()
}

// formatPromValue writes integers without a fraction or exponent (counts,
// whole seconds) and other values in the shortest form that reads back
// exactly, with the format's spellings of the non-finite values.
func formatPromValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string { return helpEscaper.Replace(validUTF8(s)) }

// escapeLabelValue escapes as the format requires. The values come from
// ingest and detect, not from logs, but a kind or cause added there must not
// be able to break the file.
func escapeLabelValue(s string) string { return labelEscaper.Replace(validUTF8(s)) }
