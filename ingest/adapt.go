package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// Input formats. Each source is read as runaway's own steps (one JSON
// object per line) or through one of the adapters, which turn what agent
// frameworks write (trajectories, chat conversations) into steps. With
// FormatAuto the framer looks at the start of every source and picks
// (sniff); any other value forces one reading on every source.
const (
	FormatAuto  = "auto"
	FormatSteps = "jsonl" // runaway's own step lines (schema v1)
)

// InputFormats lists the values Options.InputFormat accepts.
func InputFormats() []string {
	return append([]string{FormatAuto, FormatSteps}, adapters.Names()...)
}

// checkInputFormat validates Options.InputFormat.
func checkInputFormat(name string) error {
	if name == "" || name == FormatAuto || name == FormatSteps || adapters.Lookup(name) != nil {
		return nil
	}
	return fmt.Errorf("ingest: unknown input format %q (want one of %s)", name, strings.Join(InputFormats(), ", "))
}

// Reject kinds of adapted sources.
const (
	KindUnknownFormat  = "unknown_format"   // no adapter recognises the document
	KindAdapter        = "adapter_error"    // an adapter recognised the document but could not convert it
	KindDocumentTooBig = "document_too_big" // a document read whole is over MaxDocBytes
	KindNoSteps        = "no_steps"         // an adapter recognised the document, which holds no step of an agent
)

// defaultMaxDocBytes bounds a document read whole: a trajectory file, or
// one line of a JSON Lines file of trajectories.
const defaultMaxDocBytes = 256 << 20

// sniff decides how the source being framed is read, from its first bytes:
// a JSON array, or an object that does not end on its first line (a
// pretty-printed file), is one document read whole; a file of one line is
// one document too; otherwise the file is JSON Lines, and its first line
// says whether the lines are steps or documents of an adapter. It reports
// true when the source is to be read whole. It may read on to find the end
// of a long first line; the block then holds it.
func (f *framer) sniff() (whole bool) {
	forced := f.inputFormat
	if forced == FormatSteps {
		return false
	}
	if forced != "" && forced != FormatAuto {
		// Every document of the source goes through the forced adapter,
		// whether it is read whole or line by line.
		f.adapter = adapters.Lookup(forced)
		f.maxLine = max(f.maxLine, f.maxDoc)
	}
	start, ok := f.firstNonWhite()
	if !ok {
		return false // blank: nothing to decide
	}
	if c := f.blk.buf[start]; c == '[' && !adapters.OpensWithDate(f.blk.buf[start:f.end]) {
		return true
	} else if c == '"' && (bytes.HasPrefix(f.blk.buf[start:f.end], []byte(`"{`)) || bytes.HasPrefix(f.blk.buf[start:f.end], []byte(`"[`))) {
		return true // JSON written as a JSON string (older LlamaIndex's chat store): read whole, unwrapped by ParseDoc
	} else if c != '{' {
		// Not JSON: a plain-text transcript of a format that writes
		// them is read whole; any other text's lines are rejected as
		// what they are.
		if f.adapter != nil {
			return f.adapter.Text != nil
		}
		if a := adapters.DetectText(f.blk.buf[start:f.end]); a != nil {
			f.adapter = a
			f.maxLine = max(f.maxLine, f.maxDoc)
			return true
		}
		// Its first line is rejected saying what was tried: the JSON of
		// runaway's steps and of the adapters' documents, and the text
		// formats, each with why it refused.
		f.unknownLine = f.line + int64(bytes.Count(f.blk.buf[f.pos:start], []byte{'\n'}))
		f.unknownWhy = "not JSON (runaway steps or a document of a JSON format), and " + adapters.TextRefusals(f.blk.buf[start:f.end])
		return false
	}
	// Read on until the first line is whole (or the source ends).
	saved := f.maxLine
	f.maxLine = max(f.maxLine, f.maxDoc)
	nl := bytes.IndexByte(f.blk.buf[start:f.end], '\n')
	for nl < 0 && f.readErr == nil && f.end-f.pos <= f.maxDoc {
		off := start - f.pos
		f.refill()
		start = f.pos + off
		nl = bytes.IndexByte(f.blk.buf[start:f.end], '\n')
	}
	f.maxLine = saved
	end := f.end
	if nl >= 0 {
		end = start + nl
	}
	line := bytes.TrimRight(f.blk.buf[start:end], " \t\r")
	if !json.Valid(line) {
		// A pretty-printed document opens with "{" alone, or with a line
		// whose next line is an indented member or element, or an element
		// followed by a comma (`{"id": 7, "messages": [` then one message a
		// line); a JSON Lines file whose first line is broken goes on with
		// another object, whole on its line.
		next := []byte(nil)
		if nl >= 0 {
			next = f.blk.buf[start+nl+1 : f.end]
			if i := bytes.IndexByte(next, '\n'); i >= 0 {
				next = next[:i]
			}
		}
		next = bytes.TrimRight(next, " \t\r")
		trimmed := bytes.TrimLeft(next, " \t")
		indented := len(trimmed) < len(next) && len(trimmed) > 0 && bytes.IndexByte([]byte(`"{[`), trimmed[0]) >= 0
		return bytes.Equal(bytes.TrimSpace(line), []byte("{")) || indented ||
			bytes.HasSuffix(trimmed, []byte(","))
	}
	if nl < 0 || (f.readErr != nil && len(bytes.TrimSpace(f.blk.buf[end:f.end])) == 0) {
		// The whole source is this one line: a document, unless it is a step.
		if forced != "" && forced != FormatAuto {
			return true
		}
		return !nativeStep(f.name, f.line, line)
	}
	if forced != "" && forced != FormatAuto {
		// A transcript (a run an event a line) is read whole even so.
		if f.adapter.Transcript == nil {
			return false
		}
		d, err := adapters.ParseDoc(f.name, f.line, false, line)
		if err != nil {
			return false
		}
		whole, _ = guarded(f.adapter.Name, func() (bool, error) { return f.adapter.Recognize(d) == nil && f.transcript(f.adapter, d), nil })
		return whole
	}
	if nativeStep(f.name, f.line, line) {
		return false
	}
	d, err := adapters.ParseDoc(f.name, f.line, false, line)
	if err != nil {
		return false
	}
	a, err := guarded("", func() (*adapters.Format, error) { return adapters.Detect(d) })
	if err != nil {
		f.unknownLine = f.line + int64(bytes.Count(f.blk.buf[f.pos:start], []byte{'\n'}))
		f.unknownWhy = "not a runaway step (no run_id) and " + err.Error()
		return false
	}
	f.adapter = a
	f.maxLine = max(f.maxLine, f.maxDoc)
	whole, _ = guarded(a.Name, func() (bool, error) { return f.transcript(a, d), nil })
	return whole
}

