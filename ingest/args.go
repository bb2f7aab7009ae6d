package ingest

import (
	"bytes"

	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

// argsCache remembers what is derived from recent tool-call args: the
// canonical form and hash, the near-duplicate digest and the short
// rendering. Canonicalising is the most expensive part of decoding a line,
// and the logs this tool exists for repeat the same args again and again.
type argsCache struct {
	norm    *schema.ArgsNormalizer
	pass    *schema.ArgsPass
	sets    [][2]argsEntry // two ways, the one used last first: a direct-mapped cache thrashes on two frequent args
	scratch argsEntry      // args too large to cache
	short   []byte         // the short rendering of a pass that completes an entry, not kept
	masked  []byte         // scratch of schema.ArgsShape
}

type argsEntry struct {
	raw []byte // args as logged
	// canon and key are computed when a call needs them (not when
	// args_hash is logged): keyed is false and canonErr nil until then.
	canon    []byte
	key      uint64 // schema.CanonicalKey(canon)
	keyed    bool
	canonErr error
	// digest and short are computed with the entry; args that cannot be
	// digested get a zero digest (no near-duplicate key, no other harm).
	digest   schema.ArgsDigest
	hasWords bool // digest.Words is computed (only calls that came back empty need it)
	// query is what the args say of a query (schema.ReadQueryArgs), read
	// once: with the entry when they quote a query key, else at the first
	// call of a search tool with them.
	query     schema.QueryArgs
	queryRead bool
	short     []byte
	shape     uint64 // schema.ArgsShape
	valid     bool
}

// derivedArgs is what a call's args contribute to its row.
type derivedArgs struct {
	key    uint64 // schema.ArgsKey of the args hash: as logged, else canonical
	other  string // the logged args hash when key is not its prefix, else ""
	text   []byte // canonical args, only with keepText
	digest schema.ArgsDigest
	short  []byte // nil without args
	shape  uint64 // schema.ArgsShape; 0 without args
	query  bool   // schema.IsQuery
}

const (
	argsCacheSets     = 512
	argsCacheMaxBytes = 4 << 10 // larger args are not kept, so the cache stays small
)

// resolve derives a call's row values from its args; the slices are valid
// until the next call. Args that cannot be canonicalised (nested deeper than
// the canonicaliser allows, a number beyond float64) reject the line only
// when the hash must come from them.
func (c *argsCache) resolve(tc *schema.ToolCall, keepText, empty bool) (derivedArgs, *LineError) {
	if tc == nil {
		return derivedArgs{}, nil
	}
	if len(tc.Args) == 0 {
		// schema.ArgsHash hashes absent args as JSON null; no text is shown for them.
		if tc.ArgsHash == "" {
			return derivedArgs{key: nullArgsKey}, nil
		}
		key, other := loggedKey(tc.ArgsHash)
		return derivedArgs{key: key, other: other}, nil
	}
	needCanon := tc.ArgsHash == "" || keepText
	e := c.entry(tc.Args, needCanon, empty)
	if empty && !e.hasWords {
		f := c.pass.Derive(tc.Args, true, false, c.short[:0], nil)
		if c.short = f.Short; f.DigestErr == nil {
			e.digest.Words = f.Digest.Words
		}
		e.hasWords = true
	}
	// A call that came back empty carries the words of its args; a query
	// the words of its question alone.
	if !e.queryRead && schema.SearchToolName(tc.Name) {
		// Args with no query key are read only for a search tool's call
		// (its one string is its question).
		e.query, e.queryRead = schema.ReadQueryArgs(tc.Args), true
	}
	queryWords, query := e.query.Words(tc.Name)
	out := derivedArgs{digest: e.digest, short: e.short, shape: e.shape, query: query}
	if tc.ArgsHash != "" {
		out.key, out.other = loggedKey(tc.ArgsHash)
	}
	switch {
	case query:
		out.digest.Words = queryWords
	case !empty:
		out.digest.Words = 0 // only empty results and queries carry words
	}
	if !needCanon {
		return out, nil
	}
	if !e.keyed && e.canonErr == nil {
		f := c.pass.Derive(tc.Args, false, true, c.short[:0], e.canon[:0])
		c.short = f.Short
		e.setCanon(f.Canon, f.CanonErr)
	}
	if e.canonErr != nil {
		if tc.ArgsHash == "" {
			return derivedArgs{}, lineError(KindInvalidValue, "tool_call."+e.canonErr.Error())
		}
		return out, nil
	}
	if keepText {
		out.text = e.canon
	}
	if tc.ArgsHash == "" {
		out.key = e.key
	}
	return out, nil
}

var nullArgsKey = schema.CanonicalKey([]byte("null"))

// loggedKey is the key of a logged args hash, and the hash itself when the
// key is not its prefix (evidence shows it), else "".
func loggedKey(h string) (key uint64, other string) {
	key, canonical := schema.ArgsKey(h)
	if canonical {
		return key, ""
	}
	return key, h
}

// entry returns the cache entry of args, filled with the digest and short
// rendering, and with the canonical form and word signature when asked:
// new args get all of them from one pass. An entry found without what a
// later call needs is completed by resolve.
func (c *argsCache) entry(args []byte, canon, words bool) *argsEntry {
	if c.pass == nil {
		if c.norm == nil {
			c.norm = schema.NewArgsNormalizer(schema.DefaultVolatileKeys)
		}
		c.pass = schema.NewArgsPass(c.norm)
	}
	var e *argsEntry
	if len(args) > argsCacheMaxBytes {
		e = &c.scratch
	} else {
		if c.sets == nil {
			c.sets = make([][2]argsEntry, argsCacheSets)
		}
		set := &c.sets[xxh3.Hash(args)%argsCacheSets]
		if e := &set[0]; e.valid && bytes.Equal(e.raw, args) {
			return e
		}
		if e := &set[1]; e.valid && bytes.Equal(e.raw, args) {
			set[0], set[1] = set[1], set[0]
			return &set[0]
		}
		// The entry used less recently makes way; its buffers are reused.
		set[0], set[1] = set[1], set[0]
		e = &set[0]
	}
	e.raw = append(e.raw[:0], args...)
	f := c.pass.Derive(args, words, canon, e.short[:0], e.canon[:0])
	// Unreadable args have no near-duplicates: a zero digest.
	e.digest, e.hasWords, e.short = f.Digest, words, f.Short
	e.shape, c.masked = schema.ArgsShape(args, c.masked)
	// A query key is looked for once per args; args without one are read
	// only when a search tool is called with them (resolve).
	e.query, e.queryRead = schema.QueryArgs{}, false
	if schema.QueryKeyQuoted(args) {
		e.query, e.queryRead = schema.ReadQueryArgs(args), true
	}
	e.canon, e.keyed, e.canonErr = e.canon[:0], false, nil
	if canon {
		e.setCanon(f.Canon, f.CanonErr)
	}
	e.valid = true
	return e
}

func (e *argsEntry) setCanon(canon []byte, err error) {
	if err != nil {
		e.canon, e.canonErr = canon[:0], err
		return
	}
	e.canon, e.key, e.keyed = canon, schema.CanonicalKey(canon), true
}
