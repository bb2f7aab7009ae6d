package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// callText names the i-th step's call in a reason: tool and args key, the
// form the scan's evidence uses, so the two can be grepped together.
func callText(r detect.RunSteps, i int) string {
	return r.Tool(i) + " " + r.ArgsKey(i)
}

// ordinal writes 1st, 2nd, 3rd, 4th...
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
