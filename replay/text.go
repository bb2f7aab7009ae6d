package replay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/report"
)

// sanitize makes text from a log (run ids, tool names, intents in reasons)
// safe for one table cell on a terminal, by the one rule every terminal
// output follows (report.Sanitize). The json format carries the exact
// strings.
func sanitize(s string) string { return report.Sanitize(s) }

// truncate cuts sanitized text to at most max runes, marking the cut with
// "..." (report.Truncate).
func truncate(s string, max int) string { return report.Truncate(s, max) }

// count writes n with thousands separators.
func count(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return sign + b.String()
}

// costOf writes a cost as reports say it: "cost not logged" when no run
// said what it cost, "~$1.23" when some was estimated from list prices.
func costOf(rep *Report, v float64) string {
	switch {
	case !rep.CostLogged:
		return "cost not logged"
	case rep.CostEstimated:
		return "~" + usd(v)
	}
	return usd(v)
}

// savedCost is a guard's saving in the table's column.
func savedCost(rep *Report, saved, of float64) string {
	if !rep.CostLogged {
		return "not logged"
	}
	return costOf(rep, saved) + " (" + percent(saved, of) + ")"
}

// usd writes dollars with cents.
func usd(v float64) string {
	cents := int64(math.Round(v * 100))
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%s.%02d", sign, count(cents/100), cents%100)
}

// percent writes part/whole as a percentage with one decimal; "-" when
// whole is 0.
func percent(part, whole float64) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*part/whole, 'f', 1, 64) + "%"
}

// signed writes a delay with its sign: +1, 0, -3, +1.5.
func signed(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if v > 0 {
		s = "+" + s
	}
	return s
}
