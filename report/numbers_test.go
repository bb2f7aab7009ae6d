package report

import (
	"math"
	"testing"
)

func TestFormatCount(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 1093: "1,093", 261900: "261,900",
		183492013: "183,492,013", -1234567: "-1,234,567", math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := formatCount(n); got != want {
			t.Errorf("formatCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatUSD(t *testing.T) {
	for _, c := range []struct {
		usd  float64
		want string
	}{
		{0, "$0.00"}, {0.004, "$0.00"}, {0.005, "$0.01"}, {4.6281, "$4.63"}, {12.345, "$12.35"},
		{1234567.891, "$1,234,567.89"}, {-3.5, "-$3.50"}, {math.NaN(), "$?"}, {math.Inf(1), "$inf"}, {math.Inf(-1), "-$inf"}, {2.5e18, "$2.5e+18"},
	} {
		if got := formatUSD(c.usd); got != c.want {
			t.Errorf("formatUSD(%v) = %q, want %q", c.usd, got, c.want)
		}
	}
}
