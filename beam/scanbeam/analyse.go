package scanbeam

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/schema"
)

// Analysed is one run's outcome on its way to the shard that writes it:
// its result as a run store record (runstore.ResultWriter), or why it was
// not analysed. A Seed is no run: one goes to every shard, so that every
// shard writes its files however few runs there are.
type Analysed struct {
	RunID string
	Rec   []byte
	Error string
	Seed  bool
}

// analyseFn analyses one run from its rows and sends its result to its
// shard.
type analyseFn struct {
	Policy      detect.Policy
	MaxRunBytes int64 // the bound on a run's rows in memory (Options.MaxRunBytes)
	Shards      int
}

func (f *analyseFn) ProcessElement(ctx context.Context, run string, rows func(*Rows) bool, emit func(int, Analysed)) error {
	shard := shardOf(run, f.Shards)
	var parts []Rows
	var r Rows
	held := int64(0)
	for rows(&r) {
		if held += int64(len(r.Msg)); held > f.MaxRunBytes {
			emit(shard, Analysed{RunID: run, Error: fmt.Sprintf("the run's steps are over %d bytes, the bound on one run (--max-run-bytes): not analysed", f.MaxRunBytes)})
			return nil
		}
		parts = append(parts, r)
	}
	// In input order, as the scan adds a run's rows.
	slices.SortFunc(parts, func(a, b Rows) int {
		if a.File != b.File {
			return a.File - b.File
		}
		return int(a.Line - b.Line)
	})
	head, err := stepsSchemaMessage()
	if err != nil {
		return err
	}
	// Read in place: copying the messages into one stream would hold the
	// run's rows twice, against the bound on one run.
	stream := make([]io.Reader, 0, len(parts)+2)
	stream = append(stream, bytes.NewReader(head))
	for _, p := range parts {
		stream = append(stream, bytes.NewReader(p.Msg))
	}
	stream = append(stream, bytes.NewReader(endOfStream))
	mem := memory.NewGoAllocator()
	// The names of the run's sources, by index, for its messages: the
	// others are never named.
	var files []string
	for _, p := range parts {
		if p.File >= len(files) {
			files = append(files, make([]string, p.File+1-len(files))...)
		}
		files[p.File] = p.Name
	}
	c := runstore.NewCollector(files)
	rd, err := ipc.NewReader(io.MultiReader(stream...), ipc.WithAllocator(mem), ipc.WithSchema(schema.StepArrowSchema))
	if err != nil {
		return err
	}
	for rd.Next() {
		if err := c.Add(rd.RecordBatch()); err != nil {
			rd.Release()
			return err
		}
	}
	err = rd.Err()
	rd.Release()
	if err != nil {
		return err
	}
	results := c.Results(f.Policy, 1)
	if len(results) != 1 {
		return fmt.Errorf("run %q: %d results, want 1", run, len(results))
	}
	rec := runstore.EncodeResult(nil, &results[0])
	shuffledResults.Inc(ctx, int64(len(run)+len(rec)))
	emit(shard, Analysed{RunID: run, Rec: rec})
	return nil
}

// shardOf is the shard that writes run's result: a hash of its id, so the
// shards hold about as many runs each, whatever the ids look like.
func shardOf(run string, shards int) int {
	h := fnv.New32a()
	h.Write([]byte(run))
	return int(h.Sum32() % uint32(max(shards, 1)))
}

// seedShard is the seed that makes shard k write its files.
func seedShard(k int) (int, Analysed) { return k, Analysed{Seed: true} }
