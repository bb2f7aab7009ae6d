package ingest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// BenchmarkAdapt reads agent trajectories through the adapters, and
// runaway's own step lines holding the same steps, with Read as a scan
// calls it (auto-detected formats, every worker). MB/s counts source bytes;
// steps/s compares the paths on content, since a trajectory carries far more
// bytes per step than the steps it becomes; MB/cpu-s (all threads, GC
// included) is the steadier figure on a shared machine. The corpora are
// generated (shapes of real files, not copies of them), each at least
// adaptBenchBytes, once per process: -count reuses them. -count repeats
// each sub-benchmark back to back; to interleave the formats, run the test
// binary several times (docs/performance.md, "Results", quotes the figures).
func BenchmarkAdapt(b *testing.B) {
	for _, f := range adaptBenchFormats {
		b.Run(f.name, func(b *testing.B) {
			c, err := f.corpus()
			if err != nil {
				b.Fatal(err)
			}
			benchReadCorpus(b, c)
		})
	}
}

var adaptBenchFormats = []struct {
	name   string
	corpus func() (*adaptCorpus, error)
}{
	{"native", sync.OnceValues(nativeBenchCorpus)},
	{"swe-agent", sync.OnceValues(sweAgentBenchCorpus)},
	{"mini-swe-agent", sync.OnceValues(miniBenchCorpus)},
	{"openhands", sync.OnceValues(openHandsBenchCorpus)},
	{"openai-messages", sync.OnceValues(openAIBenchCorpus)},
	{"anthropic-messages", sync.OnceValues(claudeCodeBenchCorpus)},
	{"codex", sync.OnceValues(codexBenchCorpus)},
	{"autogen", sync.OnceValues(autoGenBenchCorpus)},
	{"autogen-ag2", sync.OnceValues(func() (*adaptCorpus, error) { return filesBenchCorpus("autogen", "ag2-runtime-storm.log") })},
	{"gemini-cli", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("gemini-cli", "session-edit-loop.ndjson", "session-fix-converges.json", "headless-build-loop.ndjson")
	})},
	{"cursor", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("cursor", "test-edit-loop.ndjson", "parallel-sleep.ndjson")
	})},
	{"copilot-cli", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("copilot-cli", "session-import-error-loop.ndjson", "invalid-view-args.ndjson", "prompt-json-output.ndjson")
	})},
	{"dspy", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("dspy", "order-lookup-error-loop.json", "qa-predictions.ndjson")
	})},
	{"opencode", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("opencode", "ci-edit-loop.ndjson", "ci-healthy.ndjson")
	})},
	{"inspect", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("inspect", "fix-dates-samples.json", "oxdna-simple-excerpt.eval", "bash-repeat-loop-pooled.eval")
	})},
	{"qwen-code", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("qwen-code", "session-search-loop.ndjson", "session-test-fix.ndjson")
	})},
	{"continue", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("continue", "session-find-replace-loop.json", "session-terminal-fix.json")
	})},
	{"rovo-dev", sync.OnceValues(rovoBenchCorpus)},
	{"smolagents", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("smolagents", "code-agent-error-loop.json", "tool-calling-agent.json")
	})},
	{"trae-agent", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("trae-agent", "edit-rejected-loop.json", "healthy-fix.json")
	})},
	{"atif", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("atif", "terminus-install-loop.json", "claude-code-healthy-fix.json")
	})},
	{"browser-use", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("browser-use", "click-same-element-loop.json", "element-index-error-storm.json", "healthy-library-hours.json")
	})},
	{"aider", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("aider", "edit-no-match-loop.aider.chat.history.md", "healthy-settings.aider.chat.history.md")
	})},
	{"chatdev", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("chatdev", "test-error-storm.log", "healthy-review-and-test.log")
	})},
	{"react-log", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("react-log", "search-loop.log", "healthy-answer.log")
	})},
	{"react-log-crewai", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("react-log", "crewai-search-loop.log", "crewai-delegation.log")
	})},
	{"notebook", sync.OnceValues(func() (*adaptCorpus, error) {
		return filesBenchCorpus("notebook", "crew-and-react-agent.ipynb")
	})},
	{"otlp", sync.OnceValues(otlpBenchCorpus)}, // spans_bench_test.go
	{"langfuse", sync.OnceValues(func() (*adaptCorpus, error) { return sampleBenchCorpus("langfuse", "loop.ndjson") })},
	{"langsmith", sync.OnceValues(func() (*adaptCorpus, error) {
		return sampleBenchCorpus("langsmith", "loop.ndjson", "healthy.ndjson")
	})},
	{"openai-agents", sync.OnceValues(func() (*adaptCorpus, error) {
		return sampleBenchCorpus("openai-agents", "loop.ndjson", "healthy.ndjson")
	})},
	{"mlflow", sync.OnceValues(func() (*adaptCorpus, error) {
		return sampleBenchCorpus("mlflow", "loop.json", "healthy.ndjson")
	})},
	{"parquet", sync.OnceValues(parquetBenchCorpus)},
}

// parquetBenchCorpus is the native corpus's steps as Parquet tables of
// struct columns (arguments and data as JSON text), one file per source,
// in row groups of 64Ki rows as writers commonly cut them. Parquet's
// compression makes MB/s incomparable with the text formats: compare
// steps/s.
func parquetBenchCorpus() (*adaptCorpus, error) {
	native, err := nativeBenchCorpus()
	if err != nil {
		return nil, err
	}
	c := &adaptCorpus{}
	var lines bytes.Buffer
	flush := func(i int) error {
		rows, err := toTableLines(lines.Bytes())
		if err != nil {
			return err
		}
		pq, err := writeParquetBytes(memory.NewGoAllocator(), stepTableSchema(), rows, 64<<10)
		if err != nil {
			return err
		}
		c.add(fmt.Sprintf("steps-%03d.parquet", i), pq, bytes.Count(rows, []byte("\n")))
		lines.Reset()
		return nil
	}
	files := 0
	for _, src := range native.sources {
		rc, _ := src.Open()
		if _, err := lines.ReadFrom(rc); err != nil {
			return nil, err
		}
		if lines.Len() >= 8<<20 {
			if err := flush(files); err != nil {
				return nil, err
			}
			files++
		}
	}
	if lines.Len() > 0 {
		if err := flush(files); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// adaptBenchBytes is the least source bytes of each corpus: enough sources
// (or, for OpenHands' one file, documents) that opening, sniffing and
// handing out each one is paid as often as in a real directory of them.
const adaptBenchBytes = 64 << 20

// adaptCorpus is one benchmark input and the steps reading it must give.
type adaptCorpus struct {
	sources []Source
	bytes   int64
	steps   int64
}

func (c *adaptCorpus) add(name string, data []byte, steps int) {
	c.sources = append(c.sources, memSource(name, data))
	c.bytes += int64(len(data))
	c.steps += int64(steps)
}

func benchReadCorpus(b *testing.B, c *adaptCorpus) {
	opts := Options{Alloc: memory.NewGoAllocator()}
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	runtime.GC() // the garbage of building the corpus is not the read's
	cpu0 := cpuTime()
	for b.Loop() {
		st, err := Read(context.Background(), c.sources, opts, func(arrow.RecordBatch) error { return nil })
		if err != nil || st.Steps != c.steps || st.Rejected != 0 || st.Files != len(c.sources) {
			b.Fatalf("%v: %d steps of %d, %d rejected (%v), %d files of %d", err, st.Steps, c.steps, st.Rejected, st.RejectsByKind, st.Files, len(c.sources))
		}
	}
	b.ReportMetric(float64(b.N)*float64(c.steps)/b.Elapsed().Seconds(), "steps/s")
	if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(c.bytes)/1e6/cpu, "MB/cpu-s")
	}
}

