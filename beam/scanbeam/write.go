package scanbeam

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
)

// part is a piece of the summary, as JSON: what one source read (Src), or
// what one shard's runs count (Shard, Runs).
type part struct {
	Src    int                `json:"src"`
	Input  *report.InputStats `json:"input,omitempty"`
	Failed []string           `json:"failed,omitempty"` // sources that could not be read
	Unread []string           `json:"unread,omitempty"` // sources that gave no step
	// Skipped are found sources that hold no log (pipeline.PassOverNonLogs).
	Skipped []string `json:"skipped,omitempty"`

	Shard       int                 `json:"shard"`
	Runs        *report.SummaryPart `json:"runs,omitempty"`
	Duplicates  int64               `json:"duplicates,omitempty"`
	Conflicts   int64               `json:"conflicts,omitempty"`
	NotAnalysed []string            `json:"not_analysed,omitempty"` // "run ID: why"
}

func (p part) json() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// shardName is the name of shard k's file of runs: runs.EXT when there is
// one shard, else runs-00003-of-00016.EXT.
func shardName(dir string, k, shards int, ext string) string {
	if shards == 1 {
		return dir + "/runs." + ext
	}
	return fmt.Sprintf("%s/runs-%05d-of-%05d.%s", dir, k, shards, ext)
}

// writeShardFn writes one shard's runs, sorted by run id, as ndjson (and
// Parquet), the lines and rows `runaway scan` writes for them, and emits
// the shard's part of the summary.
type writeShardFn struct {
	Dir     string
	Shards  int
	Parquet bool
}

func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, runs func(*Analysed) bool, parts func(string)) error {
	var all []Analysed
	var a Analysed
	for runs(&a) {
		if !a.Seed {
			all = append(all, a)
		}
	}
	slices.SortFunc(all, func(a, b Analysed) int { return strings.Compare(a.RunID, b.RunID) })
	var (
		sum  report.Summarizer
		p    = part{Src: -1, Shard: shard}
		res  detect.RunResult
		pqrw *report.ParquetWriter
	)
	var pqFile *committer
	if f.Parquet {
		var err error
		if pqFile, err = create(ctx, shardName(f.Dir, shard, f.Shards, "parquet")); err != nil {
			return err
		}
		defer pqFile.abort()
		if pqrw, err = report.NewParquetWriter(pqFile.w); err != nil {
			return err
		}
	}
	nd, err := create(ctx, shardName(f.Dir, shard, f.Shards, "ndjson"))
	if err != nil {
		return err
	}
	defer nd.abort()
	for i := range all {
		a := &all[i]
		if a.Error != "" {
			if _, err := nd.w.WriteString(runError(a.RunID, a.Error) + "\n"); err != nil {
				return err
			}
			p.NotAnalysed = append(p.NotAnalysed, fmt.Sprintf("run %q: %s", a.RunID, a.Error))
			continue
		}
		if err := runstore.DecodeResult(a.Rec, &res); err != nil {
			return fmt.Errorf("run %q: %w", a.RunID, err)
		}
		if err := report.WriteRunNDJSON(nd.w, &res); err != nil {
			return err
		}
		if pqrw != nil {
			if err := pqrw.Write(&res); err != nil {
				return err
			}
		}
		sum.Add(&res)
		p.Duplicates += res.DuplicateSteps
		p.Conflicts += res.ConflictingSteps
	}
	if pqrw != nil {
		if err := pqrw.Close(); err != nil {
			return err
		}
		if err := pqFile.commit(ctx); err != nil {
			return err
		}
	}
	if err := nd.commit(ctx); err != nil {
		return err
	}
	sp := sum.Part()
	p.Runs = &sp
	parts(p.json())
	return nil
}

// runError is the line of a run that could not be analysed: its id and
// why, in place of its result, so that the job goes on.
func runError(run, why string) string {
	b, _ := json.Marshal(struct {
		RunID string `json:"run_id"`
		Error string `json:"error"`
	}{run, why})
	return string(b)
}

// writeRejectsFn writes the dead letters, ordered by source and line, to
// one file: it runs once (on an impulse) with the dead letters as its side
// input, so the file is written, empty, when nothing was rejected.
type writeRejectsFn struct {
	Path string
}

func (f *writeRejectsFn) ProcessElement(ctx context.Context, _ []byte, dead func(*Dead) bool) error {
	var all []Dead
	var d Dead
	for dead(&d) {
		all = append(all, d)
	}
	slices.SortFunc(all, func(a, b Dead) int {
		return cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Line, b.Line), strings.Compare(a.JSON, b.JSON))
	})
	out, err := create(ctx, f.Path)
	if err != nil {
		return err
	}
	defer out.abort()
	for _, d := range all {
		if _, err := out.w.WriteString(d.JSON + "\n"); err != nil {
			return err
		}
	}
	return out.commit(ctx)
}

