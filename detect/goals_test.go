package detect_test

import (
	"fmt"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// A call of an application's own tool seeks the goal in its name: a
// booking refused for its payment total, recalculated between the tries
// and sent again with the first total, is one booking failing, an error
// storm from its first try, at the lower bound of three. The booking sent
// with the total the refusal names goes through, and the run is healthy.
func TestAnApplicationToolRefusedInACircle(t *testing.T) {
	book := func(paid int, ok bool) string {
		res := fmt.Sprintf(`"tool_result":{"ok":false,"error_type":"ERROR","data":"Error: payment amount does not add up, total price is 1002, but paid %d"}`, paid)
		if ok {
			res = `"tool_result":{"ok":true,"data":"{\"reservation_id\":\"K2Q9ZL\",\"status\":\"booked\"}"}`
		}
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"book_reservation","args":{"user_id":"noah_muller_9847","flights":["HAT082","HAT025"],"payment_methods":[{"payment_id":"credit_card_6040264","amount":%d}]}},`, paid) + res
	}
	calc := func(expr string, v int) string {
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"calculate","args":{"expression":%q}},"tool_result":{"ok":true,"data":"%d.0"}`, expr, v)
	}
	for _, c := range []struct {
		name  string
		paid  []int
		calcs []string
		want  detect.Verdict
	}{
		{"in a circle", []int{957, 1047, 957}, []string{"(158 + 161) * 3 + 3 * 30", "(158 + 161) * 3 + 3 * 0"}, detect.Runaway},
		{"to the total it names", []int{957, 1002}, []string{"(158 + 161) * 3 + 45"}, detect.Healthy},
	} {
		r := newRun(c.name)
		r.add(calc("(158 + 161) * 3", 957))
		for k, paid := range c.paid {
			last := k == len(c.paid)-1
			r.add(book(paid, last && c.want == detect.Healthy))
			if !last {
				r.add(`"state":"PLAN","decision":{"reason":"The total the system states differs from mine; recalculate."}`)
				r.add(calc(c.calcs[k], c.paid[k+1]))
			}
		}
		r.add(`"state":"STOP"`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want || (c.want == detect.Runaway && (res.RootCause != detect.CauseErrorStorm || res.OnsetStep != 1)) {
			t.Errorf("%s: %v %v onset %d %+v, want %v", c.name, res.Verdict, res.RootCause, res.OnsetStep, res.Findings, c.want)
		}
	}
}
