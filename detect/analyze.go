package detect

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// AnalyzeBatch analyzes the runs in one record batch (one run's steps, or
// several runs' interleaved) with no state shared with any other call: the
// entry point for engines that group steps by run_id themselves. files names
// the sources that src_file indexes (may be nil).
func AnalyzeBatch(rec arrow.RecordBatch, p Policy, files []string) ([]RunResult, error) {
	c, err := NewCollector(p, files)
	if err != nil {
		return nil, err
	}
	if err := c.Add(rec); err != nil {
		return nil, err
	}
	return c.Results(1), nil
}