// writeSummaryFn merges the parts into the scan's summary and writes it as
// the json document without its runs (summary.json) and as the Prometheus
// textfile (runaway.prom), as `runaway scan` writes them.
type writeSummaryFn struct {
	Dir     string
	Skipped []string // files the launcher's listing passed over, as "path: why"
	Start   int64    // when the job was launched, unix nanoseconds: the prom file's duration
}

func (f *writeSummaryFn) ProcessElement(ctx context.Context, _ []byte, parts func(*string) bool) error {
	var all []part
	var s string
	for parts(&s) {
		var p part
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			return fmt.Errorf("a part of the summary: %w", err)
		}
		all = append(all, p)
	}
	// Sources in their order, then shards: merged in a fixed order.
	slices.SortFunc(all, func(a, b part) int { return cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Shard, b.Shard)) })
	var (
		in          report.InputStats
		sum         report.Summarizer
		failed      []string
		unread      []string
		notAnalysed []string
		skipped     = slices.Clone(f.Skipped)
	)
	for _, p := range all {
		if p.Input != nil {
			in.Merge(p.Input)
		}
		failed = append(failed, p.Failed...)
		unread = append(unread, p.Unread...)
		skipped = append(skipped, p.Skipped...)
		if p.Runs != nil {
			sum.Merge(*p.Runs)
		}
		in.DuplicateSteps += p.Duplicates
		in.ConflictingSteps += p.Conflicts
		notAnalysed = append(notAnalysed, p.NotAnalysed...)
	}
	// Sorted, as the scan sorts them: the order the sources were named
	// in must not change the summary.
	if all := slices.Concat(failed, unread, notAnalysed); len(all) > 0 {
		in.FailedSources = slices.Sorted(slices.Values(all))
	}
	if len(skipped) > 0 {
		in.SkippedFiles = slices.Sorted(slices.Values(skipped))
	}
	summary := sum.Summary(in)
	if err := writeFile(ctx, f.Dir+"/summary.json", func(w io.Writer) error { return report.WriteSummaryJSON(w, summary) }); err != nil {
		return err
	}
	now := time.Now()
	timing := report.ScanTiming{Duration: now.Sub(time.Unix(0, f.Start)), Completed: now}
	return writeFile(ctx, f.Dir+"/runaway.prom", func(w io.Writer) error { return report.WriteProm(w, &summary, timing) })
}

// committer writes one output file so that nothing is seen at its path
// before commit: a local file is written under a temporary name and
// renamed; an object store shows an object once its upload completes.
type committer struct {
	fs     filesystem.Interface
	path   string
	tmp    string // "" when written in place
	file   io.WriteCloser
	w      *bufio.Writer
	cancel context.CancelFunc // abandons an upload: closing one would commit it
	closed bool
}

func create(ctx context.Context, path string) (*committer, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	c := &committer{fs: fs, path: path, cancel: cancel}
	name := path
	if _, ok := fs.(filesystem.Renamer); ok && !strings.Contains(path, "://") {
		var r [8]byte
		_, _ = rand.Read(r[:])
		c.tmp = path + ".tmp-" + hex.EncodeToString(r[:])
		name = c.tmp
	}
	if c.file, err = fs.OpenWrite(wctx, name); err != nil {
		cancel()
		fs.Close()
		return nil, err
	}
	c.w = bufio.NewWriterSize(c.file, 64<<10)
	return c, nil
}

func (c *committer) commit(ctx context.Context) error {
	c.closed = true
	defer c.fs.Close()
	defer c.cancel()
	err := c.w.Flush()
	if cerr := c.file.Close(); err == nil {
		err = cerr
	}
	if err == nil && c.tmp != "" {
		err = c.fs.(filesystem.Renamer).Rename(ctx, c.tmp, c.path)
	}
	if err != nil && c.tmp != "" {
		c.removeTmp(ctx)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", c.path, err)
	}
	return nil
}

// abort drops the file when commit was not reached.
func (c *committer) abort() {
	if c.closed {
		return
	}
	c.closed = true
	c.cancel()
	_ = c.file.Close()
	if c.tmp != "" {
		c.removeTmp(context.Background())
	}
	c.fs.Close()
}

func (c *committer) removeTmp(ctx context.Context) {
	if rm, ok := c.fs.(filesystem.Remover); ok {
		_ = rm.Remove(ctx, c.tmp)
	}
}

// writeFile writes one output file with write, committed as create says.
func writeFile(ctx context.Context, path string, write func(io.Writer) error) error {
	c, err := create(ctx, path)
	if err != nil {
		return err
	}
	defer c.abort()
	if err := write(c.w); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return c.commit(ctx)
}
