package synth

import (
	"bufio"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// Stream constants of the PCG generators. Each concern draws from its own
// stream, so that the interleaving never changes a run's content and a
// run's content depends only on the seed, its index and its label.
const (
	planStream = 0x72756e6177617931 // which runs run away, and why
	mixStream  = 0x72756e6177617932 // which open run writes the next line
	runStream  = 0x72756e6177617933 // the content of one run
)

// minRunBytes is a lower bound on the bytes of one run (at least six steps
// of at least 250 bytes; the smallest seen is 2.5 KB), used to size run ids
// for TargetBytes.
const minRunBytes = 1500

// Generate writes a synthetic corpus of agent step logs to steps (JSONL) and
// its labels to labels (JSONL sorted by run_id; labels may be nil).
//
// Runs are built by worker goroutines a little ahead of the writer and
// taken in index order, so the output does not depend on scheduling. Memory
// depends on Interleave and the number of CPUs, not on the number of runs.
func Generate(cfg Config, steps io.Writer, labels io.Writer) (Summary, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return Summary{}, err
	}
	g := newGenerator(cfg)
	p := startPipeline(g)
	defer p.stop()

	out := bufio.NewWriterSize(steps, 1<<20)
	var lab *bufio.Writer
	if labels != nil {
		lab = bufio.NewWriterSize(labels, 64<<10)
	}
	var labelBuf []byte
	var sum Summary
	var committed int64 // bytes of the runs opened so far

	// fill puts the next run into slot s, or reports that there is none.
	fill := func(s *slot) (bool, error) {
		if cfg.TargetBytes > 0 && committed >= cfg.TargetBytes {
			return false, nil
		}
		b, ok := p.next()
		if !ok {
			return false, nil
		}
		if b.err != nil {
			return false, b.err
		}
		p.recycle(s.buf)
		s.buf, s.ends, s.line, s.pos = b.buf, b.ends, 0, 0
		committed += int64(len(b.buf))
		sum.Runs++
		if b.label.Label == LabelRunaway {
			sum.RunawayRuns++
		}
		if lab != nil {
			labelBuf = appendLabel(labelBuf[:0], &b.label)
			if _, err := lab.Write(labelBuf); err != nil {
				return false, err
			}
		}
		return true, nil
	}

	open := make([]*slot, 0, cfg.Interleave)
	for len(open) < cfg.Interleave {
		s := &slot{}
		ok, err := fill(s)
		if err != nil {
			return sum, err
		}
		if !ok {
			break
		}
		open = append(open, s)
	}
	for len(open) > 0 {
		i := 0
		if len(open) > 1 {
			i = g.mix.IntN(len(open))
		}
		s := open[i]
		end := s.ends[s.line]
		if _, err := out.Write(s.buf[s.pos:end]); err != nil {
			return sum, err
		}
		sum.Lines++
		sum.Bytes += int64(end - s.pos)
		s.pos = end
		s.line++
		if s.line < len(s.ends) {
			continue
		}
		ok, err := fill(s)
		if err != nil {
			return sum, err
		}
		if !ok {
			open[i] = open[len(open)-1]
			open = open[:len(open)-1]
		}
	}
	if err := out.Flush(); err != nil {
		return sum, err
	}
	if lab != nil {
		if err := lab.Flush(); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// slot holds one open run's encoded lines.
type slot struct {
	buf  []byte
	ends []int // end offset of each line in buf
	line int   // next line to write
	pos  int   // its start offset
}

// generator decides, in run order, which runs run away and with which
// cause. Everything else about a run is drawn from the run's own stream.
type generator struct {
	cfg       Config
	plan, mix *rand.Rand
	startMS   int64
	idWidth   int
	next      int // index of the next run to plan

	runawayLeft int      // runaway runs still to place (Runs mode)
	causeBlock  []string // shuffled causes, consumed in order
}

func newGenerator(cfg Config) *generator {
	g := &generator{
		cfg:     cfg,
		plan:    rand.New(rand.NewPCG(cfg.Seed, planStream)),
		mix:     rand.New(rand.NewPCG(cfg.Seed, mixStream)),
		startMS: cfg.Start.UnixMilli(),
	}
	maxRuns := cfg.Runs
	if cfg.TargetBytes > 0 {
		maxRuns = int(cfg.TargetBytes/minRunBytes) + cfg.Interleave
	}
	g.idWidth = max(6, len(strconv.Itoa(max(maxRuns-1, 0))))
	g.runawayLeft = int(math.Round(float64(cfg.Runs) * cfg.RunawayRate))
	return g
}

// job is one run to build.
type job struct {
	index   int
	runaway bool
	cause   string
}

// planNext plans the next run. With TargetBytes there is always a next run;
// the writer stops taking them once enough bytes are written.
func (g *generator) planNext() (job, bool) {
	if g.cfg.TargetBytes <= 0 && g.next >= g.cfg.Runs {
		return job{}, false
	}
	j := job{index: g.next}
	g.next++
	j.runaway = g.isRunaway(j.index)
	if j.runaway {
		j.cause = g.nextCause()
	}
	return j, true
}

// isRunaway places exactly round(Runs*RunawayRate) runaway runs, uniformly
// at random (selection sampling: each run is picked with probability
// needed/remaining). With TargetBytes the number of runs is not known in
// advance, so each run is runaway with probability RunawayRate.
func (g *generator) isRunaway(index int) bool {
	if g.cfg.TargetBytes > 0 {
		return g.plan.Float64() < g.cfg.RunawayRate
	}
	remaining := g.cfg.Runs - index
	if g.runawayLeft <= 0 || remaining <= 0 {
		return false
	}
	if g.plan.IntN(remaining) < g.runawayLeft {
		g.runawayLeft--
		return true
	}
	return false
}

// nextCause deals causes from shuffled blocks of all configured causes, so
// each cause gets an equal share (within one) whatever the count.
func (g *generator) nextCause() string {
	if len(g.causeBlock) == 0 {
		g.causeBlock = append([]string(nil), g.cfg.Causes...)
		g.plan.Shuffle(len(g.causeBlock), func(i, j int) {
			g.causeBlock[i], g.causeBlock[j] = g.causeBlock[j], g.causeBlock[i]
		})
	}
	c := g.causeBlock[0]
	g.causeBlock = g.causeBlock[1:]
	return c
}

// runSeed is the seed of run index's stream.
func runSeed(seed uint64, index int) uint64 { return splitmix64(seed ^ splitmix64(uint64(index))) }

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
