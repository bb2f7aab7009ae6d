package schema

import (
	"bytes"
	"io"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/runawayhq/runaway/internal/jsontok"
)

// A query is a call that asks a search tool a question in words: a web
// search, a retrieval, a lookup of which tool to use. What such a tool
// answers changes by itself (a new ad, another ranking), so whether it
// answered is not told by its bytes; an agent that asks the same question
// again in new words, call after call, shows that the answers did not
// serve it. The word signature of a query's question (QueryWords, kept as
// the args' ArgsDigest.Words) is what that comparison reads.

// queryKeys are the argument names search tools take their question
// under (Tavily, DuckDuckGo and most LangChain tools: query; Serper as
// CrewAI calls it: search_query; SerpAPI: q).
var queryKeys = []string{"query", "q", "search_query", "search_term", "search", "keywords"}

// IsQuery reports whether a call of tool with the JSON args is a query:
// its args are an object with a string under one of queryKeys, or the tool
// is named as a search tool ("search", "lookup" in its name) and its args
// are an object of exactly one member, a string. A structured lookup (an
// origin, a destination and a date) is no question in words, and a shell
// command is not either. The question's words alone (QueryArgs.Words, as
// ArgsDigest.Words of that one string) are what a query is compared by:
// the other args of a search (the index, the service, a date range) say
// where it looks, not what it asks. Ingest reads the same through
// ReadQueryArgs, once per distinct args.
func IsQuery(tool string, args []byte) bool {
	if !SearchToolName(tool) && !QueryKeyQuoted(args) {
		return false // a quick look: nothing to read
	}
	_, ok := ReadQueryArgs(args).Words(tool)
	return ok
}

// QueryArgs is what args say of a call being a query, whatever its tool:
// a reader that sees the same args again keeps it beside them.
type QueryArgs struct {
	// ByKey: a string under one of queryKeys, whose words are KeyWords.
	ByKey    bool
	KeyWords uint64
	// OneString: the args are an object of one member, a string, whose
	// words are OneWords (a query when the tool is named as a search).
	OneString bool
	OneWords  uint64
}

// Words is the word signature of the question a call of tool with these
// args asks, and whether it is a query.
func (q QueryArgs) Words(tool string) (uint64, bool) {
	switch {
	case q.ByKey:
		return q.KeyWords, true
	case q.OneString && SearchToolName(tool):
		return q.OneWords, true
	}
	return 0, false
}

// quotedQueryKeys are queryKeys as they appear in JSON, in their order.
var quotedQueryKeys = func() [][]byte {
	q := make([][]byte, len(queryKeys))
	for i, k := range queryKeys {
		q[i] = []byte(`"` + k + `"`)
	}
	return q
}()

// ReadQueryArgs reads args (JSON) in one pass over the members of the top
// object. Args that are not an object, or not JSON, are no query.
func ReadQueryArgs(args []byte) QueryArgs {
	sc := jsontok.NewScanner(args)
	if t, err := sc.Next(); err != nil || t.Kind != jsontok.ObjectStart {
		return QueryArgs{}
	}
	members := 0
	bestKey := len(queryKeys) // the first of queryKeys found wins
	var key, keyText, oneText []byte
	for sc.Depth() > 0 {
		t, err := sc.Next()
		if err != nil {
			return QueryArgs{} // not JSON: no query
		}
		switch {
		case t.Kind == jsontok.Key && sc.Depth() == 1:
			key = args[t.Start:t.End]
			members++
		case t.Kind == jsontok.String && sc.Depth() == 1:
			k := slices.IndexFunc(quotedQueryKeys, func(q []byte) bool { return bytes.Equal(q, key) })
			if k >= 0 && k < bestKey {
				bestKey, keyText = k, args[t.Start:t.End]
			}
			if members == 1 {
				oneText = args[t.Start:t.End]
			}
		}
	}
	if _, err := sc.Next(); err != io.EOF {
		return QueryArgs{} // bytes after the object: not JSON
	}
	var q QueryArgs
	if keyText != nil {
		q.ByKey, q.KeyWords = true, questionWords(keyText)
	}
	if members == 1 && oneText != nil {
		q.OneString, q.OneWords = true, questionWords(oneText)
	}
	return q
}

// questionWords is the word signature of a string token's text, short
// numbers left out (blankNumbers).
func questionWords(token []byte) uint64 {
	text := []byte(jsontok.Unquote(token))
	if !IsNormalText(text) {
		text = AppendNormalizedText(nil, text)
	}
	return wordBits(blankNumbers(text))
}

// SearchToolName reports whether a tool's name says it searches or looks
// up: its one string is then a query.
func SearchToolName(tool string) bool {
	return containsFold(tool, "search") || containsFold(tool, "lookup")
}

// containsFold reports whether s holds the lower-case ASCII word sub in
// any case, without allocating.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && s[i+j]|0x20 == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// QueryKeyQuoted is a quick look at args before they are read: whether
// one of queryKeys stands in them quoted, as a key would.
func QueryKeyQuoted(args []byte) bool {
	for _, q := range quotedQueryKeys {
		if bytes.Contains(args, q) {
			return true
		}
	}
	return false
}

// blankNumbers blanks the words of text that are numbers of at most four
// digits, in place: a page, a year or a count is a parameter of a
// question, not its words ("kv cache sizing 12" asks what "kv cache
// sizing 13" asks; a paging loop, RA104, judges such series). A longer
// number is an id, of another ticket or order: another question. (Fixture
// redaction keeps such short numbers as they are, and gives longer ones a
// placeholder word, so the words survive it.)
func blankNumbers(text []byte) []byte {
	const maxParamDigits = 4
	start := -1
	digits := true
	for i := 0; i <= len(text); i++ {
		var r rune = ' '
		size := 1
		if i < len(text) {
			r, size = utf8.DecodeRune(text[i:])
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start, digits = i, true
			}
			digits = digits && r >= '0' && r <= '9'
		} else if start >= 0 {
			if digits && i-start <= maxParamDigits {
				for k := start; k < i; k++ {
					text[k] = ' '
				}
			}
			start = -1
		}
		i += size - 1
	}
	return text
}

// RephrasesQuery reports whether a query with the word signature w asks
// again the question of the queries before it to the same tool: it shares
// half of the smaller one's words with the query just before (prev,
// WordOverlap), and fewer than half of its own words are new to the
// queries asked so far (seen, their signatures together); none, when it
// has fewer than minRephraseWords words. A query whose words are half new
// or more asks something else. RA602 and the replayed
// guard that implements its fix count by it.
func RephrasesQuery(w, prev, seen uint64) bool {
	n, fresh := bits.OnesCount64(w), bits.OnesCount64(w&^seen)
	if n < minRephraseWords {
		// In a question of two or three words, one new word is another
		// question: "AI regulation US" after "AI regulation EU".
		return WordOverlap(w, prev) && fresh == 0
	}
	return WordOverlap(w, prev) && 2*fresh < n
}

// minRephraseWords is the fewest words a query needs for one new word
// among them to leave it the same question.
const minRephraseWords = 4
