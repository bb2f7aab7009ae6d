package main

import (
	"fmt"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

// memoryFlags are --max-memory and --spill-dir of the jobs that analyze
// every run of their input besides scan (replay, eval, fixture
// --all-flagged), which bound memory as a scan does.
type memoryFlags struct {
	maxMemory string
	spillDir  string
}

// bindMemoryFlags adds the flags; what says what the budget bounds.
func bindMemoryFlags(fs *pflag.FlagSet, m *memoryFlags, what string) {
	fs.StringVar(&m.maxMemory, "max-memory", "1GiB", what+" aims to stay under (at least 64MiB), as scan's: input that does not fit spills to --spill-dir, partitioned by run id, and one run holds at most the steps this allows")
	fs.StringVar(&m.spillDir, "spill-dir", "", "existing directory for temporary files: spilled input (default: $TMPDIR or /tmp); they are removed on exit")
}

// memory is the budget the flags give, or a usage error naming the flag.
func (m *memoryFlags) memory() (pipeline.Memory, error) {
	n, err := parseMaxMemory(m.maxMemory)
	return pipeline.Memory{MaxMemory: n, SpillDir: m.spillDir}, err
}

// parseMaxMemory reads a --max-memory size (every command's), or says why
// it is not one, as a usage error.
func parseMaxMemory(s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n < pipeline.MinMemory {
		return 0, &pipeline.UsageError{Err: fmt.Errorf("--max-memory %q: want a size of at least 64MiB, such as 512MiB or 2GiB", s)}
	}
	return int64(n), nil
}
