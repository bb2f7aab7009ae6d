package ingest

import (
	"bytes"

	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/schema"
)

// argsCache remembers the canonical form and hash of recent tool-call args.
// Canonicalising is the most expensive part of decoding a line, and the logs
// this tool exists for repeat the same args again and again.
type argsCache struct {
	sets    [][2]argsEntry // two ways, the one used last first: a direct-mapped cache thrashes on two frequent args
	scratch []byte         // canonical args of an uncached line
}

type argsEntry struct {
	raw   []byte // args as logged
	canon []byte
	hash  string
}

const (
	argsCacheSets     = 512
	argsCacheMaxBytes = 4 << 10 // larger args are not kept, so the cache stays small
)

// resolve returns the args hash of a call (as logged, else canonical) and,
// with keepText, its canonical args, valid until the next call. Args that
// cannot be canonicalised (nested deeper than the canonicaliser allows, a
// number beyond float64) reject the line only when the hash must come from
// them.
func (c *argsCache) resolve(tc *schema.ToolCall, keepText bool) (hash string, text []byte, lerr *LineError) {
	if tc == nil {
		return "", nil, nil
	}
	if tc.ArgsHash != "" && !keepText {
		return tc.ArgsHash, nil, nil
	}
	if len(tc.Args) == 0 {
		// schema.ArgsHash hashes absent args as JSON null; no text is shown for them.
		hash = tc.ArgsHash
		if hash == "" {
			hash = nullArgsHash
		}
		return hash, nil, nil
	}
	canon, hash, err := c.canonical(tc.Args)
	switch {
	case err != nil && tc.ArgsHash == "":
		return "", nil, lineError(KindInvalidValue, "tool_call."+err.Error())
	case err != nil:
		return tc.ArgsHash, nil, nil
	}
	if keepText {
		text = canon
	}
	if tc.ArgsHash != "" {
		hash = tc.ArgsHash
	}
	return hash, text, nil
}

var nullArgsHash = schema.HashCanonical([]byte("null"))

func (c *argsCache) canonical(args []byte) (canon []byte, hash string, err error) {
	if len(args) > argsCacheMaxBytes {
		c.scratch, err = schema.Canonicalize(c.scratch[:0], args)
		if err != nil {
			return nil, "", err
		}
		return c.scratch, schema.HashCanonical(c.scratch), nil
	}
	if c.sets == nil {
		c.sets = make([][2]argsEntry, argsCacheSets)
	}
	set := &c.sets[xxhash.Sum64(args)%argsCacheSets]
	if e := &set[0]; e.hash != "" && bytes.Equal(e.raw, args) {
		return e.canon, e.hash, nil
	}
	if e := &set[1]; e.hash != "" && bytes.Equal(e.raw, args) {
		set[0], set[1] = set[1], set[0]
		return set[0].canon, set[0].hash, nil
	}
	// The entry used less recently makes way; its buffers are reused.
	set[0], set[1] = set[1], set[0]
	e := &set[0]
	canon, err = schema.Canonicalize(e.canon[:0], args)
	if err != nil {
		e.hash = "" // the entry's buffers may hold a partial result now
		return nil, "", err
	}
	e.raw = append(e.raw[:0], args...)
	e.canon = canon
	e.hash = schema.HashCanonical(canon)
	return e.canon, e.hash, nil
}
