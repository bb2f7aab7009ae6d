package score

// Thresholds are the minimum figures a CI job accepts; a zero field is not
// checked.
type Thresholds struct {
	Precision     float64
	Recall        float64
	CauseAccuracy float64
	OnsetAccuracy float64
}

// Check is one figure against its threshold.
type Check struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Min   float64 `json:"min"`
	OK    bool    `json:"ok"`
}

// Check compares the report with the thresholds that are set, in a fixed
// order.
func (r Report) Check(t Thresholds) []Check {
	var out []Check
	for _, c := range []Check{
		{Name: "precision", Value: r.Precision, Min: t.Precision},
		{Name: "recall", Value: r.Recall, Min: t.Recall},
		{Name: "root_cause_accuracy", Value: r.RootCauseAccuracy, Min: t.CauseAccuracy},
		{Name: "onset_accuracy", Value: r.OnsetAccuracy, Min: t.OnsetAccuracy},
	} {
		if c.Min > 0 {
			c.OK = c.Value >= c.Min
			out = append(out, c)
		}
	}
	return out
}
