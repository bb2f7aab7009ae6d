package scanbeam

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/runawayhq/runaway/detect"
)

// Options are the scan's settings.
type Options struct {
	InputFormat string // as runaway scan's --input-format ("" is auto)
	Policy      detect.Policy
	// MaxRunBytes bounds the memory one run's analysis holds: its steps as
	// they crossed the shuffle (about 1.5 KB a step from generated logs)
	// are read into memory before the analysis. A run over it is not
	// analysed: its line says why, and the job goes on.
	MaxRunBytes int64

	// Output is the directory the job writes to (a local path, gs:// or
	// s3://): runs as ndjson (and Parquet) in Shards files, summary.json,
	// runaway.prom and rejects.ndjson.
	Output  string
	Shards  int  // files of runs, each sorted by run id (0: 1)
	Parquet bool // also write the runs as Parquet, sharded as the ndjson
	// Skipped are the files the launcher's listing passed over, as
	// "path: why", for the summary.
	Skipped []string
	// Start is when the job was launched: the prom file's duration runs
	// from it (zero: when Scan was called).
	Start time.Time
}

// DefaultMaxRunBytes is the bound on one run when Options leave it unset:
// about 350,000 steps.
const DefaultMaxRunBytes = 512 << 20

// Register registers the pipeline's functions and types with Beam, which
// needs them by name on the workers. Call it from main (and tests) before
// beam.Init.
func Register() {
	register.DoFn6x1[context.Context, Source, func(string, Rows), func(Dead), func(string), func(string, SpanPart), error](&readFn{})
	register.Function3x1[string, func(*SpanPart) bool, func(string, SpanPart), error](nameSpansFn)
	register.DoFn6x1[context.Context, string, func(*SpanPart) bool, func(string, Rows), func(Dead), func(string), error](&assembleSpansFn{})
	register.DoFn4x1[context.Context, string, func(*Rows) bool, func(int, Analysed), error](&analyseFn{})
	register.DoFn4x1[context.Context, int, func(*Analysed) bool, func(string), error](&writeShardFn{})
	register.DoFn3x1[context.Context, []byte, func(*Dead) bool, error](&writeRejectsFn{})
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&writeSummaryFn{})
	register.Function1x2[int, int, Analysed](seedShard)
	register.Function1x2[string, Source, error](parseSource)
	register.Emitter2[string, Rows]()
	register.Emitter2[string, SpanPart]()
	register.Iter1[SpanPart]()
	register.Emitter2[int, Analysed]()
	register.Emitter1[Dead]()
	register.Emitter1[string]()
	register.Iter1[Rows]()
	register.Iter1[Analysed]()
	register.Iter1[Dead]()
	register.Iter1[string]()
	beam.RegisterType(reflect.TypeFor[Source]())
	beam.RegisterType(reflect.TypeFor[Rows]())
	beam.RegisterType(reflect.TypeFor[Analysed]())
	beam.RegisterType(reflect.TypeFor[Dead]())
	beam.RegisterType(reflect.TypeFor[SpanPart]())
}

// Scan adds the scan of sources to the pipeline, with its outputs:
//
//	read each source (ingest) -> rows keyed by run id -> GroupByKey ->
//	(spans of tracing formats: keyed by trace -> GroupByKey -> named ->
//	keyed by run -> GroupByKey -> steps, joining the rows above) ->
//	analyse each run -> results keyed by shard -> GroupByKey -> write each
//	shard sorted by run id; the summary and the dead letters written once.
//
// Scan writes the list of sources to the output directory (sources.ndjson),
// which the job reads: call it where the job is launched.
func Scan(ctx context.Context, s beam.Scope, sources []Source, opts Options) error {
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = DefaultMaxRunBytes
	}
	opts.Shards = max(opts.Shards, 1)
	if opts.Start.IsZero() {
		opts.Start = time.Now()
	}
	dir := strings.TrimSuffix(opts.Output, "/")
	if err := writeSources(ctx, dir, sources); err != nil {
		return err
	}
	s = s.Scope("runaway.Scan")
	srcs := beam.ParDo(s, parseSource, textio.Read(s, dir+"/"+sourcesFile))
	rows, dead, inputParts, spans := beam.ParDo4(s, &readFn{InputFormat: opts.InputFormat, Policy: opts.Policy}, srcs)
	named := beam.ParDo(s, nameSpansFn, beam.GroupByKey(s, spans))
	spanRows, spanDead, spanParts := beam.ParDo3(s, &assembleSpansFn{Policy: opts.Policy}, beam.GroupByKey(s, named))
	rows = beam.Flatten(s, rows, spanRows)
	dead = beam.Flatten(s, dead, spanDead)
	inputParts = beam.Flatten(s, inputParts, spanParts)
	analysed := beam.ParDo(s, &analyseFn{Policy: opts.Policy, MaxRunBytes: opts.MaxRunBytes, Shards: opts.Shards},
		beam.GroupByKey(s, rows))
	shardKeys := make([]int, opts.Shards)
	for k := range shardKeys {
		shardKeys[k] = k
	}
	seeds := beam.ParDo(s, seedShard, beam.CreateList(s, shardKeys))
	shards := beam.GroupByKey(s, beam.Flatten(s, analysed, seeds))
	runParts := beam.ParDo(s, &writeShardFn{Dir: dir, Shards: opts.Shards, Parquet: opts.Parquet}, shards)
	once := beam.Impulse(s)
	beam.ParDo0(s, &writeRejectsFn{Path: dir + "/rejects.ndjson"}, once, beam.SideInput{Input: dead})
	beam.ParDo0(s, &writeSummaryFn{Dir: dir, Skipped: opts.Skipped, Start: opts.Start.UnixNano()}, once,
		beam.SideInput{Input: beam.Flatten(s, inputParts, runParts)})
	return nil
}

// writeSources writes the sources file the job reads its sources from.
func writeSources(ctx context.Context, dir string, sources []Source) error {
	return writeFile(ctx, dir+"/"+sourcesFile, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, src := range sources {
			if err := enc.Encode(sourceLine{Src: src.Index, File: src.Name, Found: src.Found}); err != nil {
				return err
			}
		}
		return nil
	})
}
