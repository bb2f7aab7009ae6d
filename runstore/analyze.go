package runstore

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/runawayhq/runaway/detect"
)

// AnalyzeBatch analyzes the runs in one record batch (one run's steps, or
// several runs' interleaved) with no state shared with any other call: the
// entry point for engines that group steps by run_id themselves. files names
// the sources that src_file indexes (may be nil).
func AnalyzeBatch(rec arrow.RecordBatch, p detect.Policy, files []string) ([]detect.RunResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := NewCollector(files)
	if err := c.Add(rec); err != nil {
		return nil, err
	}
	return c.Results(p, 1), nil
}
