package runstore_test

import (
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/runtest"
	"github.com/runawayhq/runaway/runstore"
)

// source and collect run JSONL through the real read path (runtest).
var source = runtest.Source

func collect(t *testing.T, p detect.Policy, texts ...string) *runstore.Collector {
	t.Helper()
	return runtest.Collect(t, p, texts...)
}
