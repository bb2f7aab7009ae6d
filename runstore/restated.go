package runstore

import (
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// talkAgentMark is schema.TalkAgentMark as the side table holds it.
var talkAgentMark = fold32(schema.IDHash(schema.TalkAgentMark))

// talkShortMark is schema.TalkShortMark as the side table holds it.
var talkShortMark = fold32(schema.IDHash(schema.TalkShortMark))

// restatedSimilarity is how alike two turns of one agent to another must
// be to make one point: the share of their words (schema.AgentTurnWords)
// the two have in common, of all the words either says (Jaccard). A
// reviewer restating a comment in new words ("The code is missing the
// import of tkinter" and "The code seems to be missing the import
// statement for tkinter in main.py") shares half its words or more with
// the first; two comments on different points of the same code share a
// quarter or less: the words of the code and the task are common to both,
// the point is not.
const restatedSimilarity = 0.5

// answeredSimilarity is how alike a turn must be to the turn of another
// agent just before it to take up its point (detect.Run.Answered): a
// quarter of their words in common. Two agents going round one point do
// not begin word for word: the chief executive proposes, the other agrees
// and says the plan back with a few words of its own (a quarter to a half
// of their words shared, on the labelled ChatDev runs of the development
// split), and only then do their turns settle into saying it again. It
// moves where an echo chain began, never what it counts.
const answeredSimilarity = 1.0 / 4

// maxPastTurns bounds how many earlier turns of one agent to another a
// turn is compared with: the most recent ones, through which a chain of
// restatements keeps the turn that first made the point.
const maxPastTurns = 64

// pastTurn is a turn of one agent to another already read: the turn that
// first made its point (itself, or the one it restates), and its words,
// sorted.
type pastTurn struct {
	at    int // the turn's index
	first int
	words []uint32
}

// markRestated fills detect.Run.Restated: for each turn one of the run's
// agents addressed to another (talk_words opened by talkAgentMark), the
// first earlier turn of the same agent to the same agent that it makes
// the same point as (restatedSimilarity), through the turns that restated
// it; -1 for every other step. It fills Echoed likewise: for each such
// turn, the turn read just before it when another pair of agents said it
// (the other agent answering) and it makes the same point, and Answered
// for such a turn that takes up that turn's point (answeredSimilarity),
// and ShortTurn for a turn of a few words (talkShortMark). A run without
// such turns gets an empty Restated, Echoed, Answered and ShortTurn, which
// say none restates another. talk is the run's talk_words in step order.
func markRestated(v *runView, talk []valueAt) {
	v.Restated, v.Echoed, v.Answered, v.ShortTurn = v.Restated[:0], v.Echoed[:0], v.Answered[:0], v.ShortTurn[:0]
	var byPair, shortByPair map[uint32][]pastTurn
	lastAt, lastPair := -1, uint32(0) // the turn read last, and its pair of agents
	var lastWords []uint32
	for k := 0; k < len(talk); {
		i, end := talk[k].i, k
		for end < len(talk) && talk[end].i == i {
			end++
		}
		turn := talk[k:end]
		k = end
		if len(turn) < 3 || turn[0].val != talkAgentMark {
			continue
		}
		short := len(turn) > 3 && turn[2].val == talkShortMark
		from := 2
		if short {
			from = 3
		}
		words := make([]uint32, 0, len(turn)-from)
		for _, w := range turn[from:] {
			words = append(words, w.val)
		}
		slices.Sort(words)
		words = slices.Compact(words)
		if byPair == nil {
			byPair = map[uint32][]pastTurn{}
			v.Restated, v.Echoed, v.Answered = resize(v.Restated, v.Len()), resize(v.Echoed, v.Len()), resize(v.Answered, v.Len())
			v.ShortTurn = resize(v.ShortTurn, v.Len())
			for j := range v.Restated {
				v.Restated[j], v.Echoed[j], v.Answered[j], v.ShortTurn[j] = -1, -1, -1, false
			}
		}
		pair := turn[1].val
		if short {
			// A turn of a few words makes its point again only word for
			// word, in the same discussion: no plan or instruction between.
			v.ShortTurn[i] = true
			first := i
			past := shortByPair[pair]
			if len(past) > 0 {
				// Turns before the discussion's opening are another's.
				if plan := lastPlanBefore(v, i, past[0].at); plan >= 0 {
					after := slices.IndexFunc(past, func(t pastTurn) bool { return t.at > plan })
					if after < 0 {
						after = len(past)
					}
					past = past[after:]
				}
			}
			for k := len(past) - 1; k >= 0; k-- {
				if slices.Equal(past[k].words, words) {
					first = past[k].first
					v.Restated[i] = int32(first)
					break
				}
			}
			if len(past) == maxPastTurns {
				past = past[1:]
			}
			if shortByPair == nil {
				shortByPair = map[uint32][]pastTurn{}
			}
			shortByPair[pair] = append(past, pastTurn{at: i, first: first, words: words})
			continue
		}
		if lastAt >= 0 && lastPair != pair {
			switch sim := jaccard(lastWords, words); {
			case sim >= restatedSimilarity:
				v.Echoed[i] = int32(lastAt)
				v.Answered[i] = int32(lastAt)
			case sim >= answeredSimilarity:
				v.Answered[i] = int32(lastAt)
			}
		}
		lastAt, lastPair, lastWords = i, pair, words
		past := byPair[pair]
		first := i
		for _, p := range past {
			if jaccard(p.words, words) >= restatedSimilarity {
				first = p.first
				v.Restated[i] = int32(first)
				break
			}
		}
		if len(past) == maxPastTurns {
			past = past[1:]
		}
		byPair[pair] = append(past, pastTurn{at: i, first: first, words: words})
	}
}

// jaccard is the share of the values of two sorted sets that both hold.
func jaccard(a, b []uint32) float64 {
	both := 0
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] == b[y]:
			both++
			x++
			y++
		case a[x] < b[y]:
			x++
		default:
			y++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

// lastPlanBefore is the last step before i, and after from, in the PLAN
// state (an instruction opening another discussion, or an agent planning,
// ends the one a turn of a few words belonged to); -1 when there is none.
func lastPlanBefore(v *runView, i, from int) int {
	for k := i - 1; k > from; k-- {
		if v.State[k] == schema.StatePlan {
			return k
		}
	}
	return -1
}
