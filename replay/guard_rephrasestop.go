package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// RephraseStop is the guard RA602's report recommends, runaway's own: count
// the queries in a row to one search tool that ask again the question of
// the ones before (schema.RephrasesQuery), and at the n-th end the run, to
// answer from what was found or ask the user. A query with the words of the
// one before (another page) is not counted; any other call starts again.
// The guides have no such guard: their searches that keep answering are
// stopped by a call or step cap only.
var RephraseStop = &Spec{
	Name:   "rephrase-stop",
	Source: "runaway: the fix RA602 recommends (one question searched again and again in new words)",
	Rule:   "end the run at the n-th query in a row to one search tool asking one question in new words",
	Params: []Param{{Name: "n", Default: 4, Min: 2, Help: "queries in a row asking one question that end the run"}},
	new:    func(p []int) stepper { return &rephraseStop{n: p[0]} },
}

type rephraseStop struct {
	n           int
	tool        string
	prev, words uint64
	prevShape   uint32
	asked       int // times the question was asked in new words, 0 with no query open
}

func (g *rephraseStop) Reset() { g.tool, g.prev, g.words, g.prevShape, g.asked = "", 0, 0, 0, 0 }

func (g *rephraseStop) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	w, ok := r.QueryWords(i)
	if !ok {
		g.asked = 0 // another call: the agent did something with what it found
		return false, ""
	}
	tool, shape := r.Tool(i), r.ShapeKey(i)
	switch {
	case g.asked > 0 && tool == g.tool && w == g.prev && shape == g.prevShape:
		return false, "" // the same question in the same words: another page, or sent again
	case g.asked > 0 && tool == g.tool && schema.RephrasesQuery(w, g.prev, g.words):
		g.asked++
		g.prev, g.words, g.prevShape = w, g.words|w, shape
	default:
		g.tool, g.prev, g.words, g.prevShape, g.asked = tool, w, w, shape, 1
	}
	if g.asked >= g.n {
		return true, fmt.Sprintf("%s asked one question %s time in a row in new words", callText(r, i), ordinal(g.asked))
	}
	return false, ""
}
