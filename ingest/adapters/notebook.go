package adapters

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Notebook reads the agents' logs a Jupyter notebook kept: a cell that ran
// an agent (a LangChain AgentExecutor with verbose=True, a CrewAI crew)
// keeps what it printed in the cell's outputs, and for agents tried out in
// notebooks (tutorials, cookbooks, a developer's experiments) that output is
// the only record of the run. Each code cell's printed output is read as
// the plain-text log it is, by the text formats that read such logs
// (react-log); cells whose output no text format reads are passed over.
var Notebook = &Format{
	Name:      "notebook",
	Title:     "Jupyter notebooks (.ipynb): the agents' console logs kept in their cells' outputs",
	Recognize: recognizeNotebook,
	Convert:   convertNotebook,
}

// notebookCell is a cell of an nbformat 4 notebook: the fields read.
type notebookCell struct {
	CellType string           `json:"cell_type"`
	Outputs  []notebookOutput `json:"outputs"`
}

// notebookOutput is one output of a code cell. A stream's text (stdout,
// stderr) is a string or a list of lines; an error's is its traceback.
type notebookOutput struct {
	OutputType string          `json:"output_type"`
	Text       json.RawMessage `json:"text"`
}

func recognizeNotebook(d *Doc) error {
	if !d.IsObject() || len(d.obj["cells"]) == 0 || d.obj["cells"][0] != '[' || len(d.obj["nbformat"]) == 0 {
		return errors.New(`not a Jupyter notebook (an object with "cells" and "nbformat")`)
	}
	return nil
}

// notebookText is an output's text: nbformat writes a multi-line text as
// a list of lines, each ending in its newline, or as one string.
func notebookText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, "")
	}
	return ""
}

func convertNotebook(d *Doc, emit func(*schema.Step) error) error {
	var cells []notebookCell
	if err := json.Unmarshal(d.obj["cells"], &cells); err != nil {
		return jsonError(err)
	}
	found, printed := false, false
	for i, c := range cells {
		text := notebookCellText(c)
		if strings.TrimSpace(text) == "" {
			continue
		}
		printed = true
		head := text
		if len(head) > 64<<10 {
			head = head[:64<<10]
		}
		f := notebookTextFormat([]byte(head))
		if f == nil {
			continue // a cell that printed something else: a table, a plot's note
		}
		// The cell's output is a document of its own, named after the
		// notebook and the cell's place in it (0-based, as Jupyter's
		// file lists them), so that its runs can be found.
		cell := TextDoc(d.Source+"#cell-"+strconv.Itoa(i), 1, []byte(text))
		cell.StripOutput = d.StripOutput
		if err := f.Recognize(cell); err != nil {
			continue
		}
		if err := f.Convert(cell, emit); err != nil {
			// The cell's log held no run: it is kept as a reject, saying
			// why, and the other cells are read.
			d.Skipped = append(d.Skipped, BadLine{Line: d.Line, Raw: []byte(text),
				Reason: "cell " + strconv.Itoa(i) + " (" + f.Name + "): " + err.Error()})
			continue
		}
		found = true
	}
	switch {
	case found:
		return nil
	case printed:
		return errors.New("no code cell printed an agent's console log that a text format reads (LangChain's verbose AgentExecutor, CrewAI, a ReAct loop's Thought/Action/Observation lines)")
	default:
		return errors.New("no code cell kept any printed output (a notebook saved without its outputs holds no run)")
	}
}

// notebookTextFormats are the formats written as plain text, in registry
// order (TestNotebookTextFormats keeps the list in step with the
// registry, which cannot be named here: the registry holds Notebook).
var notebookTextFormats = []*Format{AutoGen, RovoDev, Aider, ChatDev, ReactLog}

// notebookTextFormat is the text format whose logs open with head, or nil.
func notebookTextFormat(head []byte) *Format {
	for _, f := range notebookTextFormats {
		if f.Text(head) {
			return f
		}
	}
	return nil
}

// NotebookPrintedALog reports whether raw, a notebook, has a code cell
// whose printed output opens as a log a text format reads: what a
// directory walk asks before reading a notebook.
func NotebookPrintedALog(raw []byte) bool {
	d, err := ParseDoc("", 1, true, raw)
	if err != nil || recognizeNotebook(d) != nil {
		return false
	}
	var cells []notebookCell
	if json.Unmarshal(d.obj["cells"], &cells) != nil {
		return false
	}
	for _, c := range cells {
		text := notebookCellText(c)
		if len(text) > 64<<10 {
			text = text[:64<<10]
		}
		if strings.TrimSpace(text) != "" && notebookTextFormat([]byte(text)) != nil {
			return true
		}
	}
	return false
}

// notebookCellText is what a code cell printed: its stream outputs, in
// order.
func notebookCellText(c notebookCell) string {
	if c.CellType != "code" {
		return ""
	}
	var b strings.Builder
	for _, o := range c.Outputs {
		if o.OutputType == "stream" {
			b.WriteString(notebookText(o.Text))
		}
	}
	return b.String()
}
