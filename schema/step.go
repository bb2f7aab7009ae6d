package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Step is one agent step as logged: one JSON object per line (schema v1).
// Pointer fields distinguish "absent" from the zero value where the
// difference changes a verdict (ok:false vs no result, step 0 vs no step).
type Step struct {
	RunID      string      `json:"run_id"`
	Step       *int64      `json:"step"`
	TS         *Timestamp  `json:"ts,omitempty"`
	State      string      `json:"state,omitempty"`
	Goal       string      `json:"goal,omitempty"`
	Intent     string      `json:"intent,omitempty"`
	ToolCall   *ToolCall   `json:"tool_call,omitempty"`
	ToolResult *ToolResult `json:"tool_result,omitempty"`
	Memory     *Memory     `json:"memory,omitempty"`
	Decision   *Decision   `json:"decision,omitempty"`
	Artifacts  []string    `json:"artifacts,omitempty"`
	Usage      *Usage      `json:"usage,omitempty"`
	Tokens     *TokensAlt  `json:"tokens,omitempty"`
	Budget     *Budget     `json:"budget,omitempty"`
}

// ToolCall is the call the agent made at this step.
type ToolCall struct {
	Name string `json:"name"`
	// Args is any JSON value. It is hashed canonically when ArgsHash is absent.
	Args     json.RawMessage `json:"args,omitempty"`
	ArgsHash string          `json:"args_hash,omitempty"`
	// SimHash, when set, is the args' SimHash (16 hex digits) as computed
	// before they were redacted (ResultKeys says why).
	SimHash string `json:"simhash,omitempty"`
	// Shape, when set, is the args' ArgsShape (16 hex digits) as computed
	// before they were redacted: placeholders replace the numbers it masks.
	Shape string `json:"shape,omitempty"`
	// EditFile, when set, is EditFileKey of the args (16 hex digits) as
	// computed before they were redacted: placeholders replace file names.
	EditFile string `json:"edit_file,omitempty"`
	// EditCopy, when set, is EditCopyKey of the args (16 hex digits),
	// likewise computed before they were redacted, its two halves mapped
	// one by one so that one file and one copy stay so.
	EditCopy string `json:"edit_copy,omitempty"`
	// Creates, when true, says the edit writes a file whole (CreatesFile
	// of the args), as read before they were redacted: placeholders
	// replace the editor's command.
	Creates bool `json:"creates,omitempty"`
	// AddsPrint, when true, says the edit puts a print in the code
	// (AddsPrint of the args), as read before they were redacted:
	// placeholders replace the text it replaces and its new text.
	AddsPrint bool `json:"adds_print,omitempty"`
}

// ToolResult is what the tool returned. Field names follow guides A, B and D.
type ToolResult struct {
	OK          *bool           `json:"ok,omitempty"`
	ErrorType   string          `json:"error_type,omitempty"`
	Status      *int64          `json:"status,omitempty"`
	Empty       *bool           `json:"empty,omitempty"`
	Retryable   *bool           `json:"retryable,omitempty"`
	Done        *bool           `json:"done,omitempty"`
	ResultCount *int64          `json:"result_count,omitempty"`
	Items       json.RawMessage `json:"items,omitempty"`
	Found       *bool           `json:"found,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
	Confidence  *float64        `json:"confidence,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	// Seen says the output only repeats what the run was already shown (a
	// file's lines read again through another window): it is no new
	// information. The adapters infer it from the outputs of a run.
	Seen *bool `json:"seen,omitempty"`
	// ReportsFailure says an output that is no error (the call exited 0)
	// reports a failure in its own words: a script the agent wrote catches
	// the exception and prints `ERROR: ...`, a check prints `FAILED`. The
	// adapters infer it from the output text.
	ReportsFailure *bool `json:"reports_failure,omitempty"`
	// Fingerprint and SimHash, when set, are the result's fingerprint and
	// SimHash (16 hex digits each) as computed from its text before the
	// text was redacted: runaway fixture writes them, so that a redacted
	// fixture's results compare as the logged ones did (placeholders keep
	// equal texts equal, but not what volatile-token normalisation and
	// similarity make of them). A reader uses them instead of computing
	// them from the text.
	Fingerprint string `json:"fingerprint,omitempty"`
	SimHash     string `json:"simhash,omitempty"`
	// FailFile, when set, is FailedCallFileKey of the data and the call's
	// args (16 hex digits), likewise computed before they were redacted.
	FailFile string `json:"fail_file,omitempty"`
	// FailCopy, when set, is FailureCopyKey of the data, likewise (as
	// tool_call.edit_copy).
	FailCopy string `json:"fail_copy,omitempty"`
	// FailMistake, when set, is FailureMistakeKey of the data, likewise.
	FailMistake string `json:"fail_mistake,omitempty"`
}