// convertBenchDoc checks that raw is detected as a document of want and
// counts the steps it converts to, passing each to step if non-nil.
func convertBenchDoc(want *adapters.Format, name string, line int64, whole bool, raw []byte, step func(*schema.Step) error) (int, error) {
	d, err := adapters.ParseDoc(name, line, whole, raw)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	f, err := adapters.Detect(d)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	if f != want {
		return 0, fmt.Errorf("%s: detected as %s, not %s", name, f.Name, want.Name)
	}
	n := 0
	err = f.Convert(d, func(s *schema.Step) error {
		n++
		if step != nil {
			return step(s)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	return n, nil
}

// benchJSON encodes v as Python's json.dump does: HTML characters as they
// are, indented by indent ("" for one line), no trailing newline.
func benchJSON(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// --- (a) SWE-agent 1.x .traj, and (e) the same steps as runaway's lines ---

// sweAgentBenchCorpus is SWE-agent 1.x .traj files, pretty-printed, 30-70
// turns each; every turn carries the query it was answered from (the whole
// conversation so far, observations older than five turns elided), which
// makes a file 1-5 MB.
func sweAgentBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for i := 0; c.bytes < adaptBenchBytes; i++ {
		name, raw := sweBenchTraj(i, true)
		n, err := convertBenchDoc(adapters.SWEAgent, name, 1, true, raw, nil)
		if err != nil {
			return nil, err
		}
		c.add(name, raw, n)
	}
	return c, nil
}

// nativeBenchCorpus holds, as runaway's step lines (one file per run), the
// steps SWE-agent's adapter makes of the trajectories of
// sweAgentBenchCorpus, and of as many more trajectories of the same
// generator as reach adaptBenchBytes of lines: a step line is some 20 times
// smaller than its turn in a .traj file.
func nativeBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	var line []byte
	for i := 0; c.bytes < adaptBenchBytes; i++ {
		name, raw := sweBenchTraj(i, false) // the queries change no step
		var out bytes.Buffer
		n, err := convertBenchDoc(adapters.SWEAgent, name, 1, true, raw, func(s *schema.Step) error {
			var err error
			if line, err = adapters.AppendStepJSON(line[:0], s); err != nil {
				return err
			}
			out.Write(line)
			out.WriteByte('\n')
			return nil
		})
		if err != nil {
			return nil, err
		}
		if i == 0 {
			// The steps are those of the .traj file with its queries.
			_, full := sweBenchTraj(i, true)
			var want bytes.Buffer
			if _, err := convertBenchDoc(adapters.SWEAgent, name, 1, true, full, func(s *schema.Step) error {
				l, err := adapters.AppendStepJSON(nil, s)
				want.Write(l)
				want.WriteByte('\n')
				return err
			}); err != nil {
				return nil, err
			}
			if !bytes.Equal(want.Bytes(), out.Bytes()) {
				return nil, fmt.Errorf("%s: the queries changed the steps", name)
			}
		}
		c.add(strings.TrimSuffix(name, ".traj")+".jsonl", out.Bytes(), n)
	}
	return c, nil
}

type sweMsg struct {
	Role           string        `json:"role"`
	Content        any           `json:"content"`
	Thought        string        `json:"thought,omitempty"`
	Action         string        `json:"action,omitempty"`
	Agent          string        `json:"agent"`
	ToolCalls      []benchCall   `json:"tool_calls,omitempty"`
	MessageType    string        `json:"message_type"`
	ToolCallIDs    []string      `json:"tool_call_ids,omitempty"`
	ThinkingBlocks []any         `json:"thinking_blocks,omitempty"`
	CacheControl   *benchCacheCC `json:"cache_control,omitempty"`
}

type benchCacheCC struct {
	Type string `json:"type"`
}

type benchCall struct {
	Function struct {
		Arguments string `json:"arguments"`
		Name      string `json:"name"`
	} `json:"function"`
	ID   string `json:"id"`
	Type string `json:"type"`
}

func newBenchCall(id, name string, args any) benchCall {
	var c benchCall
	c.Function.Arguments = string(benchJSON(args, ""))
	c.Function.Name = name
	c.ID, c.Type = id, "function"
	return c
}

type benchTextPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type sweEntryOut struct {
	Action        string         `json:"action"`
	Observation   string         `json:"observation"`
	Response      string         `json:"response"`
	Thought       string         `json:"thought"`
	ExecutionTime float64        `json:"execution_time"`
	State         map[string]any `json:"state"`
	Query         []sweMsg       `json:"query,omitempty"`
	ExtraInfo     map[string]any `json:"extra_info"`
}

type sweTrajOut struct {
	Trajectory   []sweEntryOut  `json:"trajectory"`
	History      []sweMsg       `json:"history"`
	Info         map[string]any `json:"info"`
	ReplayConfig string         `json:"replay_config"`
	Environment  string         `json:"environment"`
}

// sweBenchTraj is the i-th generated .traj file and its name; without
// queries it is a much smaller document that converts to the same steps.
func sweBenchTraj(i int, withQuery bool) (string, []byte) {
	g := newBenchText(0x5e000000 + uint64(i))
	task := g.task(i, "/testbed")
	turns := g.turns(task, g.n(30, 70))
	sys := sweMsg{Role: "system", Content: "You are a helpful assistant that can interact with a computer to solve tasks.", Agent: "main", MessageType: "system_prompt"}
	user := sweMsg{Role: "user", Agent: "main", MessageType: "observation", Content: []benchTextPart{{"text", "<uploaded_files>\n/testbed\n</uploaded_files>\n" +
		"I've uploaded a python code repository in the directory /testbed. Consider the following PR description:\n\n<pr_description>\n" + task.issue +
		"\n</pr_description>\n\nCan you help me implement the necessary changes to the repository so that the requirements specified in the <pr_description> are met?\n" +
		g.para(8, 14)}}}
	var (
		entries []sweEntryOut
		history = []sweMsg{sys, user}
		obsSeen []int // positions in history of the tool messages
		cost    float64
		sent    int64
	)
	for k, t := range turns {
		action, tool, args, obs := sweRender(&t)
		id := g.callID()
		e := sweEntryOut{
			Action: action, Observation: obs, Response: t.thought, Thought: t.thought,
			ExecutionTime: float64(g.n(20, 9000)) / 1000,
			State:         map[string]any{"working_dir": "/testbed", "open_file": "n/a", "diff": ""},
			ExtraInfo:     map[string]any{},
		}
		if withQuery {
			// The model saw the conversation so far, observations older
			// than five turns elided (last_n_observations: 5).
			q := make([]sweMsg, len(history))
			copy(q, history)
			for j, pos := range obsSeen {
				if j < len(obsSeen)-5 {
					lines := strings.Count(history[pos].Content.([]benchTextPart)[0].Text, "\n") + 1
					q[pos].Content = []benchTextPart{{"text", fmt.Sprintf("Old environment output: (%d lines omitted)", lines)}}
				}
			}
			q[len(q)-1].CacheControl = &benchCacheCC{"ephemeral"}
			e.Query = q
		}
		entries = append(entries, e)
		call := newBenchCall(id, tool, args)
		history = append(history,
			sweMsg{Role: "assistant", Content: t.thought, Thought: t.thought, Action: action, Agent: "main", ToolCalls: []benchCall{call}, MessageType: "action", ThinkingBlocks: []any{}},
			sweMsg{Role: "tool", Content: []benchTextPart{{"text", "OBSERVATION:\n" + obs}}, Agent: "main", MessageType: "observation", ToolCallIDs: []string{id}})
		obsSeen = append(obsSeen, len(history)-1)
		cost += float64(g.n(5, 40)) / 1000
		sent += int64(3000 + 700*k)
	}
	diff := g.diff(task)
	edited := map[string]any{"files": task.files}
	doc := sweTrajOut{
		Trajectory: entries,
		History:    history,
		Info: map[string]any{
			"swe_agent_hash": fmt.Sprintf("%040x", g.r.Uint64()), "swe_agent_version": "1.0.1", "swe_rex_version": "1.2.1", "swe_rex_hash": "unavailable",
			"submission": diff, "exit_status": "submitted", "edited_files30": edited, "edited_files50": edited, "edited_files70": edited,
			"model_stats": map[string]any{"instance_cost": cost, "tokens_sent": sent, "tokens_received": int64(len(turns) * g.n(80, 300)), "api_calls": len(turns)},
		},
		ReplayConfig: string(benchJSON(map[string]any{
			"env":   map[string]any{"deployment": map[string]any{"image": "swebench/sweb.eval.x86_64." + task.id + ":latest", "type": "docker"}, "repo": map[string]any{"repo_name": "testbed", "type": "preexisting"}},
			"agent": map[string]any{"model": map[string]any{"name": "claude-3-7-sonnet-20250219", "per_instance_cost_limit": 2, "temperature": 0}, "templates": map[string]any{"system_template": g.para(6, 10), "instance_template": g.para(10, 16)}},
		}, "")),
		Environment: "main",
	}
	return "sweagent/" + task.id + "/" + task.id + ".traj", benchJSON(doc, "  ")
}

// sweRender is a turn as SWE-agent 1.x logs it: the action, the tool and
// arguments the model called, and the observation.
func sweRender(t *benchTurn) (action, tool string, args map[string]any, obs string) {
	switch t.kind {
	case turnView:
		action = "str_replace_editor view " + t.path
		args = map[string]any{"command": "view", "path": t.path}
		if t.from > 1 {
			action += fmt.Sprintf("  --view_range %d %d", t.from, t.from+len(t.lines)-1)
			args["view_range"] = []int{t.from, t.from + len(t.lines) - 1}
		}
		return action, "str_replace_editor", args, "Here's the result of running `cat -n` on " + t.path + ":\n" + numbered(t.from, t.lines)
	case turnCreate:
		return fmt.Sprintf("str_replace_editor create %s --file_text '%s'", t.path, t.text), "str_replace_editor",
			map[string]any{"command": "create", "path": t.path, "file_text": t.text}, "File created successfully at: " + t.path
	case turnEdit:
		action = fmt.Sprintf("str_replace_editor str_replace %s   --old_str '%s' --new_str '%s'", t.path, t.old, t.new)
		args = map[string]any{"command": "str_replace", "path": t.path, "old_str": t.old, "new_str": t.new}
		if t.failed {
			return action, "str_replace_editor", args, fmt.Sprintf("No replacement was performed, old_str `%s` did not appear verbatim in %s.", t.old, t.path)
		}
		return action, "str_replace_editor", args, fmt.Sprintf("The file %s has been edited. Here's the result of running `cat -n` on a snippet of %s:\n%s"+
			"Review the changes and make sure they are as expected. Edit the file again if necessary.", t.path, t.path, numbered(t.from, t.lines))
	case turnSubmit:
		return "submit", "submit", map[string]any{}, t.out
	}
	obs = t.out
	if strings.TrimSpace(obs) == "" {
		obs = "Your command ran successfully and did not produce any output."
	}
	return t.cmd, "bash", map[string]any{"command": t.cmd}, obs
}

// --- (b) mini-swe-agent .traj.json ---

// miniBenchCorpus is mini-swe-agent .traj.json files, pretty-printed: the
// conversation (a bash block per turn, the harness's <returncode> and
// <output> replies) and the run's info with the agent's config.
func miniBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for i := 0; c.bytes < adaptBenchBytes; i++ {
		name, raw := miniBenchTraj(i)
		n, err := convertBenchDoc(adapters.MiniSWEAgent, name, 1, true, raw, nil)
		if err != nil {
			return nil, err
		}
		c.add(name, raw, n)
	}
	return c, nil
}

type benchMsg struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func miniBenchTraj(i int) (string, []byte) {
	g := newBenchText(0x31000000 + uint64(i))
	task := g.task(i, "/testbed")
	turns := g.turns(task, g.n(15, 60))
	system := "You are a helpful assistant that can interact multiple times with a computer shell to solve programming tasks.\n" +
		"Your response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).\n\n" +
		"Include a THOUGHT section before your command where you explain your reasoning process.\nFormat your response as shown in <format_example>.\n\n" +
		"<format_example>\nTHOUGHT: Your reasoning and analysis here\n\n```bash\nyour_command_here\n```\n</format_example>\n\n" +
		"Failure to follow these rules will cause your response to be rejected."
	instance := "<pr_description>\nConsider the following PR description:\n" + task.issue + "\n</pr_description>\n\n<instructions>\n" +
		"# Task Instructions\n\n## Overview\n" + g.para(6, 10) + "\n\n## Recommended Workflow\n" + g.para(6, 10) + "\n\n## Command Execution Rules\n" + g.para(10, 16) +
		"\n\n## Submission\nWhen you've completed your work, run\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached\n```\n</instructions>"
	msgs := []benchMsg{{"system", system}, {"user", instance}}
	for _, t := range turns {
		if g.chance(0.04) {
			// Two bash blocks: the harness rejects the turn.
			msgs = append(msgs,
				benchMsg{"assistant", "THOUGHT: " + t.thought + "\n\n```bash\n" + miniCommand(&t) + "\n```\n\nThen:\n\n```bash\nls -la\n```"},
				benchMsg{"user", "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.\n\nPlease format your action in triple backticks as shown in <response_example>.\n\n" +
					"<response_example>\nHere are some thoughts about why you want to perform the action.\n\n```bash\n<action>\n```\n</response_example>\n\n" +
					"If you have completed your assignment, please consult the first message about how to\nsubmit your solution (you will not be able to continue working on this task after that)."})
		}
		cmd := miniCommand(&t)
		msgs = append(msgs, benchMsg{"assistant", "THOUGHT: " + t.thought + "\n\n```bash\n" + cmd + "\n```"})
		if t.kind == turnSubmit {
			msgs = append(msgs, benchMsg{"user", t.out})
			continue
		}
		out := miniOutput(&t)
		if len(out) < 10000 {
			msgs = append(msgs, benchMsg{"user", fmt.Sprintf("<returncode>%d</returncode>\n<output>\n%s</output>", t.exit, out)})
		} else {
			msgs = append(msgs, benchMsg{"user", fmt.Sprintf("<returncode>%d</returncode>\n<warning>\nThe output of your last command was too long.\n"+
				"Please try a different command that produces less output.\n</warning><output_head>\n%s\n</output_head>\n<elided_chars>\n%d characters elided\n</elided_chars>\n"+
				"<output_tail>\n%s\n</output_tail>", t.exit, out[:5000], len(out)-10000, out[len(out)-5000:])})
		}
	}
	doc := map[string]any{
		"info": map[string]any{
			"exit_status": "Submitted", "submission": turns[len(turns)-1].out, "mini_version": "1.9.1",
			"model_stats": map[string]any{"instance_cost": float64(g.n(20, 900)) / 1000, "api_calls": len(turns)},
			"config": map[string]any{
				"agent": map[string]any{"system_template": system, "instance_template": instance, "step_limit": 250, "cost_limit": 3.0,
					"timeout_template": g.para(2, 4), "format_error_template": g.para(3, 5), "action_observation_template": g.para(3, 6)},
				"model":       map[string]any{"model_name": "anthropic/claude-sonnet-4-20250514", "model_kwargs": map[string]any{"temperature": 0.0, "drop_params": true}},
				"environment": map[string]any{"image": "docker.io/swebench/sweb.eval.x86_64." + task.id + ":latest", "cwd": "/testbed", "timeout": 60, "env": map[string]any{"PAGER": "cat", "TQDM_DISABLE": "1"}},
			},
		},
		"messages":          msgs,
		"trajectory_format": "mini-swe-agent-1",
		"instance_id":       task.id,
	}
	return "mini/" + task.id + "/" + task.id + ".traj.json", benchJSON(doc, "  ")
}

// miniCommand is a turn as one bash command.
func miniCommand(t *benchTurn) string {
	switch t.kind {
	case turnView:
		return fmt.Sprintf("nl -ba %s | sed -n '%d,%dp'", t.path, t.from, t.from+len(t.lines)-1)
	case turnCreate:
		return "cat <<'EOF' > " + t.path + "\n" + t.text + "\nEOF"
	case turnEdit:
		return fmt.Sprintf("python - <<'PY'\nfrom pathlib import Path\np = Path(%q)\ns = p.read_text()\ns = s.replace(%q, %q)\np.write_text(s)\nPY", t.path, t.old, t.new)
	case turnSubmit:
		return "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"
	}
	return t.cmd
}

func miniOutput(t *benchTurn) string {
	switch t.kind {
	case turnView:
		return numbered(t.from, t.lines)
	case turnCreate, turnEdit:
		return ""
	}
	return t.out
}

// --- (c) OpenHands evaluation output.jsonl ---

// openHandsBenchCorpus is one output.jsonl of an evaluation: a task per
// line with its instance, metadata, metrics and history of about 100
// events (system prompt, task, recall, then action/observation pairs, each
// action with the model response that made it).
func openHandsBenchCorpus() (*adaptCorpus, error) {
	var out bytes.Buffer
	steps := 0
	for i := 0; out.Len() < adaptBenchBytes; i++ {
		raw := openHandsBenchTask(i)
		n, err := convertBenchDoc(adapters.OpenHands, "openhands/output.jsonl", int64(i+1), false, raw, nil)
		if err != nil {
			return nil, err
		}
		steps += n
		out.Write(raw)
		out.WriteByte('\n')
	}
	c := &adaptCorpus{}
	c.add("openhands/output.jsonl", out.Bytes(), steps)
	return c, nil
}

func openHandsBenchTask(i int) []byte {
	g := newBenchText(0x0b000000 + uint64(i))
	repo := benchRepos[i%len(benchRepos)]
	root := fmt.Sprintf("/workspace/%s__%s__%d.%d", repo.org, repo.name, g.n(1, 5), g.n(0, 9))
	task := g.task(i, root)
	turns := g.turns(task, g.n(40, 55))
	sec := 0
	ts := func() string {
		sec += g.n(1, 40)
		return fmt.Sprintf("2025-05-%02dT%02d:%02d:%02d.%06d", 1+i%28, 8+sec/3600%12, sec/60%60, sec%60, g.r.IntN(1000000))
	}
	var events []map[string]any
	id := 0
	event := func(m map[string]any) int {
		m["id"], m["timestamp"] = id, ts()
		events = append(events, m)
		id++
		return id - 1
	}
	instruction := "<uploaded_files>\n" + root + "\n</uploaded_files>\n\nI've uploaded a python code repository in the directory " + root +
		". Consider the following issue description:\n\n<issue_description>\n" + task.issue + "\n</issue_description>\n\n" + g.para(10, 16)
	event(map[string]any{"source": "agent", "message": "You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.", "action": "system",
		"args": map[string]any{"content": g.para(30, 45), "tools": []map[string]any{{"type": "function", "function": map[string]any{"name": "execute_bash", "description": g.para(4, 8)}},
			{"type": "function", "function": map[string]any{"name": "str_replace_editor", "description": g.para(8, 12)}}, {"type": "function", "function": map[string]any{"name": "think", "description": g.para(2, 4)}},
			{"type": "function", "function": map[string]any{"name": "finish", "description": g.para(2, 4)}}}, "openhands_version": "0.39.0", "agent_class": "CodeActAgent"}})
	event(map[string]any{"source": "user", "message": instruction, "action": "message", "args": map[string]any{"content": instruction, "image_urls": nil, "wait_for_response": false}})
	recall := event(map[string]any{"source": "user", "message": "Retrieving content for: " + task.issue[:min(80, len(task.issue))], "action": "recall", "args": map[string]any{"recall_type": "workspace_context", "query": instruction, "thought": ""}})
	event(map[string]any{"source": "environment", "message": "Added workspace context", "cause": recall, "observation": "recall", "content": "Added workspace context",
		"extras": map[string]any{"recall_type": "workspace_context", "repo_name": "", "repo_directory": "", "runtime_hosts": map[string]any{"http://localhost:50921": 50921}, "custom_secrets_descriptions": map[string]any{}, "date": "2025-05-01", "working_dir": root}})
	event(map[string]any{"source": "environment", "message": "", "observation": "agent_state_changed", "content": "", "extras": map[string]any{"agent_state": "running", "reason": ""}})
	tokens := 9000
	for _, t := range turns {
		tokens += g.n(300, 3000)
		callID := g.callID()
		var (
			action, fn, message string
			args                map[string]any
		)
		switch t.kind {
		case turnView:
			action, fn, message = "read", "str_replace_editor", "Reading file: "+t.path
			args = map[string]any{"path": t.path, "start": 0, "end": -1, "thought": t.thought, "security_risk": nil, "impl_source": "oh_aci", "view_range": []int{t.from, t.from + len(t.lines) - 1}}
		case turnCreate, turnEdit:
			action, fn = "edit", "str_replace_editor"
			args = map[string]any{"path": t.path, "command": "str_replace", "file_text": nil, "old_str": t.old, "new_str": t.new, "insert_line": nil,
				"content": "", "start": 1, "end": -1, "thought": t.thought, "security_risk": nil, "impl_source": "oh_aci"}
			if t.kind == turnCreate {
				args["command"], args["file_text"], args["old_str"], args["new_str"] = "create", t.text, nil, nil
			}
			message = "Editing file: " + t.path
		case turnSubmit:
			action, fn, message = "finish", "finish", t.thought
			args = map[string]any{"final_thought": t.thought, "task_completed": "true", "outputs": map[string]any{}, "thought": ""}
		default:
			if g.chance(0.08) {
				event(map[string]any{"source": "agent", "message": t.thought, "action": "think", "args": map[string]any{"thought": t.thought}})
				event(map[string]any{"source": "agent", "message": "Your thought has been logged.", "cause": id - 1, "observation": "think", "content": "Your thought has been logged.", "extras": map[string]any{}})
			}
			action, fn, message = "run", "execute_bash", "Running command: "+t.cmd
			args = map[string]any{"command": t.cmd, "is_input": false, "thought": t.thought, "blocking": false, "is_static": false, "cwd": nil, "hidden": false,
				"confirmation_state": "confirmed", "security_risk": nil}
		}
		meta := map[string]any{"function_name": fn, "tool_call_id": callID, "total_calls_in_response": 1,
			"model_response": map[string]any{"id": fmt.Sprintf("chatcmpl-%016x", g.r.Uint64()), "created": 1746086400 + sec, "model": "litellm_proxy/claude-3-7-sonnet-20250219",
				"object": "chat.completion", "system_fingerprint": nil,
				"choices": []map[string]any{{"finish_reason": "tool_calls", "index": 0, "message": map[string]any{"content": t.thought, "role": "assistant",
					"tool_calls": []benchCall{newBenchCall(callID, fn, args)}, "function_call": nil}}},
				"usage": map[string]any{"completion_tokens": g.n(60, 900), "prompt_tokens": tokens, "total_tokens": tokens + 500, "completion_tokens_details": nil,
					"prompt_tokens_details": map[string]any{"audio_tokens": nil, "cached_tokens": tokens - 800}, "cache_creation_input_tokens": 800, "cache_read_input_tokens": tokens - 800}}}
		metrics := map[string]any{"accumulated_cost": float64(tokens) * 3e-6, "accumulated_token_usage": map[string]any{"model": "default", "prompt_tokens": tokens, "completion_tokens": 200,
			"cache_read_tokens": tokens - 800, "cache_write_tokens": 800, "context_window": 200000, "per_turn_token": g.n(100, 4000), "response_id": ""}, "costs": []any{}, "response_latencies": []any{}, "token_usages": []any{}}
		act := event(map[string]any{"source": "agent", "message": message, "action": action, "tool_call_metadata": meta, "llm_metrics": metrics, "args": args})
		if t.kind == turnSubmit {
			break
		}
		obs := map[string]any{"source": "agent", "cause": act, "tool_call_metadata": meta, "success": true}
		switch t.kind {
		case turnView:
			obs["message"], obs["observation"] = "I read the file "+t.path+".", "read"
			obs["content"] = "Here's the result of running `cat -n` on " + t.path + ":\n" + numbered(t.from, t.lines)
			obs["extras"] = map[string]any{"path": t.path, "impl_source": "oh_aci"}
		case turnCreate, turnEdit:
			obs["message"], obs["observation"] = "I edited the file "+t.path+".", "edit"
			content := "File created successfully at: " + t.path
			if t.kind == turnEdit {
				content = fmt.Sprintf("The file %s has been edited. Here's the result of running `cat -n` on a snippet of %s:\n%sReview the changes and make sure they are as expected. Edit the file again if necessary.", t.path, t.path, numbered(t.from, t.lines))
				if t.failed {
					content = fmt.Sprintf("ERROR:\nNo replacement was performed, old_str `%s` did not appear verbatim in %s.", t.old, t.path)
				}
			}
			obs["content"] = content
			obs["extras"] = map[string]any{"path": t.path, "prev_exist": t.kind == turnEdit, "old_content": t.old, "new_content": t.new, "impl_source": "oh_aci",
				"diff": "--- " + t.path + "\n+++ " + t.path + "\n@@ -1,3 +1,3 @@\n-" + t.old + "\n+" + t.new + "\n", "_diff_cache": nil}
		default:
			obs["message"], obs["observation"] = fmt.Sprintf("Command `%s` executed with exit code %d.", t.cmd, t.exit), "run"
			obs["content"] = t.out
			obs["extras"] = map[string]any{"command": t.cmd, "hidden": false, "metadata": map[string]any{"exit_code": t.exit, "pid": -1, "username": "root", "hostname": "runtime-" + task.id,
				"working_dir": root, "py_interpreter_path": "/opt/miniconda3/envs/testbed/bin/python", "prefix": "", "suffix": fmt.Sprintf("\n[The command completed with exit code %d.]", t.exit)}}
		}
		event(obs)
	}
	event(map[string]any{"source": "environment", "message": "", "observation": "agent_state_changed", "content": "", "extras": map[string]any{"agent_state": "finished", "reason": ""}})
	doc := map[string]any{
		"instance_id": task.id,
		"test_result": map[string]any{"git_patch": g.diff(task)},
		"instruction": instruction,
		"metadata": map[string]any{"agent_class": "CodeActAgent", "llm_config": map[string]any{"model": "litellm_proxy/claude-3-7-sonnet-20250219", "temperature": 0.0, "max_output_tokens": 64000},
			"max_iterations": 100, "eval_output_dir": "evaluation/evaluation_outputs/outputs/princeton-nlp__SWE-bench_Verified-test/CodeActAgent/claude-3-7-sonnet_maxiter_100",
			"start_time": "2025-05-01 08:00:00", "git_commit": fmt.Sprintf("%040x", g.r.Uint64()), "dataset": "princeton-nlp/SWE-bench_Verified", "data_split": nil, "details": map[string]any{}},
		"history": events,
		"metrics": map[string]any{"accumulated_cost": float64(tokens) * 3e-6, "accumulated_token_usage": map[string]any{"prompt_tokens": tokens * len(turns) / 2, "completion_tokens": 300 * len(turns)}},
		"error":   nil,
		"instance": map[string]any{"repo": task.repo.org + "/" + task.repo.name, "instance_id": task.id, "base_commit": fmt.Sprintf("%040x", g.r.Uint64()),
			"patch": g.diff(task), "test_patch": g.diff(task), "problem_statement": task.issue, "hints_text": g.para(0, 6), "created_at": "2019-03-05T10:07:23Z",
			"version": "3.0", "FAIL_TO_PASS": "[\"test_" + g.ident() + "\"]", "PASS_TO_PASS": "[\"test_" + g.ident() + "\", \"test_" + g.ident() + "\"]"},
	}
	return benchJSON(doc, "")
}

// --- Claude Code session transcripts (anthropic-messages) ---

// claudeCodeBenchCorpus is Claude Code session files, ~/.claude/projects'
// <session>.jsonl: an event a line, a record per content block (the
// assistant's words, then its call, under one message id, each with the
// response's usage), the result in a user record, 40-55 turns of the
// shared working session each. Every file is read whole, as one run.
func claudeCodeBenchCorpus() (*adaptCorpus, error) {
	return transcriptBenchCorpus(adapters.AnthropicMessages, claudeCodeBenchSession)
}

// transcriptBenchCorpus is files of format made by gen, each one run read
// whole (Format.Transcript), up to adaptBenchBytes.
func transcriptBenchCorpus(format *adapters.Format, gen func(i int) (string, []byte)) (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for i := 0; c.bytes < adaptBenchBytes; i++ {
		name, raw := gen(i)
		d, err := adapters.ParseLines(name, 1, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if f, err := adapters.Detect(d); f != format || !f.Transcript(d) {
			return nil, fmt.Errorf("%s: detected as %v (%v), not a %s transcript", name, f, err, format.Name)
		}
		n := 0
		if err := format.Convert(d, func(*schema.Step) error { n++; return nil }); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.add(name, raw, n)
	}
	return c, nil
}

func claudeCodeBenchSession(i int) (string, []byte) {
	g := newBenchText(0x0c000000 + uint64(i))
	repo := benchRepos[i%len(benchRepos)]
	root := fmt.Sprintf("/home/dev/src/%s", repo.name)
	task := g.task(i, root)
	session := fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Uint64()&(1<<48-1))
	var out bytes.Buffer
	parent, sec, n := any(nil), 0, 0
	write := func(typ string, rec map[string]any) {
		n++
		sec += g.n(0, 20)
		id := fmt.Sprintf("%08x-%04x-4%03x-b%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), n%4096, g.r.Uint64()&(1<<48-1))
		rec["parentUuid"], rec["isSidechain"], rec["userType"], rec["cwd"], rec["sessionId"] = parent, false, "external", root, session
		rec["version"], rec["gitBranch"], rec["type"], rec["uuid"] = "1.0.98", "main", typ, id
		rec["timestamp"] = fmt.Sprintf("2025-09-%02dT%02d:%02d:%02d.%03dZ", 1+i%28, 8+sec/3600%12, sec/60%60, sec%60, g.r.IntN(1000))
		out.Write(benchJSON(rec, ""))
		out.WriteByte('\n')
		parent = id
	}
	user := func(content any, extra map[string]any) {
		rec := map[string]any{"message": map[string]any{"role": "user", "content": content}}
		for k, v := range extra {
			rec[k] = v
		}
		write("user", rec)
	}
	cached := 12000
	response := func(blocks ...map[string]any) {
		msg := fmt.Sprintf("msg_01%016x", g.r.Uint64())
		req := fmt.Sprintf("req_011C%016x", g.r.Uint64())
		cached += g.n(200, 3000)
		usage := map[string]any{"input_tokens": g.n(3, 9), "cache_creation_input_tokens": g.n(100, 3000), "cache_read_input_tokens": cached, "output_tokens": g.n(20, 600), "service_tier": "standard"}
		for _, b := range blocks {
			write("assistant", map[string]any{"requestId": req, "message": map[string]any{"id": msg, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
				"content": []any{b}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
		}
	}
	numbered := func(from int, lines []string) string {
		var b strings.Builder
		for k, l := range lines {
			fmt.Fprintf(&b, "%6d\u2192%s\n", from+k, l)
		}
		return b.String()
	}
	user(task.issue, nil)
	for k, t := range g.turns(task, g.n(40, 55)) {
		id := fmt.Sprintf("toolu_01%014x%d", g.r.Uint64()&(1<<56-1), k)
		var call map[string]any
		var result string
		isError := false
		switch t.kind {
		case turnView:
			call = map[string]any{"name": "Read", "input": map[string]any{"file_path": t.path, "offset": t.from, "limit": len(t.lines)}}
			result = numbered(t.from, t.lines)
		case turnGrep, turnFind:
			call = map[string]any{"name": "Grep", "input": map[string]any{"pattern": g.ident(), "path": root, "output_mode": "content", "-n": true}}
			if t.kind == turnFind {
				call = map[string]any{"name": "Glob", "input": map[string]any{"pattern": "**/*" + g.word() + "*.py"}}
			}
			result = cmp.Or(t.out, "No files found")
		case turnCreate:
			call = map[string]any{"name": "Write", "input": map[string]any{"file_path": t.path, "content": t.text}}
			result = "File created successfully at: " + t.path
		case turnEdit:
			call = map[string]any{"name": "Edit", "input": map[string]any{"file_path": t.path, "old_string": t.old, "new_string": t.new}}
			result = "The file " + t.path + " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + numbered(t.from, t.lines)
			if t.failed {
				isError, result = true, "<tool_use_error>String to replace not found in file.\nString: "+t.old+"</tool_use_error>"
			}
		case turnRun, turnTest:
			call = map[string]any{"name": "Bash", "input": map[string]any{"command": t.cmd, "description": g.sentence()}}
			result = t.out
			if t.exit != 0 {
				isError, result = true, fmt.Sprintf("Exit code %d\n%s", t.exit, t.out)
			}
		case turnSubmit:
			response(map[string]any{"type": "text", "text": t.thought})
			continue
		}
		call["type"], call["id"] = "tool_use", id
		response(map[string]any{"type": "text", "text": t.thought}, call)
		res := map[string]any{"tool_use_id": id, "type": "tool_result", "content": result}
		if isError {
			res["is_error"] = true
		}
		user([]any{res}, map[string]any{"toolUseResult": map[string]any{"stdout": result, "stderr": "", "interrupted": false, "isImage": false}})
	}
	return fmt.Sprintf("claude/projects/-home-dev-src-%s/%s.jsonl", repo.name, session), out.Bytes()
}

// codexBenchCorpus is Codex CLI runs, one `codex exec --json` stream per
// file: a reasoning item before each action, commands as item.started and
// item.completed with their output, patches as file_change items, the
// answer, the turn's usage. Every file is read whole, as one run.
func codexBenchCorpus() (*adaptCorpus, error) {
	return transcriptBenchCorpus(adapters.Codex, codexBenchRun)
}

func codexBenchRun(i int) (string, []byte) {
	g := newBenchText(0x0d000000 + uint64(i))
	repo := benchRepos[i%len(benchRepos)]
	root := fmt.Sprintf("/workspace/%s", repo.name)
	task := g.task(i, root)
	var out bytes.Buffer
	line := func(v map[string]any) {
		out.Write(benchJSON(v, ""))
		out.WriteByte('\n')
	}
	item := 0
	nextID := func() string { item++; return fmt.Sprintf("item_%d", item-1) }
	thread := fmt.Sprintf("%08x-%04x-7%03x-%04x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<16), g.r.Uint64()&(1<<48-1))
	line(map[string]any{"type": "thread.started", "thread_id": thread})
	line(map[string]any{"type": "turn.started"})
	command := func(cmd, output string, exit int) {
		id := nextID()
		started := map[string]any{"id": id, "type": "command_execution", "command": "/bin/bash -lc " + strconv.Quote(cmd), "aggregated_output": "", "exit_code": nil, "status": "in_progress"}
		line(map[string]any{"type": "item.started", "item": started})
		status := "completed"
		if exit != 0 {
			status = "failed"
		}
		done := map[string]any{"id": id, "type": "command_execution", "command": started["command"], "aggregated_output": output, "exit_code": exit, "status": status}
		line(map[string]any{"type": "item.completed", "item": done})
	}
	for _, t := range g.turns(task, g.n(40, 55)) {
		line(map[string]any{"type": "item.completed", "item": map[string]any{"id": nextID(), "type": "reasoning", "text": "**" + g.sentence() + "**\n\n" + t.thought}})
		switch t.kind {
		case turnView:
			command(fmt.Sprintf("sed -n '%d,%dp' %s", t.from, t.from+len(t.lines)-1, t.path), strings.Join(t.lines, "\n")+"\n", 0)
		case turnGrep, turnFind:
			command("grep -rn "+g.ident()+" "+root, t.out, min(len(t.out), 1)^1)
		case turnCreate, turnEdit:
			status := "completed"
			if t.failed {
				status = "failed"
			}
			line(map[string]any{"type": "item.completed", "item": map[string]any{"id": nextID(), "type": "file_change", "changes": []any{map[string]any{"path": t.path, "kind": "update"}}, "status": status}})
		case turnRun, turnTest:
			command(t.cmd, t.out, t.exit)
		case turnSubmit:
			line(map[string]any{"type": "item.completed", "item": map[string]any{"id": nextID(), "type": "agent_message", "text": t.thought}})
		}
	}
	line(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": g.n(200000, 900000), "cached_input_tokens": g.n(150000, 800000), "output_tokens": g.n(2000, 12000)}})
	return fmt.Sprintf("codex/%s/%s.events.jsonl", repo.name, thread), out.Bytes()
}

// rovoBenchCorpus is Rovo Dev runs, one plain-text transcript per file:
// the agent's words before each call, the call's YAML arguments, the
// output fenced and cut to the first 500 characters as Rovo Dev's logger
// cuts it, the summary.
func rovoBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for i := 0; c.bytes < adaptBenchBytes; i++ {
		name, raw := rovoBenchRun(i)
		if f := adapters.DetectText(raw); f != adapters.RovoDev {
			return nil, fmt.Errorf("%s: detected as %v, not a rovo-dev transcript", name, f)
		}
		n := 0
		if err := adapters.RovoDev.Convert(adapters.TextDoc(name, 1, raw), func(*schema.Step) error { n++; return nil }); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.add(name, raw, n)
	}
	return c, nil
}

func rovoBenchRun(i int) (string, []byte) {
	g := newBenchText(0x0e000000 + uint64(i))
	repo := benchRepos[i%len(benchRepos)]
	root := "/workspace"
	task := g.task(i, root)
	var out bytes.Buffer
	sep := strings.Repeat("=", 120)
	out.WriteString(strings.Repeat("#", 120) + "\nPHASE 1\n" + strings.Repeat("#", 120) + "\n")
	section := func(header, body string) {
		out.WriteString(sep + "\n" + header + "\n" + body + "\n")
	}
	cut := func(s string) string {
		if len(s) > 500 {
			s = s[:500] + "..."
		}
		return "```\n" + s + "\n```"
	}
	call := func(tool, args, output string) {
		section("TOOL CALL ("+tool+")", args)
		section("TOOL RETURN ("+tool+")", cut(output))
	}
	section("AGENT:", "I will start by viewing the workspace to understand its structure and contents.")
	section("USER PROMPT:", "Resolve the following problem statement:\n\n<problem_statement>\n"+g.sentence()+"\n</problem_statement>")
	for _, t := range g.turns(task, g.n(30, 45)) {
		section("AGENT:", t.thought)
		switch t.kind {
		case turnView:
			call("inspect_code", fmt.Sprintf("file_path: %s\nline_ranges:\n- - %d\n  - %d", strings.TrimPrefix(t.path, root+"/"), t.from, t.from+len(t.lines)-1), "Successfully expanded code chunks in "+t.path+":\n\n"+strings.Join(t.lines, "\n"))
		case turnGrep, turnFind:
			output := t.out
			if output == "" {
				output = "No matches found for pattern '" + g.ident() + "'."
			}
			call("grep", "content_pattern: "+g.ident()+"\npath_glob: '**/*.py'", output)
		case turnCreate, turnEdit:
			output := "Successfully replaced code in " + t.path + ":\n\n--- " + t.path + "\n+++ " + t.path
			if t.failed {
				output = "Error executing tool find_and_replace_code: No matches found for find string"
			}
			call("find_and_replace_code", "file_path: "+t.path+"\nfind: "+strconv.Quote(g.sentence())+"\nreplace: "+strconv.Quote(g.sentence()), output)
		case turnRun, turnTest:
			call("bash", "command: cd /workspace && "+t.cmd+"\ntimeout: 300", t.out)
		case turnSubmit:
			section("AGENT:", t.thought)
		}
	}
	return fmt.Sprintf("rovo-dev/%s/trajs/%s__%s-%d", repo.name, repo.name, repo.name, i), out.Bytes()
}

// --- (d) OpenAI chat conversations in a JSON array (tau-bench results) ---

// openAIBenchCorpus is tau-bench result files: each a pretty-printed JSON
// array of 150 conversations (task, trial, reward, and "traj": the policy
// as the system message, the simulated user, the agent's tool calls and
// the tools' answers).
func openAIBenchCorpus() (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for f := 0; c.bytes < adaptBenchBytes; f++ {
		g := newBenchText(0x7a000000 + uint64(f))
		convs := make([]map[string]any, 150)
		for k := range convs {
			convs[k] = g.tauConversation(k)
		}
		name := fmt.Sprintf("tau-bench/retail-tool-calling-claude-3-5-sonnet-%02d.json", f)
		raw := benchJSON(convs, "  ")
		n, err := convertBenchDoc(adapters.OpenAIMessages, name, 1, true, raw, nil)
		if err != nil {
			return nil, err
		}
		c.add(name, raw, n)
	}
	return c, nil
}

type tauMsg struct {
	Content      any         `json:"content"`
	Role         string      `json:"role"`
	ToolCalls    []benchCall `json:"tool_calls,omitempty"`
	FunctionCall any         `json:"function_call,omitempty"`
	ToolCallID   string      `json:"tool_call_id,omitempty"`
	Name         string      `json:"name,omitempty"`
}

var tauTools = []string{"find_user_id_by_email", "find_user_id_by_name_zip", "get_user_details", "get_order_details", "get_product_details",
	"list_all_product_types", "modify_pending_order_items", "exchange_delivered_order_items", "return_delivered_order_items", "cancel_pending_order", "calculate"}

// tauPolicy is the retail domain's policy, the system message of every
// conversation.
var tauPolicy = sync.OnceValue(func() string {
	g := newBenchText(0x7a7a7a7a)
	var b strings.Builder
	b.WriteString("# Retail agent policy\n\nAs a retail agent, you can help users cancel or modify pending orders, return or exchange delivered orders, modify their default user address, or provide information about their own profile, orders, and related products.\n\n")
	for range 12 {
		b.WriteString("## " + g.class() + "\n\n" + g.para(4, 8) + "\n\n- " + g.sentence() + "\n- " + g.sentence() + "\n\n")
	}
	return b.String()
})

func (g *benchText) tauConversation(k int) map[string]any {
	user := fmt.Sprintf("%s_%s_%d", g.word(), g.word(), g.n(1000, 9999))
	msgs := []tauMsg{{Content: tauPolicy(), Role: "system"}, {Content: "Hi! " + g.sentence() + " " + g.sentence(), Role: "user"}}
	for range g.n(4, 12) {
		msgs = append(msgs, tauMsg{Content: g.para(1, 3), Role: "assistant"}, tauMsg{Content: g.para(1, 2), Role: "user"})
		for range g.n(1, 3) {
			tool := g.pick(tauTools)
			calls := []benchCall{newBenchCall(g.callID(), tool, map[string]any{"user_id": user, "order_id": fmt.Sprintf("#W%07d", g.r.IntN(1e7))})}
			if g.chance(0.15) {
				calls = append(calls, newBenchCall(g.callID(), "get_product_details", map[string]any{"product_id": fmt.Sprint(g.r.Int64N(1e10))}))
			}
			msgs = append(msgs, tauMsg{Content: nil, Role: "assistant", ToolCalls: calls})
			for _, c := range calls {
				msgs = append(msgs, tauMsg{Content: g.tauAnswer(user), Role: "tool", ToolCallID: c.ID, Name: c.Function.Name})
			}
		}
	}
	msgs = append(msgs, tauMsg{Content: g.para(1, 3), Role: "assistant"}, tauMsg{Content: "###STOP###", Role: "user"})
	return map[string]any{
		"task_id": k / 3, "trial": k % 3, "reward": float64(g.r.IntN(2)),
		"info": map[string]any{"task": map[string]any{"user_id": user, "instruction": g.para(3, 6), "actions": []map[string]any{{"name": g.pick(tauTools), "kwargs": map[string]any{"user_id": user}}}, "outputs": []any{}},
			"source": "user", "user_cost": float64(g.n(1, 40)) / 1000, "reward_info": map[string]any{"reward": 1.0, "info": map[string]any{"r_actions": true, "gt_data_hash": fmt.Sprintf("%016x", g.r.Uint64())}, "actions": []any{}}},
		"traj": msgs,
	}
}

// tauAnswer is a tool's answer: a JSON document as text, or an error.
func (g *benchText) tauAnswer(user string) string {
	if g.chance(0.1) {
		return "Error: " + g.sentence()
	}
	items := make([]map[string]any, g.n(1, 5))
	for i := range items {
		items[i] = map[string]any{"name": g.class(), "product_id": fmt.Sprint(g.r.Int64N(1e10)), "item_id": fmt.Sprint(g.r.Int64N(1e10)),
			"price": float64(g.n(500, 90000)) / 100, "options": map[string]any{"color": g.word(), "size": g.pick([]string{"S", "M", "L", "XL"}), "material": g.word()}}
	}
	return string(benchJSON(map[string]any{"order_id": fmt.Sprintf("#W%07d", g.r.IntN(1e7)), "user_id": user,
		"address": map[string]any{"address1": fmt.Sprintf("%d %s Street", g.n(1, 999), g.class()), "city": g.class(), "country": "USA", "state": "CA", "zip": fmt.Sprint(g.n(10000, 99999))},
		"items":   items, "status": g.pick([]string{"pending", "delivered", "processed", "cancelled"}),
		"payment_history": []map[string]any{{"transaction_type": "payment", "amount": float64(g.n(500, 90000)) / 100, "payment_method_id": "credit_card_" + fmt.Sprint(g.n(1000000, 9999999))}}}, ""))
}

// --- the content: tasks and the turns of an agent working on them ---

// benchText generates text deterministically from a seed.
type benchText struct{ r *rand.Rand }

func newBenchText(seed uint64) *benchText {
	return &benchText{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

var benchWords = strings.Fields(`the a value field query model request response cache index table column user order item return
	error test check update create delete filter select parse format render handle object list dict string number default option
	config setting path file module class method function argument parameter instance result output input message header token
	session state event timeout retry limit offset count queryset manager migration field form widget template context node
	expression symbol matrix unit quantity array axis figure legend label tick scale transform fit predict estimator pipeline
	fixture marker plugin hook collect report dataset variable coordinate dimension attribute encode decode serialize schema
	when if not with for this that should must can will is are was be to of in on by from as it we missing wrong empty raise`)

func (g *benchText) n(lo, hi int) int        { return lo + g.r.IntN(hi-lo+1) }
func (g *benchText) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }
func (g *benchText) chance(p float64) bool   { return g.r.Float64() < p }
func (g *benchText) word() string            { return g.pick(benchWords) }
func (g *benchText) callID() string {
	return fmt.Sprintf("toolu_%016x%08x", g.r.Uint64(), g.r.Uint32())
}

func (g *benchText) ident() string {
	w := g.word()
	for range g.r.IntN(3) {
		w += "_" + g.word()
	}
	return w
}

func (g *benchText) class() string {
	var b strings.Builder
	for range g.n(1, 3) {
		w := g.word()
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func (g *benchText) sentence() string {
	ws := make([]string, g.n(6, 18))
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *benchText) para(lo, hi int) string {
	ss := make([]string, g.n(lo, hi))
	for i := range ss {
		ss[i] = g.sentence()
	}
	return strings.Join(ss, " ")
}

func (g *benchText) codeLine() string {
	switch g.r.IntN(12) {
	case 0:
		return fmt.Sprintf("    def %s(self, %s, %s=None):", g.ident(), g.word(), g.ident())
	case 1:
		return fmt.Sprintf("        return self.%s(%s)", g.ident(), g.word())
	case 2:
		return fmt.Sprintf("        %s = %s.%s(%s, %s)", g.ident(), g.word(), g.ident(), g.word(), g.word())
	case 3:
		return fmt.Sprintf("        if %s is None:", g.ident())
	case 4:
		return fmt.Sprintf("            raise %sError(%q)", g.class(), g.sentence())
	case 5:
		return fmt.Sprintf("        for %s in self.%s:", g.word(), g.ident())
	case 6:
		return fmt.Sprintf("class %s(%s):", g.class(), g.class())
	case 7:
		return "        # " + g.sentence()
	case 8:
		return fmt.Sprintf("            %s.append(%s[%d])", g.ident(), g.word(), g.r.IntN(8))
	case 9:
		return ""
	case 10:
		return fmt.Sprintf("from .%s import %s, %s", g.word(), g.class(), g.ident())
	}
	return fmt.Sprintf("        self.%s = %s", g.ident(), g.ident())
}

func (g *benchText) code(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.codeLine()
	}
	return out
}

func numbered(from int, lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%6d\t%s\n", from+i, l)
	}
	return b.String()
}

type benchRepo struct{ org, name, pkg string }

var benchRepos = []benchRepo{
	{"django", "django", "django"}, {"sympy", "sympy", "sympy"}, {"astropy", "astropy", "astropy"}, {"psf", "requests", "requests"},
	{"sphinx-doc", "sphinx", "sphinx"}, {"matplotlib", "matplotlib", "lib/matplotlib"}, {"scikit-learn", "scikit-learn", "sklearn"},
	{"pytest-dev", "pytest", "src/_pytest"}, {"pydata", "xarray", "xarray"}, {"pallets", "flask", "src/flask"},
}

// benchTask is an issue to fix in a repository checked out at root.
type benchTask struct {
	id    string
	repo  benchRepo
	root  string
	issue string
	files []string // absolute paths of the files the agent works on
}

func (g *benchText) task(i int, root string) *benchTask {
	repo := benchRepos[i%len(benchRepos)]
	t := &benchTask{repo: repo, root: root, id: fmt.Sprintf("%s__%s-%d", repo.org, repo.name, 10000+i*13)}
	t.issue = g.class() + " " + g.sentence() + "\n\nDescription\n\n" + g.para(3, 8) + "\n\n```python\n" + strings.Join(g.code(g.n(4, 14)), "\n") + "\n```\n\n" + g.para(1, 5)
	for range g.n(2, 5) {
		t.files = append(t.files, root+"/"+repo.pkg+"/"+g.word()+"/"+g.ident()+".py")
	}
	return t
}

type turnKind int

const (
	turnView turnKind = iota
	turnGrep
	turnFind
	turnCreate
	turnRun
	turnEdit
	turnTest
	turnSubmit
)

// benchTurn is one move of an agent fixing an issue, whatever the
// framework that logs it.
type benchTurn struct {
	kind     turnKind
	thought  string
	path     string
	cmd      string   // the shell command of a grep, find, run or test
	from     int      // the first line shown, of a view or an edit
	lines    []string // the lines shown
	text     string   // a created file's text
	old, new string   // an edit
	failed   bool     // the edit was rejected
	out      string   // what a command printed (the diff, for a submit)
	exit     int
}

// turns is a working session of n turns: exploring (grep, find, views), a
// script that reproduces the issue, edits (some rejected) and test runs,
// sometimes stuck repeating one failing call, then the submission.
func (g *benchText) turns(task *benchTask, n int) []benchTurn {
	var out []benchTurn
	repro := task.root + "/reproduce_issue.py"
	created := false
	for len(out) < n-1 {
		t := benchTurn{thought: g.para(1, 4)}
		path := g.pick(task.files)
		phase := len(out) * 10 / n
		k := g.r.IntN(10)
		switch {
		case phase < 3 && k < 4, phase >= 3 && k < 1:
			t.kind = turnGrep
			pat := g.ident()
			t.cmd = fmt.Sprintf("grep -rn %q %s/%s", pat, task.root, task.repo.pkg)
			if g.chance(0.25) {
				t.exit = 1
			} else {
				var b strings.Builder
				for range g.n(1, 30) {
					fmt.Fprintf(&b, "%s:%d:%s\n", g.pick(task.files), g.n(1, 2000), strings.Replace(g.codeLine(), " ", " "+pat+" ", 1))
				}
				t.out = b.String()
			}
		case phase < 3 && k < 5:
			t.kind = turnFind
			t.cmd = fmt.Sprintf("find %s -name \"*%s*\" -type f", task.root, g.word())
			var b strings.Builder
			for range g.n(0, 12) {
				b.WriteString(task.root + "/" + task.repo.pkg + "/" + g.word() + "/" + g.ident() + ".py\n")
			}
			t.out = b.String()
			if t.out == "" {
				t.exit = 1
			}
		case !created && phase >= 3:
			created = true
			t.kind, t.path = turnCreate, repro
			t.text = "from " + strings.ReplaceAll(task.repo.pkg, "/", ".") + " import " + g.class() + "\n\n" + strings.Join(g.code(g.n(8, 30)), "\n")
		case k < 6:
			t.kind, t.path = turnView, path
			t.from = 1
			if g.chance(0.6) {
				t.from = g.n(1, 1500)
			}
			t.lines = g.code(g.n(20, 120))
		case k < 8 && phase >= 3:
			t.kind, t.path = turnEdit, path
			t.old, t.new = strings.TrimSpace(g.codeLine()), strings.TrimSpace(g.codeLine())+"\n        "+strings.TrimSpace(g.codeLine())
			t.failed = g.chance(0.2)
			t.from = g.n(1, 1500)
			t.lines = g.code(g.n(8, 16))
		case k < 9 && created:
			t.kind, t.cmd = turnRun, "cd "+task.root+" && python "+repro
			if g.chance(0.6) {
				t.exit = 1
				t.out = g.traceback(task, repro)
			} else {
				t.out = strings.Join(g.code(g.n(1, 6)), "\n") + "\n"
			}
		default:
			t.kind = turnTest
			t.cmd = fmt.Sprintf("cd %s && python -m pytest tests/%s/test_%s.py -x -q", task.root, g.word(), g.ident())
			t.out, t.exit = g.pytest(task)
		}
		out = append(out, t)
		if len(out) > 4 && g.chance(0.03) {
			// Stuck: the same call, the same answer, again and again.
			for range g.n(3, 8) {
				if len(out) < n-1 {
					out = append(out, t)
				}
			}
		}
	}
	return append(out, benchTurn{kind: turnSubmit, thought: g.para(1, 3), out: g.diff(task)})
}

func (g *benchText) traceback(task *benchTask, script string) string {
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	fmt.Fprintf(&b, "  File %q, line %d, in <module>\n    %s\n", script, g.n(3, 40), strings.TrimSpace(g.codeLine()))
	for range g.n(1, 8) {
		fmt.Fprintf(&b, "  File %q, line %d, in %s\n    %s\n", g.pick(task.files), g.n(10, 3000), g.ident(), strings.TrimSpace(g.codeLine()))
	}
	fmt.Fprintf(&b, "%sError: %s\n", g.pick([]string{"Value", "Type", "Attribute", "Key", "Index", "Assertion"}), g.sentence())
	return b.String()
}

func (g *benchText) pytest(task *benchTask) (string, int) {
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\n" +
		"platform linux -- Python 3.9.20, pytest-8.3.3, pluggy-1.5.0\nrootdir: " + task.root + "\nconfigfile: setup.cfg\n")
	n := g.n(5, 200)
	fmt.Fprintf(&b, "collected %d items\n\n", n)
	failed := 0
	if g.chance(0.5) {
		failed = g.n(1, 4)
	}
	fmt.Fprintf(&b, "tests/%s.py %s%s [100%%]\n", g.ident(), strings.Repeat(".", n-failed), strings.Repeat("F", failed))
	if failed > 0 {
		b.WriteString("\n=================================== FAILURES ===================================\n")
		for range failed {
			name := "test_" + g.ident()
			fmt.Fprintf(&b, "______________________________ %s ______________________________\n\n", name)
			for _, l := range g.code(g.n(6, 30)) {
				b.WriteString(l + "\n")
			}
			fmt.Fprintf(&b, ">       assert %s == %s\nE       AssertionError: assert %d == %d\n\n%s:%d: AssertionError\n", g.ident(), g.ident(), g.n(0, 9), g.n(10, 99), g.pick(task.files), g.n(10, 900))
		}
		fmt.Fprintf(&b, "=========================== short test summary info ============================\nFAILED tests/%s.py::test_%s - AssertionError\n", g.ident(), g.ident())
		fmt.Fprintf(&b, "========================= %d failed, %d passed in %d.%02ds =========================\n", failed, n-failed, g.n(0, 30), g.r.IntN(100))
		return b.String(), 1
	}
	fmt.Fprintf(&b, "============================== %d passed in %d.%02ds ===============================\n", n, g.n(0, 30), g.r.IntN(100))
	return b.String(), 0
}

func (g *benchText) diff(task *benchTask) string {
	var b strings.Builder
	for _, f := range task.files[:g.n(1, len(task.files))] {
		rel := strings.TrimPrefix(strings.TrimPrefix(f, task.root), "/")
		line := g.n(10, 2000)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex %07x..%07x 100644\n--- a/%s\n+++ b/%s\n@@ -%d,7 +%d,9 @@\n", rel, rel, g.r.IntN(1<<28), g.r.IntN(1<<28), rel, rel, line, line)
		for _, l := range g.code(3) {
			b.WriteString(" " + l + "\n")
		}
		b.WriteString("-" + g.codeLine() + "\n+" + g.codeLine() + "\n+" + g.codeLine() + "\n+" + g.codeLine() + "\n")
		for _, l := range g.code(3) {
			b.WriteString(" " + l + "\n")
		}
	}
	return b.String()
}

// autoGenBenchCorpus is AutoGen's bundled samples, a run a file as AutoGen
// writes them: Magentic-One logs (an event a line, read whole) for the
// first half of the bytes, AgentChat TaskResults (a JSON document each)
// for the second.
func autoGenBenchCorpus() (*adaptCorpus, error) {
	return filesBenchCorpus("autogen", "magentic-one-cookie-loop.ndjson", "agentchat-rate-storm.json")
}

// filesBenchCorpus is copies of the named samples of fixtures/trajectories/
// dir, a run a file, each sample an equal share of the bytes in turn.
func filesBenchCorpus(dir string, names ...string) (*adaptCorpus, error) {
	c := &adaptCorpus{}
	for k, name := range names {
		raw, err := os.ReadFile(filepath.Join("..", "fixtures", "trajectories", dir, name))
		if err != nil {
			return nil, err
		}
		st, err := Read(context.Background(), []Source{memSource(name, raw)}, Options{Alloc: memory.NewGoAllocator()}, nil)
		if err != nil || st.Rejected > 0 || st.Steps == 0 {
			return nil, fmt.Errorf("%s: %d steps, %d rejected, %v", name, st.Steps, st.Rejected, err)
		}
		for c.bytes < adaptBenchBytes*int64(k+1)/int64(len(names)) {
			c.add(fmt.Sprintf("run-%05d/log%s", len(c.sources), filepath.Ext(name)), raw, int(st.Steps))
		}
	}
	return c, nil
}
