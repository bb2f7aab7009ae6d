package synth

import (
	"math/rand/v2"
	"runtime"
	"sync"
)

// The pipeline builds runs on all CPUs and hands them to the writer in run
// order. The generator plans jobs in order on the writer's goroutine; a
// worker turns a job into encoded lines using only the job and its own
// scratch space, so the bytes are the same whichever worker builds a run.

// built is one run's encoded lines and label.
type built struct {
	index int
	buf   []byte
	ends  []int
	label Label
	err   error
}

type pipeline struct {
	g         *generator
	jobs      chan job
	results   chan *built
	done      chan struct{}
	free      chan []byte // line buffers of written runs, for reuse
	wg        sync.WaitGroup
	lookahead int
	inFlight  int
	nextIndex int // index of the next run the writer takes
	pending   map[int]*built
	exhausted bool
}

func startPipeline(g *generator) *pipeline {
	workers := max(1, runtime.GOMAXPROCS(0))
	p := &pipeline{
		g:         g,
		lookahead: 4 * workers,
		done:      make(chan struct{}),
		pending:   map[int]*built{},
	}
	p.jobs = make(chan job, p.lookahead)
	p.results = make(chan *built, p.lookahead)
	p.free = make(chan []byte, p.lookahead+g.cfg.Interleave)
	for w := 0; w < workers; w++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *pipeline) work() {
	defer p.wg.Done()
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	r := &run{}
	for j := range p.jobs {
		select {
		case <-p.done:
			return
		default:
		}
		pcg.Seed(runSeed(p.g.cfg.Seed, j.index), runStream)
		r.generate(rng, j.index, p.g.idWidth, p.g.startMS, j.runaway, j.cause)
		b := &built{index: j.index, label: r.label}
		var buf []byte
		select {
		case buf = <-p.free:
		default:
		}
		b.buf, b.ends, b.err = r.encode(buf[:0], make([]int, 0, len(r.steps)))
		select {
		case p.results <- b:
		case <-p.done:
			return
		}
	}
}

// next returns the next run in index order, or false when all are built.
func (p *pipeline) next() (*built, bool) {
	for !p.exhausted && p.inFlight < p.lookahead {
		j, ok := p.g.planNext()
		if !ok {
			p.exhausted = true
			break
		}
		p.jobs <- j
		p.inFlight++
	}
	if p.inFlight == 0 {
		return nil, false
	}
	for {
		if b, ok := p.pending[p.nextIndex]; ok {
			delete(p.pending, p.nextIndex)
			p.nextIndex++
			p.inFlight--
			return b, true
		}
		b := <-p.results
		p.pending[b.index] = b
	}
}

// recycle returns a written run's buffer for reuse.
func (p *pipeline) recycle(buf []byte) {
	if buf == nil {
		return
	}
	select {
	case p.free <- buf:
	default:
	}
}

// stop ends the workers; runs built ahead and not taken are dropped.
func (p *pipeline) stop() {
	close(p.done)
	close(p.jobs)
	p.wg.Wait()
}