// Memory is what the step read from and wrote to the agent's memory.
type Memory struct {
	Retrieved []string      `json:"retrieved,omitempty"`
	Written   []string      `json:"written,omitempty"`
	WriteTags []string      `json:"write_tags,omitempty"`
	Entries   []MemoryEntry `json:"entries,omitempty"`
}

// MemoryEntry is a typed memory record (guide B).
type MemoryEntry struct {
	ID         string   `json:"id"`
	Type       string   `json:"type,omitempty"`
	Source     string   `json:"source,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
}

// Decision is the transition the agent chose.
type Decision struct {
	NextState string `json:"next_state,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// Usage is the model usage of this step.
type Usage struct {
	PromptTokens     int64   `json:"prompt_tokens,omitempty"`
	CompletionTokens int64   `json:"completion_tokens,omitempty"`
	CostUSD          float64 `json:"cost_usd,omitempty"`
	// Model is the model the tokens were spent on: with tokens and no
	// cost, the cost is estimated from its list price (pricing).
	Model string `json:"model,omitempty"`
	// CacheReadTokens and CacheWriteTokens are the prompt tokens (of
	// PromptTokens) read from and written to the provider's prompt cache:
	// an estimated cost prices them at the model's cache prices, a tenth
	// of the input price for a read at Anthropic. Without them a cached
	// agent (Claude Code) is priced as if nothing were cached.
	CacheReadTokens  int64 `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
	// CacheWrite1hTokens are those of CacheWriteTokens kept for an hour
	// (Anthropic's longer cache, priced higher than its 5-minute one).
	CacheWrite1hTokens int64 `json:"cache_write_1h_tokens,omitempty"`
}

// TokensAlt is the `tokens:{prompt,completion}` spelling some loggers use.
type TokensAlt struct {
	Prompt     int64 `json:"prompt,omitempty"`
	Completion int64 `json:"completion,omitempty"`
}

// Budget is the budget the agent ran under, if logged. Zero means "not set".
type Budget struct {
	MaxSteps     int64   `json:"max_steps,omitempty"`
	MaxToolCalls int64   `json:"max_tool_calls,omitempty"`
	MaxTokens    int64   `json:"max_tokens,omitempty"`
	MaxCostUSD   float64 `json:"max_cost_usd,omitempty"`
	MaxSeconds   float64 `json:"max_seconds,omitempty"`
}

// Timestamp is `ts`: an RFC 3339 string or a JSON number of epoch
// milliseconds. Numbers below 1e11 are read as epoch seconds (1e11 ms is
// March 1973, before any agent ran): Python loggers write time.time().
type Timestamp struct {
	UnixMilli int64
}

var errBadTimestamp = errors.New("ts: want an RFC 3339 string or epoch milliseconds")

// UnmarshalJSON accepts "2026-11-29T10:00:00Z", 1764410400000 and 1764410400.25.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return errBadTimestamp
	}
	if b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return errBadTimestamp
		}
		inner := b[1 : len(b)-1]
		var s string
		if bytes.IndexByte(inner, '\\') < 0 {
			s = string(inner) // no escapes: the common case, no decoder needed
		} else if err := json.Unmarshal(b, &s); err != nil {
			return errBadTimestamp
		}
		ms, err := ParseTimestamp(s)
		if err != nil {
			return err
		}
		t.UnixMilli = ms
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return errBadTimestamp
	}
	t.UnixMilli = EpochToMilli(f)
	return nil
}

// MarshalJSON writes epoch milliseconds.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, t.UnixMilli, 10), nil
}

// ParseTimestamp parses an RFC 3339 timestamp (with or without fractional
// seconds) into epoch milliseconds.
func ParseTimestamp(s string) (int64, error) {
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("ts: %q is not RFC 3339", truncate(s, 40))
	}
	return tm.UnixMilli(), nil
}

// EpochToMilli converts a numeric ts to epoch milliseconds (see Timestamp).
func EpochToMilli(f float64) int64 {
	if math.Abs(f) < 1e11 {
		return int64(math.Round(f * 1000))
	}
	return int64(math.Round(f))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// IsError reports whether the result is a tool error: ok is false, or ok is
// absent and an error_type is logged.
func (r *ToolResult) IsError() bool {
	if r == nil {
		return false
	}
	if r.OK != nil {
		return !*r.OK
	}
	return r.ErrorType != ""
}

// NormalizedErrorType is the error type of an error result: the logged
// error_type, else one derived from an HTTP status (429 RATE_LIMIT, 408 and
// 504 TIMEOUT), else UNKNOWN. It is "" for results that are not errors.
func (r *ToolResult) NormalizedErrorType() string {
	if !r.IsError() {
		return ""
	}
	if r.ErrorType != "" {
		return r.ErrorType
	}
	if r.Status != nil {
		switch *r.Status {
		case 429:
			return ErrRateLimit
		case 408, 504:
			return ErrTimeout
		}
	}
	return ErrUnknown
}

// IsEmpty reports whether a result came back empty, per the input contract:
// empty:true, result_count:0, items:[], found:false, or data that is present
// and null, a blank string or []. An error is never empty. A result with no
// data field at all is not empty: most logs (guide B's schema) never log data.
func (r *ToolResult) IsEmpty() bool {
	if r == nil || r.IsError() {
		return false
	}
	if r.Empty != nil && *r.Empty {
		return true
	}
	if r.ResultCount != nil && *r.ResultCount == 0 {
		return true
	}
	if r.Found != nil && !*r.Found {
		return true
	}
	if len(r.Items) > 0 && isEmptyJSONValue(r.Items) {
		return true
	}
	if len(r.Data) > 0 && isEmptyJSONValue(r.Data) {
		return true
	}
	return false
}

// NoData reports whether a result's raw data shows nothing: absent, null,
// [] or a string of only white space (isEmptyJSONValue). A failure with no
// data logged no output (or had it stripped).
func NoData(raw []byte) bool {
	return len(bytes.TrimSpace(raw)) == 0 || isEmptyJSONValue(raw)
}

// isEmptyJSONValue is guide A's isEmptyResult on raw JSON: null, [] or a
// string of only white space.
func isEmptyJSONValue(raw []byte) bool {
	v := bytes.TrimSpace(raw)
	switch {
	case bytes.Equal(v, []byte("null")):
		return true
	case len(v) >= 2 && v[0] == '[':
		return len(bytes.TrimSpace(v[1:len(v)-1])) == 0
	case len(v) >= 2 && v[0] == '"':
		inner := v[1 : len(v)-1]
		// The first byte that is neither white space nor an escape of it
		// answers: a tool's output is decoded only when it could be blank.
		for i := 0; i < len(inner); i++ {
			switch c := inner[i]; {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			case c == '\\' && i+1 < len(inner) && (inner[i+1] == 'n' || inner[i+1] == 't' || inner[i+1] == 'r'):
				i++
			case c == '\\' || c >= 0x80 || c == '\v' || c == '\f':
				return blankJSONString(v) // \u escapes, Unicode spaces: decode
			default:
				return false
			}
		}
		return true
	}
	return false
}

// blankJSONString reports whether the JSON string v decodes to white space
// only (Unicode's, as bytes.TrimSpace sees it).
func blankJSONString(v []byte) bool {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	return len(bytes.TrimSpace([]byte(s))) == 0
}

// PromptTokens and CompletionTokens read `usage`, falling back to `tokens`.
func (s *Step) PromptTokens() int64 {
	if s.Usage != nil && (s.Usage.PromptTokens != 0 || s.Usage.CompletionTokens != 0) {
		return s.Usage.PromptTokens
	}
	if s.Tokens != nil {
		return s.Tokens.Prompt
	}
	return 0
}

// CompletionTokens: see PromptTokens.
func (s *Step) CompletionTokens() int64 {
	if s.Usage != nil && (s.Usage.PromptTokens != 0 || s.Usage.CompletionTokens != 0) {
		return s.Usage.CompletionTokens
	}
	if s.Tokens != nil {
		return s.Tokens.Completion
	}
	return 0
}

// Validate checks the required fields. Type errors are caught by the decoder.
func (s *Step) Validate() error {
	if s.RunID == "" {
		return errors.New("run_id: missing or empty")
	}
	if s.Step == nil {
		return errors.New("step: missing")
	}
	if *s.Step < 0 {
		return fmt.Errorf("step: %d is negative", *s.Step)
	}
	if err := s.validateKeys(); err != nil {
		return err
	}
	return s.validateAmounts()
}

// validateKeys checks the keys computed before redaction, which only
// fixtures carry: 16 hex digits.
func (s *Step) validateKeys() error {
	check := func(name, v string) error {
		if _, ok := ParseKey(v); v != "" && !ok {
			return fmt.Errorf("%s: %q is not 16 hex digits", name, v)
		}
		return nil
	}
	var err error
	if c := s.ToolCall; c != nil && c.SimHash != "" {
		err = check("tool_call.simhash", c.SimHash)
	}
	if c := s.ToolCall; err == nil && c != nil && c.Shape != "" {
		err = check("tool_call.shape", c.Shape)
	}
	if c := s.ToolCall; err == nil && c != nil && c.EditFile != "" {
		err = check("tool_call.edit_file", c.EditFile)
	}
	if r := s.ToolResult; err == nil && r != nil && (r.Fingerprint != "" || r.SimHash != "") {
		if err = check("tool_result.fingerprint", r.Fingerprint); err == nil {
			err = check("tool_result.simhash", r.SimHash)
		}
	}
	if r := s.ToolResult; err == nil && r != nil && r.FailFile != "" {
		err = check("tool_result.fail_file", r.FailFile)
	}
	if c := s.ToolCall; err == nil && c != nil && c.EditCopy != "" {
		err = check("tool_call.edit_copy", c.EditCopy)
	}
	if r := s.ToolResult; err == nil && r != nil && r.FailCopy != "" {
		err = check("tool_result.fail_copy", r.FailCopy)
	}
	if r := s.ToolResult; err == nil && r != nil && r.FailMistake != "" {
		err = check("tool_result.fail_mistake", r.FailMistake)
	}
	return err
}

// ParseKey parses a key written as 16 hex digits (FormatKey).
func ParseKey(s string) (uint64, bool) { return parseHex64(s) }

// FormatKey writes a 64-bit key as 16 lower-case hex digits.
func FormatKey(k uint64) string { return fmt.Sprintf("%016x", k) }

// MaxPlausibleCostUSD bounds one step's cost: a larger value is a broken
// logger, and summing a few of them would overflow every report's totals.
const MaxPlausibleCostUSD = 1e9

func (s *Step) validateAmounts() error {
	neg := func(name string, v int64) error {
		if v < 0 {
			return fmt.Errorf("%s: %d is negative", name, v)
		}
		return nil
	}
	if u := s.Usage; u != nil {
		if err := errors.Join(neg("usage.prompt_tokens", u.PromptTokens), neg("usage.completion_tokens", u.CompletionTokens),
			neg("usage.cache_read_tokens", u.CacheReadTokens), neg("usage.cache_write_tokens", u.CacheWriteTokens), neg("usage.cache_write_1h_tokens", u.CacheWrite1hTokens)); err != nil {
			return err
		}
		if u.CostUSD < 0 || u.CostUSD > MaxPlausibleCostUSD {
			return fmt.Errorf("usage.cost_usd: %g is not a plausible cost", u.CostUSD)
		}
	}
	if t := s.Tokens; t != nil {
		if err := errors.Join(neg("tokens.prompt", t.Prompt), neg("tokens.completion", t.Completion)); err != nil {
			return err
		}
	}
	if b := s.Budget; b != nil {
		if b.MaxSteps < 0 || b.MaxToolCalls < 0 || b.MaxTokens < 0 || b.MaxCostUSD < 0 || b.MaxSeconds < 0 {
			return errors.New("budget: limits must not be negative")
		}
	}
	return nil
}

// SaysMore reports whether the result is a page of a listing that says
// there is more (has_more, next_cursor, nextPageToken, next: true, a
// cursor or the next page's number or address, at the top of a JSON
// object of data): the tool itself asks for the next page, so fetching it
// is following the listing, not an agent going round.
func (r *ToolResult) SaysMore() bool {
	if r == nil || len(r.Data) == 0 {
		return false
	}
	v := bytes.TrimSpace(r.Data)
	if len(v) == 0 || v[0] != '{' || !mayHaveMoreKey(v) {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return false
	}
	for k, val := range obj {
		if !moreKeys[strings.ToLower(k)] {
			continue
		}
		switch t := bytes.TrimSpace(val); {
		case bytes.Equal(t, []byte("true")):
			return true
		case bytes.Equal(t, []byte("false")), bytes.Equal(t, []byte("null")), bytes.Equal(t, []byte(`""`)), bytes.Equal(t, []byte("0")):
		case len(t) > 0 && (t[0] == '"' || (t[0] >= '0' && t[0] <= '9')):
			return true // a cursor, a next page's number or address
		}
	}
	return false
}

// mayHaveMoreKey reports whether JSON object text holds a key that could be
// one of moreKeys (a quote, then "has", "more", "next" or "cursor" in
// either case), so most results are not parsed: an object with a "text"
// or "context" member is not a page of a listing.
func mayHaveMoreKey(v []byte) bool {
	for _, k := range [][]byte{[]byte(`"has`), []byte(`"Has`), []byte(`"more"`), []byte(`"More"`), []byte(`"next`), []byte(`"Next`), []byte(`"cursor"`), []byte(`"Cursor"`)} {
		if bytes.Contains(v, k) {
			return true
		}
	}
	return false
}

// moreKeys are the keys of a listing's page that say whether there is more,
// or where it goes on (lower case).
var moreKeys = map[string]bool{
	"has_more": true, "hasmore": true, "more": true, "has_next": true, "hasnext": true, "has_next_page": true, "hasnextpage": true,
	"next_cursor": true, "nextcursor": true, "next_page": true, "nextpage": true, "next_page_token": true,
	"nextpagetoken": true, "next_token": true, "nexttoken": true, "next": true, "cursor": true,
}

// HasPayload reports whether the result carries what it returned (items,
// data or result_count), so two fingerprints can be compared as answers.
// Logs in guide B's schema log only ok/status: every such result of a tool
// fingerprints the same, which says nothing about whether it was new.
func (r *ToolResult) HasPayload() bool {
	return r != nil && (len(r.Items) > 0 || len(r.Data) > 0 || r.ResultCount != nil)
}

// ResultFingerprint identifies what a tool returned, so that "the same call
// got the same answer again" can be told from "the world changed" (polling
// that finally succeeds). It hashes the outcome fields only (ok, error type,
// status, empty, found, result_count, items, data), not reason or
// confidence, which tools fill with volatile text. Data that is text (a
// JSON string: the output a shell, an editor or a browser printed) is
// hashed after AppendVolatileNormalized, so two outputs that differ only in
// a timing, a temp path or an id are the same answer; a failure's text
// that names a Python failure site is hashed as that site
// (AppendFailureSite); structured data is hashed as logged, since an id in
// a record names the record. hash is the
// caller's 64-bit hash (ingest uses xxh3.Hash); 0 is reserved for "no
// result".
func (r *ToolResult) ResultFingerprint(hash func([]byte) uint64) uint64 {
	if r == nil {
		return 0
	}
	var stack [256]byte
	h := hash(r.AppendFingerprintInput(stack[:0]))
	if h == 0 {
		h = 1
	}
	return h
}

// AppendFingerprintInput appends to dst the bytes ResultFingerprint hashes
// (a nil result appends nothing). A caller with a fixed hash function calls
// it directly with a buffer it reuses: ResultFingerprint's buffer escapes to
// the heap, as it is passed to a function value.
func (r *ToolResult) AppendFingerprintInput(dst []byte) []byte {
	if r == nil {
		return dst
	}
	buf := dst
	buf = append(buf, "ok="...)
	buf = strconv.AppendBool(buf, !r.IsError())
	buf = append(buf, "\x00et="...)
	buf = append(buf, r.NormalizedErrorType()...)
	if r.Status != nil {
		buf = append(buf, "\x00st="...)
		buf = strconv.AppendInt(buf, *r.Status, 10)
	}
	buf = append(buf, "\x00em="...)
	buf = strconv.AppendBool(buf, r.IsEmpty())
	if r.ResultCount != nil {
		buf = append(buf, "\x00rc="...)
		buf = strconv.AppendInt(buf, *r.ResultCount, 10)
	}
	buf = append(buf, "\x00it="...)
	buf = append(buf, bytes.TrimSpace(r.Items)...)
	buf = append(buf, "\x00da="...)
	if data := bytes.TrimSpace(r.Data); IsJSONString(data) {
		if r.IsError() {
			if site, ok := AppendFailureSite(buf, data); ok {
				return site
			}
		}
		buf = AppendVolatileNormalized(buf, data)
	} else {
		buf = append(buf, data...)
	}
	return buf
}

// IsJSONString reports whether raw (trimmed) is a JSON string.
func IsJSONString(raw []byte) bool { return len(raw) >= 2 && raw[0] == '"' }

// MinSimilarityWords is the fewest words a text result must have to be
// compared by similarity: in a short answer every word counts ("3 failed"
// is not "4 failed"), so short results are compared exactly.
const MinSimilarityWords = 12

// MinErrorSimilarityWords is the same for a failure's text. A failure is
// one already, whatever it says: what matters is whether it is the same
// one again, and a short error that differs only in a number (a build id,
// a retry count, a port) is ("deploy failed (build 4113)", "... (build
// 4150)"). Similarity folds digits, and a failure's text of three words or
// more is compared by it; two failures of different error types never are
// the same answer.
const MinErrorSimilarityWords = 3

// minSimErrorBytes is minSimTextBytes for a failure's text.
const minSimErrorBytes = 8

// AppendSimHashText appends the text ResultSimHash hashes: the result's
// data when it is text (a JSON string), after AppendVolatileNormalized,
// its escapes read (unescapeForWords); nothing for results without text.
func (r *ToolResult) AppendSimHashText(dst []byte) []byte {
	if r == nil {
		return dst
	}
	data := bytes.TrimSpace(r.Data)
	least := minSimTextBytes
	if r.IsError() {
		least = minSimErrorBytes
	}
	if !IsJSONString(data) || len(data) < least {
		return dst
	}
	start := len(dst)
	if r.IsError() {
		if site, ok := AppendFailureSite(dst, data); ok {
			return unescapeForWords(site, start)
		}
	}
	dst = AppendVolatileNormalized(dst, data[1:len(data)-1])
	dst = dropLineGutter(dst, start)
	dst = dropListingColumns(dst, start)
	return unescapeForWords(dst, start)
}

// unescapeForWords rewrites the JSON escapes in dst[start:] for word
// splitting, in place: an escaped character (\n, \", \/) becomes a space,
// which stops words joining as the character it stands for would, and
// \uXXXX becomes the character itself, so a text hashes the same whether
// its writer escaped '<' and 'é' (Go's encoder writes \u003c) or not, and
// an escape adds no word of its own ("u003c"). A backslash that ends the
// text, or a \u without four hex digits, becomes a space.
func unescapeForWords(dst []byte, start int) []byte {
	w := start
	for r := start; r < len(dst); r++ {
		c := dst[r]
		if c != '\\' {
			dst[w] = c
			w++
			continue
		}
		if r+5 < len(dst) && dst[r+1] == 'u' {
			if x, ok := hex4(dst[r+2 : r+6]); ok {
				// A surrogate (half of a character beyond the BMP) is no
				// character of its own: it stops words, as a space does.
				if x >= 0xd800 && x < 0xe000 {
					dst[w] = ' '
					w++
				} else {
					w += utf8.EncodeRune(dst[w:], rune(x)) // at most 3 bytes in the 6 read
				}
				r += 5
				continue
			}
		}
		dst[w] = ' '
		w++
		if r+1 < len(dst) && dst[r+1] != 'u' {
			r++
		}
	}
	return dst[:w]
}

// hex4 decodes four hex digits.
func hex4(b []byte) (uint32, bool) {
	var x uint32
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			x = x<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			x = x<<4 | uint32(c-'a'+10)
		case 'A' <= c && c <= 'F':
			x = x<<4 | uint32(c-'A'+10)
		default:
			return 0, false
		}
	}
	return x, true
}

// minSimTextBytes and minSimArgsBytes: text shorter than this is not
// hashed for similarity, but compared exactly. Twelve words fit in fewer
// bytes, but hashing every short answer and argument list costs a scan of
// runaway's own logs a few per cent for little; a tool output of a line
// or two that differs only in a counter ("You have 7 turns left") is long
// enough, so text is hashed from 96 bytes on. Args are compared by
// similarity only for failed retries, where edits are long.
const (
	minSimTextBytes = 96
	minSimArgsBytes = 128
)

// ArgsSimHash is the SimHash of a call's args (raw JSON) after
// AppendVolatileNormalized and with its escapes read (unescapeForWords), so two calls that differ in indentation, a
// temp path or a few words are near-identical; 0 for args of fewer than
// MinSimilarityWords words. scratch is reused, and returned grown.
func ArgsSimHash(args []byte, scratch []byte) (uint64, []byte) {
	if len(args) < minSimArgsBytes {
		return 0, scratch
	}
	scratch = unescapeForWords(AppendVolatileNormalized(scratch[:0], args), 0)
	h, words := TextSimHash(scratch)
	if words < MinSimilarityWords {
		return 0, scratch
	}
	return h, scratch
}

// ResultSimHash is the SimHash (TextSimHash) of AppendSimHashText's text,
// 0 when the result has no text of at least MinSimilarityWords words
// (MinErrorSimilarityWords for a failure).
// scratch is a buffer the caller reuses, returned grown.
func (r *ToolResult) ResultSimHash(scratch []byte) (uint64, []byte) {
	scratch = r.AppendSimHashText(scratch[:0])
	if len(scratch) == 0 {
		return 0, scratch
	}
	h, words := TextSimHash(scratch)
	if words < MinSimilarityWords && (!r.IsError() || words < MinErrorSimilarityWords) {
		return 0, scratch
	}
	return h, scratch
}
