package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A notebook's cells that printed an agent's console log are read as the
// text logs they are, each named after the notebook and its cell; a cell
// that printed something else (an install's lines), markdown cells and
// cells never run are passed over.
func TestNotebookSample(t *testing.T) {
	const file = "crew-and-react-agent.ipynb"
	c := convert(t, Notebook, file, 1, true, readSample(t, "notebook/"+file))
	crew, react := file+"#cell-2#Senior Market Researcher", file+"#cell-3"
	if got := fmt.Sprint(c.runs); got != fmt.Sprint([]string{crew, react}) {
		t.Fatalf("runs %s", got)
	}
	if got := fmt.Sprint(c.numbers(crew)); got != "[1 3 5 7 9 11 13 15 17]" {
		t.Errorf("the crew's steps %s, as the log read alone gives them", got)
	}
	if s := c.step(t, crew, 3); result(s) != "error REJECTED" {
		t.Errorf("the repeated search CrewAI refused: %s", result(s))
	}
	if s := c.step(t, react, 6); s.State != schema.StateStop.String() {
		t.Errorf("the ReAct agent's final answer: %s", s.State)
	}
}

// A notebook is recognised by its own keys; one that holds no run says why:
// saved without outputs, or its cells printed no agent's log. A cell whose
// log holds no run is kept as a reject, the other cells read.
func TestNotebookWithoutRuns(t *testing.T) {
	nb := func(outputs ...string) []byte {
		var cells []string
		for _, o := range outputs {
			cells = append(cells, `{"cell_type": "code", "source": ["x"], "outputs": [{"output_type": "stream", "name": "stdout", "text": `+o+`}]}`)
		}
		return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + strings.Join(cells, ",") + `]}`)
	}
	for _, c := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"saved without outputs", []byte(`{"nbformat": 4, "metadata": {}, "cells": [{"cell_type": "code", "source": ["crew.kickoff()"], "outputs": []}]}`), "kept any printed output"},
		{"no agent's log", nb(`["accuracy: 0.93\n", "loss: 0.21\n"]`), "no code cell printed an agent's console log"},
	} {
		d, err := ParseDoc("n.ipynb", 1, true, c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := Detect(d); f != Notebook {
			t.Fatalf("%s: detected %v %v", c.name, f, err)
		}
		if err := ConvertDoc(Notebook, d, func(*schema.Step) error { return nil }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	d, err := ParseDoc("n.ipynb", 1, true, nb(`"> Entering new AgentExecutor chain...\n> Finished chain.\n"`, `"Thought: look it up\nAction: Search\nAction Input: tides\nObservation: high water at 05:12\nThought: I know\nFinal Answer: 05:12\n"`))
	if err != nil {
		t.Fatal(err)
	}
	var steps int
	if err := ConvertDoc(Notebook, d, func(*schema.Step) error { steps++; return nil }); err != nil || steps != 2 {
		t.Fatalf("%d steps, %v; want the second cell's two", steps, err)
	}
	if len(d.Skipped) != 1 || !strings.Contains(d.Skipped[0].Reason, "cell 0 (react-log)") {
		t.Errorf("the first cell, an empty chain: %+v", d.Skipped)
	}
}