// transcript reports whether a JSON Lines file whose first line is d, a
// document of adapter a, is a transcript: one run written an event a line
// (Format.Transcript). If so the file is to be read whole, as one document.
func (f *framer) transcript(a *adapters.Format, d *adapters.Doc) bool {
	if a.Transcript == nil || !a.Transcript(d) {
		return false
	}
	f.lines = true
	return true
}

// firstNonWhite is the index in the block of the source's first byte that
// is not JSON white space, if the first block holds one.
func (f *framer) firstNonWhite() (int, bool) {
	for i := f.pos; i < f.end; i++ {
		switch f.blk.buf[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return i, true
	}
	return 0, false
}

// nativeStep reports whether the JSON object line is one of runaway's
// steps: it has a run_id, and a step or no adapter that reads it. Exports
// of agent runs carry a run_id of their own beside a conversation
// (SWE-Gym's OpenHands trajectories: run_id names the configuration, the
// messages are the run); read as steps, every line was a reject.
func nativeStep(name string, line int64, obj []byte) bool {
	if !hasTopKey(obj, "run_id") {
		return false
	}
	if hasTopKey(obj, "step") {
		return true
	}
	d, err := adapters.ParseDoc(name, line, false, obj)
	if err != nil {
		return true
	}
	_, err = guarded("", func() (*adapters.Format, error) { return adapters.Detect(d) })
	return err != nil
}

// hasTopKey reports whether the JSON object line has key at its top level.
func hasTopKey(line []byte, key string) bool {
	if !bytes.Contains(line, []byte(`"`+key+`"`)) {
		return false // the common answer for foreign documents, without parsing
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return false
	}
	_, ok := obj[key]
	return ok
}

// frameDocument reads the rest of the source as one document and hands it
// to a worker. A document over MaxDocBytes is a reject, kept verbatim
// through the long-line pipe.
func (f *framer) frameDocument() bool {
	first := f.line
	if start, ok := f.firstNonWhite(); ok {
		first += int64(bytes.Count(f.blk.buf[f.pos:start], []byte{'\n'}))
	}
	var doc bytes.Buffer
	doc.Write(f.blk.buf[f.pos:f.end])
	f.pos, f.segStart = f.end, f.end
	for f.readErr == nil && doc.Len() <= f.maxDoc {
		f.end, f.pos, f.segStart = 0, 0, 0
		f.fill()
		doc.Write(f.blk.buf[:f.end])
		f.pos, f.segStart = f.end, f.end
	}
	lines := int64(bytes.Count(doc.Bytes(), []byte{'\n'}))
	if b := doc.Bytes(); len(b) > 0 && b[len(b)-1] != '\n' {
		lines++
	}
	if doc.Len() > f.maxDoc {
		return f.streamDocumentReject(first, doc.Bytes())
	}
	switch err := f.readErr; {
	case err == io.EOF:
	case f.format == "" || isReadFailure(err):
		var rf *readFailure
		if errors.As(err, &rf) {
			err = rf.err
		}
		return f.send(&item{kind: itemSourceFailed, src: f.src, name: f.name, err: err, bytes: f.bytes})
	default:
		it := f.newChunk()
		it.firstLine = first
		it.tail = &lineReject{line: first, kind: KindTruncatedInput, reason: streamBreakReason(f.format, err), raw: doc.Bytes()}
		f.line += lines
		return f.send(it) && f.send(&item{kind: itemSourceEnd, src: f.src, name: f.name, bytes: f.bytes})
	}
	it := f.newChunk()
	it.firstLine, it.doc, it.docLines = first, doc.Bytes(), lines
	f.line += lines
	return f.send(it) && f.send(&item{kind: itemSourceEnd, src: f.src, name: f.name, bytes: f.bytes})
}

// streamDocumentReject sends a document over MaxDocBytes, and the rest of
// the source, to the rejects through the long-line pipe.
func (f *framer) streamDocumentReject(first int64, head []byte) bool {
	pr, pw := io.Pipe()
	ll := &longLine{line: first, pipe: pr, kind: KindDocumentTooBig, reason: fmt.Sprintf("document exceeds %d bytes (--max-doc-bytes)", f.maxDoc)}
	if !f.send(&item{kind: itemLongLine, src: f.src, name: f.name, long: ll}) {
		pr.Close()
		return false
	}
	// The document goes to the rejects verbatim but for its final line
	// breaks (the rejects file ends each reject with its own): the line
	// breaks a block ends with are held back until more of it follows.
	var held []byte
	write := func(b []byte) bool {
		t := bytes.TrimRight(b, "\r\n")
		if len(t) == 0 {
			held = append(held, b...)
			return true
		}
		if len(held) > 0 {
			if _, err := pw.Write(held); err != nil {
				return false
			}
		}
		held = append(held[:0], b[len(t):]...)
		_, err := pw.Write(t)
		return err == nil
	}
	ok := write(head)
	for ok && f.readErr == nil {
		f.end, f.pos, f.segStart = 0, 0, 0
		f.fill()
		ok = write(f.blk.buf[:f.end])
	}
	f.pos, f.segStart = f.end, f.end
	if !ok {
		pw.CloseWithError(errAborted)
		return false
	}
	pw.Close()
	return f.send(&item{kind: itemSourceEnd, src: f.src, name: f.name, bytes: f.bytes})
}

// adaptedDecoder converts documents into steps and decodes the steps as
// lines, so an adapted step is checked and derived exactly as a logged one.
type adaptedDecoder struct {
	dec       *LineDecoder
	w         *batchWriter
	batchRows int
	res       *chunkResult
	src       int32
	line      []byte // scratch: the step being decoded, as JSON
	strip     bool   // Options.StripOutput
	lines     bool   // the document is a JSON Lines file read whole (item.lines)
	sniffed   bool   // the adapter was chosen by the first line (item.sniffed)
	spans     *spanStore
	docSpans  []adapters.Span // scratch: the spans of the document being read
}

// document converts one document (a whole file, or one line) and decodes
// its steps, all located at line. A document that cannot be read is one
// reject, whose raw bytes are the document.
func (a *adaptedDecoder) document(name string, line int64, whole bool, raw []byte, forced *adapters.Format) {
	fail := func(kind, reason string) {
		// Without the document's final line breaks: the rejects file ends
		// each reject with its own.
		a.res.rejects = append(a.res.rejects, lineReject{line: line, kind: kind, reason: reason, raw: bytes.Clone(bytes.TrimRight(raw, "\r\n"))})
	}
	var d *adapters.Doc
	var err error
	format := forced
	decoding := false // in runaway's own decoding of a converted step, not in the adapter
	defer func() {
		if decoding {
			return // a half-written row: the batch cannot be trusted, so the panic goes on
		}
		if p := recover(); p != nil {
			// An adapter's bug costs the document it met, not the scan:
			// the steps it converted before are kept, as when a converted
			// step cannot be decoded.
			name := ""
			if format != nil {
				name = format.Name
			}
			fail(KindInternal, crashReason(name, p))
		}
	}()
	switch {
	case forced != nil && forced.Text != nil && !adapters.OpensJSON(raw):
		// A format may write both JSON and text (AutoGen): its text
		// transcripts are the documents that do not open as JSON.
		d = adapters.TextDoc(name, line, raw)
	case a.lines:
		d, err = adapters.ParseLines(name, line, raw)
	default:
		d, err = adapters.ParseDoc(name, line, whole, raw)
	}
	if err != nil {
		fail(KindMalformedJSON, err.Error())
		return
	}
	if a.lines && len(d.Elements()) == 0 {
		a.lineRejects(d, "")
		return // every line was broken
	}
	d.StripOutput = a.strip
	if d.IsArray() && forced == nil && arrayOfSteps(name, line, d.Elements()) {
		a.stepArray(line, d.Elements())
		return
	}
	if format == nil {
		if format, err = adapters.Detect(d); err != nil {
			fail(KindUnknownFormat, "not runaway steps and "+err.Error())
			return
		}
	} else if err := format.Recognize(d); err != nil {
		// A transcript whose first line looked like one format's and whose
		// whole is another's (a message a line, Anthropic's blocks further
		// on) is recognised as a whole, unless the user named the format.
		var again *adapters.Format
		if a.lines && a.sniffed {
			again, _ = adapters.Detect(d)
		}
		if again == nil {
			fail(KindUnknownFormat, fmt.Sprintf("not a %s document: %v", format.Name, err))
			return
		}
		format = again
	}
	if format.Spans != nil {
		// A document's spans are held all or none: a document is a reject
		// or read, never half of each.
		a.docSpans = a.docSpans[:0]
		err := format.Spans(d, func(sp *adapters.Span) error {
			a.docSpans = append(a.docSpans, *sp)
			return nil
		})
		if err == nil {
			err = a.spans.add(a.docSpans, format.Name, a.src, line)
		}
		if err != nil {
			fail(KindAdapter, format.Name+": "+err.Error())
			return
		}
		if len(a.docSpans) > 0 {
			a.res.spans += int64(len(a.docSpans))
			a.res.countFormat(format.Name, 0)
		}
		return
	}
	var stepErr *LineError
	converted := 0 // the document's steps, whether or not their run is selected
	err = format.Convert(d, func(s *schema.Step) error {
		converted++
		before := a.res.steps
		decoding = true
		lerr := a.decodeStep(s, line)
		decoding = false
		if lerr != nil {
			stepErr = lerr
			return lerr
		}
		a.res.countFormat(format.Name, a.res.steps-before)
		return nil
	})
	switch {
	case stepErr != nil:
		fail(stepErr.Kind, fmt.Sprintf("%s: a converted step: %s", format.Name, stepErr.Reason))
	case err != nil:
		fail(KindAdapter, format.Name+": "+err.Error())
	case converted == 0 && !(a.lines && format.Transcript != nil && !d.Prompted) && len(d.Skipped) == 0:
		// A conversation of the user alone, a trajectory without an action:
		// nothing an agent did, and an input that yields nothing is never a
		// silent success. (A transcript's bookkeeping-only file, as Claude
		// Code keeps beside its sessions, is not an error; a transcript that
		// holds the user's prompt, d.Prompted, is a run begun.)
		fail(KindNoSteps, format.Name+": the document holds no step of an agent (no agent turn, no action)")
	default:
		a.lineRejects(d, format.Name)
	}
}

// lineRejects rejects, in the order of their lines, the lines of a
// transcript (a JSON Lines file read whole) that were not JSON, and the
// records its format could not read: each verbatim at its own line, while
// the run is read from the others. A session killed mid-write ends in a
// cut line; losing the session for it would lose the run that matters.
func (a *adaptedDecoder) lineRejects(d *adapters.Doc, format string) {
	type bad struct {
		adapters.BadLine
		kind, reason string
	}
	var all []bad
	for _, bl := range d.BadLines {
		all = append(all, bad{bl, KindMalformedJSON, bl.Reason})
	}
	for _, bl := range d.Skipped {
		all = append(all, bad{bl, KindAdapter, format + ": " + bl.Reason})
	}
	slices.SortStableFunc(all, func(x, y bad) int { return cmp.Compare(x.Line, y.Line) })
	for _, b := range all {
		a.res.rejects = append(a.res.rejects, lineReject{line: b.Line, kind: b.kind, reason: b.reason, raw: bytes.Clone(b.Raw)})
	}
}

// decodeStep decodes a converted step at line, checked and derived as a
// logged one, and cuts a batch when it is full.
func (a *adaptedDecoder) decodeStep(s *schema.Step, line int64) *LineError {
	return a.count(a.dec.decodeConverted(a.w, s, a.src, line), line, func() []byte {
		raw, _ := adapters.AppendStepJSON(nil, s)
		return raw
	})
}

// decode decodes a.line as a step at line and cuts a batch when it is full.
func (a *adaptedDecoder) decode(line int64) *LineError {
	return a.count(a.dec.DecodeLine(a.w, a.line, a.src, line), line, func() []byte { return bytes.Clone(a.line) })
}

// count records what decoding a step at line gave: a row (kept, with
// the text raw gives, when lines are kept; the batch cut when full), a
// step of a run not selected, or the reject it returns.
func (a *adaptedDecoder) count(err *LineError, line int64, raw func() []byte) *LineError {
	switch {
	case err == errNotSelected:
		a.res.skipped++
	case err != nil:
		return err
	default:
		a.res.steps++
		if a.dec.keepLines {
			a.res.kept = append(a.res.kept, StepLine{Source: int(a.src), Line: line, RunID: a.dec.lastRunID, Step: a.dec.lastStep, Raw: raw()})
		}
		if a.w.rows >= a.batchRows {
			a.res.more = append(a.res.more, a.w.newBatch())
		}
	}
	return nil
}

// arrayOfSteps reports whether a JSON array's elements are runaway steps,
// as its first element says (nativeStep).
func arrayOfSteps(name string, line int64, els []json.RawMessage) bool {
	if len(els) == 0 {
		return false
	}
	t := bytes.TrimSpace(els[0])
	return len(t) > 0 && t[0] == '{' && nativeStep(name, line, t)
}

// stepArray decodes each element of a JSON array of steps as a line.
func (a *adaptedDecoder) stepArray(line int64, els []json.RawMessage) {
	for i, el := range els {
		a.line = append(a.line[:0], el...)
		if lerr := a.decode(line); lerr != nil {
			a.res.rejects = append(a.res.rejects, lineReject{line: line, kind: lerr.Kind, reason: fmt.Sprintf("element %d: %s", i, lerr.Reason), raw: bytes.Clone(el)})
		}
	}
}

// decodeAdapted decodes a chunk of an adapted source: a document read
// whole, or lines that are each a document.
func decodeAdapted(dec *LineDecoder, w *batchWriter, it *item, batchRows int, strip bool, spans *spanStore) {
	res := &it.result
	a := &adaptedDecoder{dec: dec, w: w, batchRows: batchRows, res: res, src: int32(it.src), strip: strip, spans: spans}
	if it.doc != nil {
		res.lines += it.docLines
		a.lines, a.sniffed = it.lines, it.sniffed
		a.document(it.name, it.firstLine, true, it.doc, it.adapter)
		it.doc = nil
	} else {
		lineNo := it.firstLine
		lens := it.lineLens
		for _, seg := range it.segs {
			for len(seg) > 0 {
				n := lens[0]
				lens = lens[1:]
				raw := seg[:n]
				seg = seg[n:]
				if raw[n-1] == '\n' {
					raw = raw[:n-1]
				}
				line := bytes.TrimRight(raw, "\r")
				if isBlank(line) {
					res.blank++
				} else {
					res.lines++
					a.document(it.name, lineNo, false, line, it.adapter)
				}
				lineNo++
			}
		}
	}
	if it.tail != nil {
		res.lines++
		res.rejects = append(res.rejects, *it.tail)
	}
	if w.rows > 0 {
		res.batch = w.newBatch()
	}
}
