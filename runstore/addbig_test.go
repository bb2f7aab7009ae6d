package runstore_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/schema"
	"github.com/runawayhq/runaway/synth"
)

// Add takes a batch longer than a column chunk (64Ki rows) in parts; the
// results must be those of the same rows in ingest's usual batches.
func TestAddOneBatchLongerThanAChunk(t *testing.T) {
	var corpus bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 4000, RunawayRate: 0.2, Seed: 11}, &corpus, nil); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	small := runstore.NewCollector([]string{"corpus.jsonl"})
	var batches []arrow.RecordBatch
	if _, err := ingest.Read(t.Context(), []ingest.Source{source("corpus.jsonl", corpus.String())}, ingest.Options{Alloc: mem, Workers: 1},
		func(rec arrow.RecordBatch) error {
			rec.Retain()
			batches = append(batches, rec)
			return small.Add(rec)
		}); err != nil {
		t.Fatal(err)
	}
	big := concatBatches(t, mem, batches)
	for _, rec := range batches {
		rec.Release()
	}
	defer big.Release()
	if big.NumRows() <= 1<<16 {
		t.Fatalf("the test needs more than 64Ki rows, has %d", big.NumRows())
	}
	one := runstore.NewCollector([]string{"corpus.jsonl"})
	if err := one.Add(big); err != nil {
		t.Fatal(err)
	}
	if one.Rows() != small.Rows() {
		t.Fatalf("%d rows, want %d", one.Rows(), small.Rows())
	}
	if !reflect.DeepEqual(one.Results(detect.DefaultPolicy(), 2), small.Results(detect.DefaultPolicy(), 2)) {
		t.Fatal("one long batch gives other results than ingest's batches")
	}
}

func concatBatches(t *testing.T, mem memory.Allocator, batches []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, len(schema.StepArrowSchema.Fields()))
	for i := range cols {
		parts := make([]arrow.Array, len(batches))
		for j, rec := range batches {
			parts[j] = rec.Column(i)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			t.Fatal(err)
		}
		cols[i] = col
	}
	defer func() {
		for _, col := range cols {
			col.Release()
		}
	}()
	rows := int64(0)
	for _, rec := range batches {
		rows += rec.NumRows()
	}
	return array.NewRecordBatch(schema.StepArrowSchema, cols, rows)
}
