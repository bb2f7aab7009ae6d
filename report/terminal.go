package report

import "github.com/runawayhq/runaway/detect"

// The helpers other renderers (runaway explain) share with the table, so
// there is one escaping rule for terminal text and one way to write
// numbers, not a copy per command.

// Sanitize makes a string from an agent's log safe to print on a terminal:
// every control character, invalid byte and bidirectional control becomes
// a visible escape (see sanitize).
func Sanitize(s string) string { return sanitize(s) }

// Truncate cuts sanitized text to at most max runes with "...".
func Truncate(s string, max int) string { return truncate(s, max) }

// FormatCount writes n with thousands separators.
func FormatCount(n int64) string { return formatCount(n) }

// FormatUSD writes dollars rounded to cents.
func FormatUSD(usd float64) string { return formatUSD(usd) }

// FormatCost writes a cost as reports show it: "cost not logged" when
// nothing said what it cost, "~$1.23" when estimated from list prices.
func FormatCost(usd float64, logged, estimated bool) string {
	return formatCost(usd, logged, estimated)
}

// PaintVerdict writes a verdict's word, coloured when color is set.
func PaintVerdict(v detect.Verdict, color bool) string { return paintVerdict(v, color) }
