package report

import (
	"math"
	"strconv"
)

// formatCount writes n with thousands separators: a nightly scan reads
// hundreds of millions of lines, and 183492013 is hard to read at a glance.
func formatCount(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	out := make([]byte, 0, len(digits)+len(digits)/3)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	out = append(out, digits[:head]...)
	for i := head; i < len(digits); i += 3 {
		out = append(out, ',')
		out = append(out, digits[i:i+3]...)
	}
	return sign + string(out)
}

// formatUSD writes a cost in dollars with cents, the precision a person acts
// on; the json formats keep the exact float.
func formatUSD(usd float64) string {
	switch {
	case math.IsNaN(usd):
		return "$?"
	case math.IsInf(usd, 1):
		return "$inf"
	case math.IsInf(usd, -1):
		return "-$inf"
	case math.Abs(usd) >= 1e15: // beyond int64 cents arithmetic; absurd anyway
		return "$" + strconv.FormatFloat(usd, 'g', 3, 64)
	}
	cents := int64(math.Round(usd * 100))
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return sign + "$" + formatCount(cents/100) + "." + strconv.FormatInt(100+cents%100, 10)[1:]
}

// plural picks the word for n.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// formatCost writes a cost as a person should read it: "not logged" when
// nothing said what the run cost (never "$0.00"), "~$1.23" when some of it
// was estimated from list prices, else the dollars.
func formatCost(usd float64, logged, estimated bool) string {
	switch {
	case !logged:
		return "cost not logged"
	case estimated:
		return "~" + formatUSD(usd)
	}
	return formatUSD(usd)
}
