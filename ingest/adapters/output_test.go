package adapters

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// formatRules are the rules each format applies before OutputRules: every
// format of the registry must be listed (TestEveryRuleIsTestedBothWays,
// TestAdapterDocs).
var formatRules = map[string][]OutputRule{
	"swe-agent":          append(append([]OutputRule(nil), sweRules...), sweRoverRules...),
	"mini-swe-agent":     miniStyle.rules,
	"openhands":          ohRules,
	"openai-messages":    openAIStyle.rules,
	"autogen":            autoGenStyle.rules,
	"anthropic-messages": anthropicStyle.rules,
	"otlp":               nil,
	"langfuse":           nil,
	"langsmith":          nil,
	"openai-agents":      nil,
	"mlflow":             nil,
	"codex":              nil,
	"gemini-cli":         gcliRules,
	"qwen-code":          gcliRules,
	"continue":           contRules,
	"cursor":             nil,
	"copilot-cli":        nil,
	"dspy":               nil,
	"inspect":            nil,
	"opencode":           nil,
	"rovo-dev":           rovoRules,
	"smolagents":         smolRules,
	"trae-agent":         traeRules,
	"atif":               append(append([]OutputRule(nil), anthropicRules...), atifRules...),
	"browser-use":        buRules,
	"aider":              aiderRules,
	"chatdev":            chatdevRules,
	"react-log":          reactRules,
	"notebook":           nil,
}

// reactDoc is a ReAct console log whose one call (step 0) a tool answered
// with observation.
func reactDoc(observation string) []byte {
	return []byte("Thought: I should look it up.\nAction: Search\nAction Input: opening hours\nObservation: " + observation + "\nThought: I now know the final answer\nFinal Answer: 9 to 5\n")
}

// chatdevDoc is a ChatDev log whose one step is a run of the program
// (entry 2) answered with report.
func chatdevDoc(report string) []byte {
	return []byte("[2023-14-09 10:02:11 INFO] **[Preprocessing]**\n\n**ChatDev Starts** (20230914100211)\n\n" +
		"[2023-14-09 10:02:12 INFO] System: **[chatting]**\n\n| **phase_name** | TestErrorSummary |\n\n" +
		"[2023-14-09 10:02:13 INFO] **[Test Reports]**:\n\n" + report + "\n\n")
}

// buDoc is a browser-use history of one step taking action with params on
// a page and getting result (an ActionResult); the action is step 0.
func buDoc(t testing.TB, action string, params, result map[string]any) []byte {
	return mustMarshal(t, map[string]any{"history": []any{map[string]any{
		"model_output": map[string]any{"evaluation_previous_goal": "", "memory": "", "next_goal": "", "action": []any{map[string]any{action: params}}},
		"result":       []any{result},
		"state":        map[string]any{"url": "https://shop.example.com/cart", "title": "Cart", "tabs": []any{}, "interacted_element": []any{nil}},
	}}})
}

// atifDoc is an ATIF trajectory of agent (its agent.name): a user's task
// (entry 0), then one agent step (entry 1) calling tool with args and
// answered with content; with no tool, a response the harness answered
// with content without running anything.
func atifDoc(t testing.TB, agent, tool string, args map[string]any, content string) []byte {
	step := map[string]any{"step_id": 2, "source": "agent", "message": "Next step.",
		"observation": map[string]any{"results": []any{map[string]any{"content": content}}}}
	if tool != "" {
		step["tool_calls"] = []any{map[string]any{"tool_call_id": "call_1", "function_name": tool, "arguments": args}}
		step["observation"] = map[string]any{"results": []any{map[string]any{"source_call_id": "call_1", "content": content}}}
	}
	return mustMarshal(t, map[string]any{"schema_version": "ATIF-v1.6", "session_id": "s-1",
		"agent": map[string]any{"name": agent, "version": "1.0"},
		"steps": []any{map[string]any{"step_id": 1, "source": "user", "message": "Fix the bug."}, step}})
}

// traeDoc is a Trae Agent trajectory of one step calling tool with args and
// getting result (success as given); the call is step 0.
func traeDoc(t testing.TB, tool string, args map[string]any, result string, success bool) []byte {
	return mustMarshal(t, map[string]any{"llm_interactions": []any{}, "agent_steps": []any{map[string]any{
		"step_number": 1, "state": "calling_tool",
		"tool_calls":   []any{map[string]any{"call_id": "c1", "name": tool, "arguments": args}},
		"tool_results": []any{map[string]any{"call_id": "c1", "success": success, "result": result}},
	}}})
}

// chatDoc is an OpenAI conversation whose assistant calls tool with args
// (a JSON object) and gets reply; the call is step 1.
func chatDoc(t testing.TB, tool string, args map[string]any, reply string) []byte {
	return mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "go"},
		{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
			{"id": "c1", "type": "function", "function": map[string]any{"name": tool, "arguments": string(mustMarshal(t, args))}}}},
		{"role": "tool", "tool_call_id": "c1", "content": reply},
	}})
}

func bashDoc(t testing.TB, cmd, reply string) []byte {
	return chatDoc(t, "bash", map[string]any{"command": cmd}, reply)
}

// antDoc is an Anthropic conversation whose assistant calls tool with
// input and gets reply, an error when isError; the call is block 1.
func antDoc(t testing.TB, tool string, input map[string]any, reply string, isError bool) []byte {
	return mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "go"},
		{"role": "assistant", "content": []map[string]any{{"type": "tool_use", "id": "toolu_1", "name": tool, "input": input}}},
		{"role": "user", "content": []map[string]any{{"type": "tool_result", "tool_use_id": "toolu_1", "content": reply, "is_error": isError}}},
	}})
}

// agTeamDoc is an AgentChat team's messages: the user's task, a coder
// saying said (code to run), an executor answering reply, the coder ending;
// the coder's turn is step 1, answered by the executor.
func agTeamDoc(t testing.TB, said, reply string) []byte {
	msg := func(src, content string) map[string]any {
		return map[string]any{"source": src, "models_usage": nil, "metadata": map[string]any{}, "content": content, "type": "TextMessage"}
	}
	return mustMarshal(t, []map[string]any{msg("user", "go"), msg("coder", said), msg("executor", reply), msg("coder", "TERMINATE")})
}

// ohDoc is an OpenHands evaluation line whose agent runs action with args
// and gets content (and exit code, unless nil) back; the action is step 0.
func ohDoc(t testing.TB, action string, args map[string]any, content string, exit any) []byte {
	extras := map[string]any{}
	if exit != nil {
		extras["metadata"] = map[string]any{"exit_code": exit}
	}
	return ohV0(t,
		map[string]any{"id": 0, "source": "agent", "action": action, "args": args},
		map[string]any{"id": 1, "cause": 0, "source": "agent", "observation": action, "content": content, "extras": extras})
}

// ruleCase is one output and what a rule makes of it: a hit (an error or
// an empty result) or a near miss (what merely looks like one, left "ok").
type ruleCase struct {
	rule   string // the OutputRule's Name
	format *Format
	doc    []byte
	step   int64
	want   string // result(): "error TYPE", "ok empty" or "ok"
}

func ruleCases(t testing.TB) []ruleCase {
	oa, an, swe, mini, oh, ag := OpenAIMessages, AnthropicMessages, SWEAgent, MiniSWEAgent, OpenHands, AutoGen
	read := func(path, content string) []byte {
		return ohDoc(t, "read", map[string]any{"path": path}, "Here's the result of running `cat -n` on "+path+":\n"+content, nil)
	}
	return []ruleCase{
		// Generic rules.
		{"edit-script-no-match", oa, bashDoc(t, "python - <<'PY'\nfrom pathlib import Path\np = Path('sphinx/ext/autodoc/__init__.py')\ns = p.read_text()\nold = 'doclines = prepare_docstring(doc)'\nif old not in s:\n    print('pattern not found')\nelse:\n    p.write_text(s.replace(old, 'doclines = doc'))\nPY", "pattern not found\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python edit.py", "bash execution output:\n pattern not found, showing context:\nfrom sphinx.util import split_full_qualified_name\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python patch_toctree.py", "target location not found, no changes made\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python patch_toctree.py", "needle not found, aborting\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "curl -s localhost:8080/geo?q=atlantis", "location not found\n"), 1, "ok"},
		{"edit-script-no-match", oa, bashDoc(t, "python - <<'PY'\ns = open('sphinx/domains/python.py').read()\ni = s.find('\\t\\tif \\'property\\' in self.options:')\nif i < 0:\n    print('start pattern not found')\nPY", "start pattern not found\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "@patch_generation\ndef fix_year():\n    return exec_bash_cmd(r\"\"\"python - <<'PY'\nfrom pathlib import Path\np = Path('django/utils/http.py')\ns = p.read_text()\nif 'year < 100' not in s:\n    print('pattern_not_found')\nelse:\n    p.write_text(s)\nPY\"\"\")", "bash execution output:\n pattern_not_found\n\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python check.py", "restart pattern not found in config\n"), 1, "ok"},
		{"edit-script-no-match", oa, bashDoc(t, "python - <<'PY'\nfrom pathlib import Path\np = Path('sphinx/util/inspect.py')\ns = p.read_text()\nif 'def isproperty(' not in s:\n    print('isproperty pattern not found'); raise SystemExit(1)\np.write_text(s)\nPY", "isproperty pattern not found\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python - <<'PY'\nfrom pathlib import Path\np = Path('sphinx/util/inspect.py')\ns = p.read_text()\nstart = s.find('def isproperty(')\nif start < 0:\n    print('could not locate isproperty boundaries')\nelse:\n    p.write_text(s)\nPY", "could not locate isproperty boundaries\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python check_config.py", "isproperty pattern not found\n"), 1, "ok"},
		{"edit-script-no-match", oa, bashDoc(t, "python patch_stringify.py", "bash execution output:\n old block not found\n"), 1, "error EDIT_REJECTED"},
		// An action of several commands: a label before each one's output,
		// the first command (a checkout) printing nothing.
		{"edit-script-no-match", oa, bashDoc(t, "@patch_generation\ndef fix_hlcode():\n    exec_bash_cmd(\"git checkout -- sphinx/writers/latex.py\")\n    return exec_bash_cmd(cmd)", "bash execution output:\n \n\nbash execution output:\n pattern not found\n\nbash execution output:\n   1688\t        else:\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "python - <<'PY'\ns = open('sphinx/domains/python.py').read()\nif old not in s:\n    print('Expected code block not found; patch not applied.')\nPY", "Expected code block not found; patch not applied.\n"), 1, "error EDIT_REJECTED"},
		{"edit-script-no-match", oa, bashDoc(t, "@patch_generation\ndef patch_http_date():\n    return exec_bash_cmd(cmd)", "bash execution output:\n Patch anchor not found\n"), 1, "error EDIT_REJECTED"},
		{"edit-helper-no-change", oa, bashDoc(t, "@patch_generation\ndef prioritize_parent_link():\n    return code_replace(\"django/db/models/base.py\", new_block, (195, 198))", "Replaced L195-198 (4 lines) -> L195-198 (4 lines)\n  Old: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n  New: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n"), 1, "error EDIT_REJECTED"},
		{"edit-helper-no-change", oa, bashDoc(t, "@patch_generation\ndef skip_proxies():\n    return code_replace(\"django/db/models/base.py\", new_block, (195, 198))", "Replaced L195-198 (4 lines) -> L195-198 (4 lines)\n  Old: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n  New: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta') or base._meta.proxy:\n                continue\n"), 1, "ok"},
		{"edit-helper-no-change", oa, bashDoc(t, "@patch_generation\ndef add_line():\n    return code_replace(\"django/db/models/base.py\", new_block, (195, 198))", "Replaced L195-198 (4 lines) -> L195-199 (5 lines)\n  Old: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n  New: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n        # proxies have no parent link\n"), 1, "ok"},
		{"edit-helper-no-change", oa, bashDoc(t, "@patch_generation\ndef same_then_insert():\n    code_replace(\"base.py\", b, (195, 198))\n    return code_insert(\"base.py\", c, 210)", "Replaced L195-198 (4 lines) -> L195-198 (4 lines)\n  Old: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\n  New: parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue\nInserted 2 lines at L210\n  Code: x = 1\n"), 1, "ok"},
		{"edit-script-no-match", oa, bashDoc(t, "grep -rn 'pattern not found' tests/", "tests/test_edit.py:12:    assert out == 'pattern not found'\n"), 1, "ok"},
		{"edit-script-no-match", oa, bashDoc(t, "@patch_generation\ndef fix():\n    return code_replace('sphinx/domains/cpp.py', old, new)", "Error: Code to replace not found in file\nLooking for:\n    if self.match(identifier_re):\n"), 1, "error EDIT_REJECTED"},
		{"timeout", oa, bashDoc(t, "pytest tests/test_net.py", "collected 4 items\n\ntests/test_net.py ..\nTimeout expired after 120 seconds"), 1, "error TIMEOUT"},
		{"timeout", oa, bashDoc(t, "cat docs/retries.md", "Requests that timed out are retried twice.\n"), 1, "ok"},
		{"timeout", oa, bashDoc(t, "pytest -q tests/test_net.py", "tests/test_net.py::test_start PASSED\ntests/test_net.py::test_request_timed_out PASSED\n2 passed in 0.3s"), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "python manage.py migrate", "Traceback (most recent call last):\n  File \"manage.py\", line 22, in <module>\n    main()\nrequests.exceptions.ConnectionError: HTTPConnectionPool(host='db', port=5432)"), 1, "error requests.exceptions.ConnectionError"},
		{"python-traceback", oa, bashDoc(t, "python -c 'int(\"x\")'", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nValueError: invalid literal for int() with base 10: 'x'"), 1, "error ValueError"},
		{"python-traceback", oa, bashDoc(t, "python repro.py 2>&1 | tail -3", "  File \"/testbed/repro.py\", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named 'yaml'"), 1, "error ModuleNotFoundError"},
		{"python-traceback", oa, bashDoc(t, "@patch_generation\ndef patch():\n    return exec_bash_cmd(\"python - <<'PY' ... PY\")", "bash execution output:\n   File \"<stdin>\", line 26\n    raise SystemExit(\"Patch anchor not found\")\n                                              ^\nSyntaxError: unexpected character after line continuation character\n"), 1, "error SyntaxError"},
		{"python-traceback", oa, bashDoc(t, "python -m py_compile sphinx/domains/python.py", "Sorry: IndentationError: expected an indented block (python.py, line 1272)\n"), 1, "error IndentationError"},
		{"python-traceback", oa, bashDoc(t, "python - <<'PY'\nimport py_compile\ntry:\n    py_compile.compile(p, doraise=True)\nexcept Exception as e:\n    print('compile failed:', e); raise SystemExit(2)\nPY", "compile failed:   File \"sphinx/ext/autodoc/__init__.py\", line 778\n    elif want_all and isprivate:\n    ^\nSyntaxError: invalid syntax\n"), 1, "error SyntaxError"},
		{"python-traceback", oa, bashDoc(t, "@patch_verification\ndef compile_importer():\n    return exec_bash_cmd(\"python -m py_compile sphinx/ext/autodoc/importer.py\")", "bash execution output:\n Sorry: IndentationError: unexpected unindent (importer.py, line 302)\n"), 1, "error IndentationError"},
		{"python-traceback", oa, bashDoc(t, "cat notes.md", "Sorry: we could not reach the server (retry later, line 2)\n"), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "head -c 500 trace.jsonl | python3 -c 'import json,sys; json.loads(sys.stdin.readline())'", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\njson.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 2 (char 1)"), 1, "error json.decoder.JSONDecodeError"},
		{"python-traceback", oa, bashDoc(t, "python reproduce.py", "Traceback (most recent call last):\n  File \"reproduce.py\", line 3, in <module>\n    settings.INSTALLED_APPS\n  File \"/testbed/django/conf/__init__.py\", line 67, in _setup\n    % (desc, ENVIRONMENT_VARIABLE))\ndjango.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured."), 1, "error django.core.exceptions.ImproperlyConfigured"},
		{"python-traceback", oa, bashDoc(t, "python run.py", "Traceback (most recent call last):\n  File \"run.py\", line 9, in <module>\n    handler = load()\ndjango.core.exceptions.MiddlewareNotUsed\n"), 1, "error django.core.exceptions.MiddlewareNotUsed"},
		{"python-traceback", oa, bashDoc(t, "python -m unittest tests.test_a", "Traceback (most recent call last):\n  File \"/testbed/tests/test_a.py\", line 5, in test_b\n    run()\n\nOK\n"), 1, "error EXCEPTION"},
		{"python-traceback", oa, bashDoc(t, "cat crash.log | grep -A3 Traceback | head -20", "Traceback (most recent call last):\n  File \"app.py\", line 9, in <module>\nKeyError: 'id'"), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "python -m pdb repro.py", "> /testbed/repro.py(1)<module>()\n  File \"/testbed/repro.py\", line 1, in <module>\n    import yaml\n(Pdb) "), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "head -20 docs/debugging.md", "When it fails you see:\n\n    Traceback (most recent call last):\n    ValueError: bad\n"), 1, "ok"},
		{"pytest-collection-error", oa, bashDoc(t, "pytest tests/test_a.py", "==================================== ERRORS ====================================\n_______________________ ERROR collecting tests/test_a.py _______________________\nImportError while importing test module '/w/tests/test_a.py'.\nE   ModuleNotFoundError: No module named 'foo'\n=========================== short test summary info ============================\nERROR tests/test_a.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.12s"), 1, "error ModuleNotFoundError"},
		{"pytest-collection-error", oa, bashDoc(t, "pytest", "ERROR tests/test_b.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!"), 1, "error COLLECTION_ERROR"},
		{"pytest-collection-error", oa, bashDoc(t, "pytest tests/_core/test_plot.py::TestScaling::test_x", "==================================== ERRORS ====================================\n__________________ ERROR collecting tests/_core/test_plot.py ___________________\ntests/_core/test_plot.py:17: in <module>\n    from seaborn._core.plot import Plot\nE     File \"/testbed/seaborn/_core/plot.py\", line 1480\nE       if keep_na:\nE   IndentationError: expected an indented block\n=========================== short test summary info ============================\nERROR tests/_core/test_plot.py\n1 error in 0.77s\nERROR: found no collectors for /testbed/tests/_core/test_plot.py::TestScaling::test_x"), 1, "error IndentationError"},
		{"pytest-not-found", oa, bashDoc(t, "pytest tests/test_kwonly_tag.py", "no tests ran in 0.00s\nERROR: file or directory not found: tests/test_kwonly_tag.py"), 1, "error NO_SUCH_FILE"},
		{"pytest-not-found", oa, bashDoc(t, "pytest tests/test_util_inspect.py::test_tuple", "ERROR: not found: /testbed/tests/test_util_inspect.py::test_tuple\n(no match in any of [<Module test_util_inspect.py>])"), 1, "error NO_SUCH_FILE"},
		{"pytest-not-found", oa, bashDoc(t, "grep -rn 'not found' docs/", "docs/faq.md:3:ERROR: file or directory not found: means the path is wrong"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "pytest tests/test_c.py", "tests/test_c.py .F.E\n\n==================================== ERRORS ====================================\n____________________ ERROR at setup of test_d ____________________\nE   fixture 'db' not found\n=========================== short test summary info ============================\nFAILED tests/test_c.py::test_b - assert 1 == 2\nERROR tests/test_c.py::test_d\n1 failed, 2 passed, 1 error in 0.31s"), 1, "error TESTS_FAILED"},
		{"bundler-error", oa, bashDoc(t, "npm run build", "> app@1.0.0 build\n> webpack\n\nERROR in ./src/index.ts 3:0-22\nModule not found: Error: Can't resolve './foo' in '/w/src'\n\nwebpack 5.88.0 compiled with 1 error in 1200 ms"), 1, "error COMPILE_ERROR"},
		{"bundler-error", oa, bashDoc(t, "npx esbuild src/a.ts --bundle", "\u2718 [ERROR] Could not resolve \"./foo\"\n\n    src/a.ts:1:20:\n      1 \u2502 import { foo } from \"./foo\";\n\n1 error"), 1, "error COMPILE_ERROR"},
		{"bundler-error", oa, bashDoc(t, "npm run build", "webpack 5.88.0 compiled with 2 warnings in 900 ms"), 1, "ok"},
		{"shell-syntax-error", oa, bashDoc(t, "@patch_generation\ndef fix():\n    return exec_bash_cmd(\"cat <<'EOF' > p.py\\nx\\nEOF && python p.py\")", "bash execution output:\n/bin/bash: -c: line 3: syntax error near unexpected token `&&'\n/bin/bash: -c: line 3: `EOF && python p.py'\n"), 1, "error SHELL_SYNTAX_ERROR"},
		{"shell-syntax-error", oa, bashDoc(t, "sh run.sh", "run.sh: 4: Syntax error: \"(\" unexpected"), 1, "ok"},
		// A harness that runs the command line through eval (Claude Code) gets the shell's complaint as eval's.
		{"shell-syntax-error", oa, bashDoc(t, "python -c \"print(1)\" && (echo a", "/bin/bash: eval: line 1: syntax error near unexpected token `('\n/bin/bash: eval: line 1: `python -c \"print(1)\" && (echo a'\n"), 1, "error SHELL_SYNTAX_ERROR"},
		{"shell-syntax-error", oa, bashDoc(t, "./configure", "checking for gcc... gcc\n/bin/bash: eval: line 1: syntax error near unexpected token `('\n"), 1, "ok"},
		// The script before the stray && ran and printed: the edit was made.
		{"shell-syntax-error", oa, bashDoc(t, "python - <<'PY'\nprint('patched_indent')\nPY\n&& sed -n '1,5p' a.py", "patched_indent\nbash: -c: line 4: syntax error near unexpected token `&&'\nbash: -c: line 4: `&& sed -n '1,5p' a.py'\n"), 1, "ok"},
		// The shell's own warning before its complaint is not output of a command that ran.
		{"shell-syntax-error", oa, bashDoc(t, "git checkout -- a.py && python - <<'PYnfrom x import y", "bash: line 1: warning: here-document at line 1 delimited by end-of-file (wanted `PYnfrom')\nbash: -c: line 1: syntax error near unexpected token `('\n"), 1, "error SHELL_SYNTAX_ERROR"},
		{"script-syntax-error", oa, bashDoc(t, "perl -0777 -pe \"s/(\\n\\s+else:/x/s\" -i utils.py && echo patched", "Unmatched ( in regex; marked by <-- HERE in m/( <-- HERE \\n\\s+else:/ at -e line 1.\n"), 1, "error SCRIPT_SYNTAX_ERROR"},
		{"script-syntax-error", oa, bashDoc(t, "grep -n 'marked by' docs/perl.txt", "12:Unmatched ( in regex; marked by <-- HERE in m/( is perl's message\n"), 1, "ok"},
		{"script-syntax-error", oa, bashDoc(t, "perl -0777 -i -pe \"s/(matches = self\\.find_obj\\()/$1/\" sphinx/domains/python.py || echo 'patch failed'", "Bareword found where operator expected at -e line 1, near \"attributes\"\nsyntax error at -e line 1, near \"attributes to \"\nExecution of -e aborted due to compilation errors.\npatch failed\n"), 1, "error SCRIPT_SYNTAX_ERROR"},
		{"script-syntax-error", oa, bashDoc(t, "awk 'BEGIN{inserted=0}\n/matches/ && !inserted{ print \"x }' f > g", "awk: line 5: runaway string constant \"        #  ...\n"), 1, "error SCRIPT_SYNTAX_ERROR"},
		{"script-syntax-error", oa, bashDoc(t, "sed -i 's/foo/bar' a.py || true", "sed: -e expression #1, char 9: unterminated `s' command\n"), 1, "error SCRIPT_SYNTAX_ERROR"},
		{"script-syntax-error", oa, bashDoc(t, "grep -rn 'awk: line' docs", "docs/faq.md:12:  awk: line 3: syntax error at or near if\n"), 1, "ok"},
		{"shell-syntax-error", oa, bashDoc(t, "python check.py", "checked 3 files, no syntax error found"), 1, "ok"},
		{"shell-syntax-error", oa, bashDoc(t, "pylint a.py --disable=W0511 && echo \"done!, ok\"", "bash: !,: event not found"), 1, "error SHELL_SYNTAX_ERROR"},
		{"shell-syntax-error", oa, bashDoc(t, "echo \"#!/bin/bash\\nfind /tmp -delete\" > c.sh", "bash: !/bin/bash\\nfind: event not found\n"), 1, "error SHELL_SYNTAX_ERROR"},
		{"shell-syntax-error", oa, bashDoc(t, "python log.py", "parsed 4 lines\nbash: !x: event not found"), 1, "ok"},
		{"shell-syntax-error", oa, bashDoc(t, "grep -rn 'event not found' src/", "src/sh.c:12: /* bash: event not found */"), 1, "ok"},
		{"search-pattern-error", oa, bashDoc(t, `grep -RIn "BumpAllocator\\(" /src | sed -n '1,200p'`, "grep: Unmatched ( or \\("), 1, "error PATTERN_ERROR"},
		{"search-pattern-error", oa, bashDoc(t, `grep -rn "x[" . || true`, "grep: Unmatched [, [^, [:, [., or [="), 1, "error PATTERN_ERROR"},
		{"search-pattern-error", oa, bashDoc(t, `rg "foo(" src`, "regex parse error:\n    foo(\n       ^\nerror: unclosed group"), 1, "error PATTERN_ERROR"},
		{"search-pattern-error", oa, bashDoc(t, "git log --oneline -3", "a1b2c3 docs: say what grep: Unmatched ( or \\( means\n"), 1, "ok"},
		{"search-pattern-error", oa, bashDoc(t, `grep -rn "Unmatched (" tests/`, "tests/test_regex.py:12:    # grep: Unmatched ( or \\( is what GNU grep says\n"), 1, "ok"},
		{"command-not-found", oa, bashDoc(t, "pytest -q", "bash: pytest: command not found"), 1, "error COMMAND_NOT_FOUND"},
		{"command-not-found", oa, bashDoc(t, "rg foo", "sh: 1: rg: not found"), 1, "error COMMAND_NOT_FOUND"},
		{"command-not-found", oa, bashDoc(t, "rg foo", "/bin/sh: rg: not found"), 1, "error COMMAND_NOT_FOUND"},
		{"command-not-found", oa, bashDoc(t, "python -c 'print_definition(...)'", "django/db/models/enums.py enums: not found"), 1, "ok"},
		{"command-not-found", oa, bashDoc(t, "cat TROUBLESHOOTING", "If the shell says\nbash: pytest: command not found\ninstall the dev extras."), 1, "ok"},
		{"no-such-file", oa, bashDoc(t, "ls tests/fixtures", "ls: cannot access 'tests/fixtures': No such file or directory"), 1, "error NO_SUCH_FILE"},
		{"no-such-file", oa, bashDoc(t, "mv node_modules/dtslint/lib/pt-br /tmp/", "mv: cannot stat 'node_modules/dtslint/lib/pt-br': No such file or directory."), 1, "error NO_SUCH_FILE"},
		{"no-such-file", oa, bashDoc(t, "cd build && ./configure --prefix=/usr/local && make -j4 2>&1 | head -c 300", "sh: 1: ./configure: No such file or directory..."), 1, "error NO_SUCH_FILE"},
		{"no-such-file", oa, bashDoc(t, "python send_draft.py", "Failed to create draft: [Errno 2] No such file or directory: 'credentials.json'"), 1, "error NO_SUCH_FILE"},
		{"no-such-file", oa, bashDoc(t, "python -m pytest tests/test_build.py -q", "E       FileNotFoundError: [Errno 2] No such file or directory: '/tmp/out/caption.html'\n1 failed in 0.2s\n"), 1, "error TESTS_FAILED"},
		{"no-such-file", oa, bashDoc(t, "python build_docs.py", "building [html]\nWARNING: convert command 'convert' cannot be run, check the image_converter setting: [Errno 2] No such file or directory: 'convert'\nbuild succeeded, 1 warning.\n"), 1, "ok"},
		{"no-such-file", oa, bashDoc(t, "tail -n 3 /var/log/app.log", "12:01 started\n12:02 open config.yaml: No such file or directory\n12:03 using defaults"), 1, "ok"},
		{"permission-denied", oa, bashDoc(t, "awk -F: '$5 {print $1}' /etc/shadow | wc -l", "awk: cannot open /etc/shadow (Permission denied)\n0"), 1, "error PERMISSION_DENIED"},
		{"permission-denied", oa, bashDoc(t, "./deploy.sh", "bash: ./deploy.sh: Permission denied"), 1, "error PERMISSION_DENIED"},
		{"permission-denied", oa, bashDoc(t, "find / -name settings.py 2>&1 | head", "find: '/proc/1/map_files': Permission denied\n/srv/app/settings.py"), 1, "ok"},
		{"permission-denied", oa, bashDoc(t, "cat notes.txt", "Ask IT if the build user keeps getting Permission denied on the share; it is fine now."), 1, "ok"},
		{"file-op-refused", oa, bashDoc(t, "cd /workspace && mv lib/pt-br lib/pt-BR && yarn install --ignore-engines 2>&1 | tail -30", "mv: cannot move 'lib/pt-br' to a subdirectory of itself, 'lib/pt-BR/pt-br'"), 1, "error ERROR"},
		{"file-op-refused", oa, bashDoc(t, "rm dist && npm run build", "rm: cannot remove 'dist': Is a directory"), 1, "error ERROR"},
		{"file-op-refused", oa, bashDoc(t, "mkdir out && cp a.txt out/", "mkdir: cannot create directory 'out': File exists"), 1, "error ERROR"},
		{"file-op-refused", oa, bashDoc(t, "mv -v build/a.js dist/a.js", "renamed 'build/a.js' -> 'dist/a.js'"), 1, "ok"},
		{"file-op-refused", oa, bashDoc(t, "cp /root/app ./app && chmod +x app && ./app", "cp: '/root/app' and './app' are the same file\n\n"), 1, "error ERROR"},
		{"file-op-refused", oa, bashDoc(t, "grep -rn 'same file' notes/", "notes/cp.txt:3:cp: 'a' and 'b' are the same file"), 1, "ok"},
		{"file-op-refused", oa, bashDoc(t, "cat notes.md", "Remember: mv: cannot move across devices, use cp"), 1, "ok"},
		{"file-op-refused", oa, bashDoc(t, "grep -rn 'cannot remove' logs/", "logs/ci.txt:4:rm: cannot remove 'tmp': Directory not empty"), 1, "ok"},
		{"viewer-no-such-file", oa, bashDoc(t, "nl -ba tests/core/management/tests.py | sed -n '1,80p'", "nl: tests/core/management/tests.py: No such file or directory"), 1, "error NO_SUCH_FILE"},
		{"viewer-no-such-file", oa, bashDoc(t, "cat deploy.log", "12:01 started\ncat: /etc/app.yaml: No such file or directory\n12:03 retried"), 1, "ok"},
		// A file written by cat, then run: the traceback is the program's.
		{"python-traceback", oa, bashDoc(t, "cat > t.py <<'EOF'\nimport missing\nEOF\npython t.py", "Traceback (most recent call last):\n  File \"/testbed/t.py\", line 1, in <module>\n    import missing\nModuleNotFoundError: No module named 'missing'"), 1, "error ModuleNotFoundError"},
		{"python-traceback", oa, bashDoc(t, "cat t.py && python t.py", "import missing\nTraceback (most recent call last):\n  File \"/testbed/t.py\", line 1, in <module>\n    import missing\nModuleNotFoundError: No module named 'missing'"), 1, "error ModuleNotFoundError"},
		{"compiler-error", oa, bashDoc(t, "gcc -o app main.c", "main.c: In function 'main':\nmain.c:12:5: error: expected ';' before 'return'"), 1, "error COMPILE_ERROR"},
		{"compiler-error", oa, bashDoc(t, "make", "gcc -c src/main.c\nsrc/main.c:3:10: fatal error: foo.h: No such file or directory\n    3 | #include \"foo.h\"\ncompilation terminated."), 1, "error COMPILE_ERROR"},
		{"compiler-error", oa, bashDoc(t, "gcc -Wall -o app main.c", "main.c:8:9: warning: unused variable 'n' [-Wunused-variable]"), 1, "ok"},
		{"http-status", oa, bashDoc(t, "curl -si localhost:8080/api/items", "HTTP/1.1 503 Service Unavailable\nContent-Length: 0"), 1, "error HTTP_503"},
		{"http-status", oa, bashDoc(t, "curl -si localhost:8080/api/items", "HTTP/2 429\nretry-after: 30"), 1, "error RATE_LIMIT"},
		{"http-status", oa, bashDoc(t, "python fetch.py https://docs.example/a", "Failed to retrieve content from https://docs.example/a: 404 Client Error: Not Found for url: https://docs.example/a"), 1, "error HTTP_404"},
		{"http-status", oa, bashDoc(t, "python fetch.py https://api.example/b", "503 Server Error: Service Unavailable for url: https://api.example/b"), 1, "error HTTP_503"},
		{"http-status", oa, bashDoc(t, "python fetch.py https://api.example/c", "requests said: 429 Client Error: Too Many Requests for url: https://api.example/c"), 1, "error RATE_LIMIT"},
		{"http-status", oa, bashDoc(t, "curl -si localhost:8080/api/slow", "HTTP/1.1 504 Gateway Timeout"), 1, "error TIMEOUT"},
		{"http-status", oa, bashDoc(t, "curl -si localhost:8080/api/items", "HTTP/1.1 200 OK\nContent-Type: application/json\n\n[]"), 1, "ok"},
		{"error-prefix", oa, chatDoc(t, "get_order_details", map[string]any{"order_id": "#W1"}, "Error: order not found"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "python run_cli.py uname", "/usr/lib/python3.10/site-packages/pydantic/main.py:214: UserWarning: A custom validator is returning a value other than `self`.\nReturning anything other than `self` from a top level model validator isn't supported.\n  warnings.warn(\n\nAn error occurred while executing the command: (psutil 5.9.5, Requirement.parse('psutil>=5.9.6'))"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "@patch_generation\ndef fix():\n    return exec_bash_cmd(\"git apply -p0 <<'PATCH' ... PATCH\")", "bash execution output:\n error: unrecognized input\n\n"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "git apply -p0 <<'PATCH'\n*** Begin Patch\n*** Update File: sphinx/writers/latex.py\n@@", "bash: line 17: warning: here-document at line 1 delimited by end-of-file (wanted `PATCH')\nerror: unrecognized input\n"), 1, "error ERROR"},
		{"error-every-line", oa, bashDoc(t, "python - <<'PY'\nfrom django.utils.http import parse_http_date\nfor s in samples:\n    try:\n        print(s, parse_http_date(s))\n    except Exception as e:\n        print(s, 'ERR', e)\nPY", "Sun, 06 Nov 1994 08:49:37 GMT ERR name 'RFC822_DATE' is not defined\nSun, 06 Nov 94 08:49:37 GMT ERR name 'RFC822_DATE' is not defined\nSun Nov  6 08:49:37 1994 ERR name 'RFC822_DATE' is not defined\n"), 1, "error ERROR"},
		{"error-every-line", oa, bashDoc(t, "python3 check.py", "case a: Exception: KeyError: 'limit' missing in config\ncase b: Exception: KeyError: 'limit' missing in config\n"), 1, "error KeyError"},
		{"error-every-line", oa, bashDoc(t, "python3 check.py", "case a: ERROR invalid date 'x1' given\ncase b: ERROR invalid date 'x2' given\n"), 1, "ok"},
		{"error-every-line", oa, bashDoc(t, "python3 check.py", "case a: ok\ncase b: ERR name 'RFC822_DATE' is not defined\n"), 1, "ok"},
		{"error-every-line", oa, bashDoc(t, "python3 check.py", "case a ERR name 'RFC822_DATE' is not defined\n"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "cat <<'EOF' > notes.txt\nerror: none\n", "bash: line 3: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\nwrote notes.txt\nerror: none seen\n"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "python report.py", "/usr/lib/python3.10/site-packages/pandas/core.py:12: FutureWarning: the default will change\n  warnings.warn(\nRows: 12\nAn error occurred in 0 of them"), 1, "ok"},
		{"mcp-is-error", oa, chatDoc(t, "drawing_fillRectangle", map[string]any{"x": 1}, `{"content": [{"type": "text", "text": "No canvas generated."}], "isError": true}`), 1, "error ERROR"},
		{"mcp-is-error", oa, chatDoc(t, "execute-tool", map[string]any{"tool_name": "drawing_fillRectangle"}, `meta=None content=[TextContent(type='text', text='{\n  "content": [{"type": "text", "text": "No canvas generated."}],\n  "isError": true\n}', annotations=None)] isError=False`), 1, "error ERROR"},
		{"mcp-is-error", oa, chatDoc(t, "execute-tool", map[string]any{"tool_name": "run_python"}, `meta=None content=[TextContent(type='text', text='Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nZeroDivisionError: division by zero', annotations=None)] isError=True`), 1, "error ZeroDivisionError"},
		{"mcp-is-error", oa, chatDoc(t, "execute-tool", map[string]any{"tool_name": "drawing_generateCanvas"}, `meta=None content=[TextContent(type='text', text='{"content": [{"type": "text", "text": "Canvas generated; isError checks pass"}], "isError": false}', annotations=None)] isError=False`), 1, "ok"},
		{"json-error", oa, chatDoc(t, "execute-tool", map[string]any{"tool_name": "manage_text"}, `meta=None content=[TextContent(type='text', text='{"content": [{"type": "text", "text": "{\\n  \\"error\\": \\"No presentation is currently loaded\\"\\n}"}], "isError": false}', annotations=None)] isError=False`), 1, "error ERROR"},
		{"json-error", oa, chatDoc(t, "create_issue", map[string]any{"title": "x"}, `{"success": false, "message": "repository is archived"}`), 1, "error ERROR"},
		{"json-error", oa, chatDoc(t, "get_user", map[string]any{"id": 7}, `{"error": null, "user": {"id": 7, "status": "error-free"}}`), 1, "ok"},
		{"rust-error", oa, bashDoc(t, "cargo build", "   Compiling demo v0.1.0 (/w)\nerror[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:20\n  |\n2 |     println!(\"{}\", x);\n  |                    ^ not found in this scope\n\nFor more information about this error, try `rustc --explain E0425`.\nerror: could not compile `demo` (bin \"demo\") due to 1 previous error"), 1, "error COMPILE_ERROR"},
		{"rust-error", oa, bashDoc(t, "cargo build", "   Compiling demo v0.1.0 (/w)\nwarning: unused variable: `y`\n --> src/main.rs:3:9\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.52s"), 1, "ok"},
		{"typescript-error", oa, bashDoc(t, "npx tsc --noEmit", "src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."), 1, "error COMPILE_ERROR"},
		{"typescript-error", oa, bashDoc(t, "npx tsc --noEmit --pretty", "src/index.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n3 const n: number = \"x\";\n        ~\n\nFound 1 error in src/index.ts:3"), 1, "error COMPILE_ERROR"},
		{"typescript-error", oa, bashDoc(t, "grep -rn TS2322 docs/", "docs/migrating.md:40:TS2322 means a value does not fit the declared type."), 1, "ok"},
		{"go-build-error", oa, bashDoc(t, "go test ./...", "# example.com/app [example.com/app.test]\n./handler_test.go:14:2: undefined: newServer\nFAIL\texample.com/app [build failed]"), 1, "error COMPILE_ERROR"},
		{"go-build-error", oa, bashDoc(t, "go test ./... 2>&1 | tail -3", "ok  \texample.com/app/a\t0.004s\nFAIL\texample.com/app/b [build failed]\nFAIL"), 1, "error COMPILE_ERROR"},
		{"tests-failed", oa, bashDoc(t, "go test ./...", "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 1, want 2\nFAIL\nFAIL\texample.com/app\t0.003s"), 1, "error TESTS_FAILED"},
		// A JavaScript runner's report of one failing test, the summary cut
		// off (tail, a logger): Mocha's numbered entry, Jest's FAIL line and
		// its failure heading; a numbered list, a PASS line and a bullet are
		// not failures.
		{"tests-failed", oa, bashDoc(t, "npm test 2>&1 | tail -50", "  3) sourcemaps\n       basic:\n     Error: You must provide the URL of lib/mappings.wasm\n      at readWasm (node_modules/source-map/lib/read-wasm.js:8:13)\n\n  4) sourcemaps\n       binding:\n     Error: Yo..."), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "npx mocha 2>&1 | tail -8", "  26) runtime\n       binding-select :\n     AssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "npm test -- --testPathPattern=plugin", "PASS tests_integration/__tests__/plugin-options.js\nFAIL tests/css_postcss_plugins/jsfmt.spec.js\n  ● Test suite failed to run\n\n    TypeError: Cannot read properties of null (reading 'split')"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "yarn jest 2>&1 | tail -4", "  ● parenthesis.ts › verify (babel-ts)\n\n    SyntaxError: Invalid parenthesized assignment pattern (8:1)"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "python show_steps.py", "Steps:\n  1) Setup\n     Prerequisites:\n     Errors are logged to stderr\n  2) read ErrorHandling.md"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "npm test -- --testPathPattern=plugin", "PASS tests_integration/__tests__/plugin-options.js\n  ● Loading plugins"), 1, "ok"},
		{"jvm-build-error", oa, bashDoc(t, "mvn -q compile", "[ERROR] COMPILATION ERROR : \n[ERROR] /w/src/main/java/App.java:[12,9] cannot find symbol\n  symbol:   method lenght()"), 1, "error COMPILE_ERROR"},
		{"jvm-build-error", oa, bashDoc(t, "gradle build", "> Task :compileKotlin FAILED\ne: file:///w/src/main/kotlin/App.kt:3:5 Unresolved reference: foo\n\nFAILURE: Build failed with an exception."), 1, "error COMPILE_ERROR"},
		{"jvm-build-error", oa, bashDoc(t, "gradle build 2>&1 | tail -4", "> Task :compileJava FAILED\n\nFAILURE: Build failed with an exception.\n"), 1, "error COMPILE_ERROR"},
		{"jvm-build-error", oa, bashDoc(t, "gradle test 2>&1 | tail -6", "> Task :test FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':test'."), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "mvn test", "[INFO] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n[ERROR] Failures: \n[ERROR]   AppTest.parses:21 expected: <1> but was: <2>\n[INFO] BUILD FAILURE"), 1, "error TESTS_FAILED"},
		{"build-failed", oa, bashDoc(t, "make", "gcc -o app main.o util.o\n/usr/bin/ld: util.o: in function `f':\nutil.c:(.text+0x5): undefined reference to `g'\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:4: app] Error 1"), 1, "error BUILD_FAILED"},
		{"jvm-build-error", oa, bashDoc(t, "mvn compile -q 2>&1 | tail -5", "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project gson: Compilation failure -> [Help 1]\n[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch."), 1, "error COMPILE_ERROR"},
		{"build-failed", oa, bashDoc(t, "mvn -q install", "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.2.1:enforce (enforce-versions) on project app: Some Enforcer rules have failed."), 1, "error BUILD_FAILED"},
		{"build-failed", oa, bashDoc(t, "./mvnw install -N -q 2>&1 | tail -3", "[ERROR]   \n[ERROR]   The project org.apache.dubbo:dubbo-parent:2.7.6-SNAPSHOT (/workspace/pom.xml) has 1 error\n[ERROR]     Non-resolvable import POM: Could not find artifact org.apache.dubbo:dubbo-dependencies-bom:pom:2.7.6-SNAPSHOT"), 1, "error BUILD_FAILED"},
		{"build-failed", oa, bashDoc(t, "./mvnw install -pl dubbo-bom -N -q", "[ERROR] [ERROR] Could not find the selected project in the reactor: dubbo-bom @ \n[ERROR] Could not find the selected project in the reactor: dubbo-bom -> [Help 1]"), 1, "error BUILD_FAILED"},
		{"build-failed", oa, bashDoc(t, "mvn test -q 2>&1 | grep ERROR", "[ERROR] c.f.a.p.RetryableRestTemplate - Http request failed, uri: app, method: GET"), 1, "ok"},
		{"build-failed", oa, bashDoc(t, "mvn compile 2>&1 | grep -A 5 Compiling", "[INFO] Compiling 81 source files with javac [forked debug release 7] to target/classes\n[INFO] ------------------------------------------------------------------------\n[INFO] BUILD FAILURE\n[INFO] ------------------------------------------------------------------------\n[INFO] Total time:  0.581 s"), 1, "error BUILD_FAILED"},
		{"tests-failed", oa, bashDoc(t, "mvn test 2>&1 | tail -8", "[ERROR] Tests run: 12, Failures: 2, Errors: 0, Skipped: 0\n[INFO] ------------------------------------------------------------------------\n[INFO] BUILD FAILURE\n[INFO] ------------------------------------------------------------------------"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "mvn test", "[ERROR] Tests run: 4, Failures: 1\n[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.0.0:test (default-test) on project app: There are test failures."), 1, "error TESTS_FAILED"},
		{"package-manager-error", oa, bashDoc(t, "npm install", "npm ERR! code ENOTEMPTY\nnpm ERR! syscall rename\nnpm ERR! ENOTEMPTY: directory not empty, rename '/w/node_modules/x' -> '/w/node_modules/.x-1'"), 1, "error NPM_ENOTEMPTY"},
		{"package-manager-error", oa, bashDoc(t, "npm i left-pad@99", "npm error code ETARGET\nnpm error notarget No matching version found for left-pad@99."), 1, "error NPM_ETARGET"},
		{"package-manager-error", oa, bashDoc(t, "yarn install", "yarn install v1.22.22\n[1/4] Resolving packages...\nerror An unexpected error occurred: \"https://registry.yarnpkg.com/x: ESOCKETTIMEDOUT\"."), 1, "error ERROR"},
		{"package-manager-error", oa, bashDoc(t, "pip install -e .", "  error: subprocess-exited-with-error\n  \n  × Getting requirements to build editable did not run successfully.\n  │ exit code: 1\n  note: This error originates from a subprocess, and is likely not a problem with pip.\nerror: subprocess-exited-with-error\n\n× Getting requirements to build editable did not run successfully.\nnote: This error originates from a subprocess, and is likely not a problem with pip.\nerror: metadata-generation-failed"), 1, "error PIP_METADATA_GENERATION_FAILED"},
		{"package-manager-error", oa, bashDoc(t, "pip install flash-attn==9.9", "ERROR: Could not find a version that satisfies the requirement flash-attn==9.9 (from versions: 2.5.0)\nERROR: No matching distribution found for flash-attn==9.9"), 1, "error PIP_ERROR"},
		{"package-manager-error", oa, bashDoc(t, "python check.py", "checking the install docs\nthe line 'error: metadata-generation-failed' means a build backend failed\ndone"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "npm test", "> app@1.0.0 test\n> mocha\n\n  1 failing\n\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1"), 1, "error TESTS_FAILED"},
		{"package-manager-error", oa, bashDoc(t, "npm install 2>&1 | tail -8", "npm error   dev webpack@\"4.20.2\" from the root project\nnpm error\nnpm error Could not resolve dependency:\nnpm error peer webpack@\"^2.0.0 || ^3.0.0\" from karma-webpack@3.0.5\nnpm error\nnpm error Fix the upstream dependency conflict, or retry"), 1, "error NPM_ERESOLVE"},
		{"package-manager-error", oa, bashDoc(t, "npm install -g yarn@1.22.19 2>&1 | tail -5", "npm error EEXIST: file already exists\nnpm error File exists: /root/.nvm/versions/node/v22.18.0/bin/yarn\nnpm error Remove the existing file and try again, or run npm"), 1, "error NPM_EEXIST"},
		{"package-manager-error", oa, bashDoc(t, "npm install --legacy-peer-deps 2>&1 | tail -3", "npm ERR! Invalid Version: \n\nnpm ERR! A complete log of this run can be found in:"), 1, "error ERROR"},
		{"package-manager-error", oa, bashDoc(t, "npm install 2>&1 | tail -3", "npm error\nnpm error ERROR: Failed to set up Chromium r1011831! Set \"PUPPETEER_SKIP_DOWNLOAD\" env variable to skip download.\nnpm error Error"), 1, "error ERROR"},
		{"package-manager-error", oa, bashDoc(t, "npm test 2>&1 | tail -4", "Tests: 2 passed, 2 total\nnpm error Lifecycle script `test` failed with error:\nnpm error code 1\nnpm error command failed"), 1, "ok"},
		{"package-manager-error", oa, bashDoc(t, "npm install", "added 12 packages in 2s\nnpm warn deprecated inflight@1.0.6: This module is not supported"), 1, "ok"},
		{"package-manager-error", oa, bashDoc(t, "cat docs/install.md", "If you see `npm ERR! code ENOTEMPTY`, delete node_modules and retry."), 1, "ok"},
		{"build-failed", oa, bashDoc(t, "cmake -S . -B build", "-- The C compiler identification is GNU 12.2.0\n-- Configuring done\n-- Generating done\n-- Build files have been written to: /w/build"), 1, "ok"},
		{"make-failed", oa, bashDoc(t, "make test", "./run_tests.sh\n2 of 14 tests failed\nmake: *** [Makefile:12: test] Error 2"), 1, "error EXIT_CODE"},
		{"make-failed", oa, bashDoc(t, "make check", "make: *** No rule to make target 'check'.  Stop."), 1, "error EXIT_CODE"},
		{"make-failed", oa, bashDoc(t, "make -k", "gcc -c main.c\nmake: [Makefile:9: lint] Error 1 (ignored)\nmake: Nothing to be done for 'all'."), 1, "ok"},
		{"uncaught-exception", oa, bashDoc(t, "java -cp out App", "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null\n\tat App.main(App.java:5)"), 1, "error java.lang.NullPointerException"},
		{"uncaught-exception", oa, bashDoc(t, "node index.js", "/w/index.js:3\nfoo();\n^\n\nReferenceError: foo is not defined\n    at Object.<anonymous> (/w/index.js:3:1)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n\nNode.js v18.17.0"), 1, "error ReferenceError"},
		{"uncaught-exception", oa, bashDoc(t, "node /tmp/t.js", "node:internal/modules/cjs/loader:1368\n  throw err;\n  ^\n\nError: Cannot find module 'react'\nRequire stack:\n- /tmp/t.js..."), 1, "error Error"},
		{"uncaught-exception", oa, bashDoc(t, "node t.mjs", "node:internal/modules/esm/assert:88\n        throw new ERR_IMPORT_ATTRIBUTE_MISSING(url, 'type', validType);\n              ^\n\nTypeError [ERR_IMPORT_ATTRIBUTE_MISSING]: Module \"file:///w/p.json\" needs an import attribute of \"type: json\"\n    at validateAttributes (node:internal/modules/esm/assert:88:15)"), 1, "error TypeError"},
		{"uncaught-exception", oa, bashDoc(t, "python3 show.py", "    ^\n\nError: Cannot find module 'react'\nwas printed by the last run"), 1, "ok"},
		{"uncaught-exception", oa, bashDoc(t, "go run .", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/w/main.go:7 +0x1d\nexit status 2"), 1, "error PANIC"},
		{"uncaught-exception", oa, bashDoc(t, "cargo run", "    Finished `dev` profile target(s) in 0.02s\n     Running `target/debug/demo`\nthread 'main' panicked at src/main.rs:4:5:\nattempt to subtract with overflow"), 1, "error PANIC"},
		{"tests-failed", oa, bashDoc(t, "cargo test", "running 2 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\n\nfailures:\n\n---- tests::b stdout ----\nthread 'tests::b' panicked at src/lib.rs:10:9:\nassertion `left == right` failed\n  left: 1\n right: 2\n\nfailures:\n    tests::b\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "go test ./...", "--- FAIL: TestParse (0.00s)\npanic: runtime error: index out of range [1] with length 1 [recovered]\n\tpanic: runtime error: index out of range [1] with length 1\n\ngoroutine 7 [running]:\ntesting.tRunner.func1.2({0x4f1f20, 0xc000016168})\nFAIL\texample.com/p\t0.004s\nFAIL"), 1, "error TESTS_FAILED"},
		{"uncaught-exception", oa, bashDoc(t, "php artisan test", "PHP Fatal error:  Uncaught Error: Call to undefined function foo() in /w/a.php:3\nStack trace:\n#0 {main}\n  thrown in /w/a.php on line 3"), 1, "error Error"},
		{"uncaught-exception", oa, bashDoc(t, "php -l a.php", "PHP Parse error:  syntax error, unexpected token \"}\" in a.php on line 7"), 1, "error FATAL_ERROR"},
		{"uncaught-exception", oa, bashDoc(t, "ruby a.rb", "a.rb:3:in `<main>': undefined local variable or method `foo' for main:Object (NameError)"), 1, "error NameError"},
		{"tests-failed", oa, bashDoc(t, "bundle exec rspec spec/a_spec.rb", "F\n\nFailures:\n\n  1) A adds\n     Failure/Error: expect(add(1, 1)).to eq(3)\n     # ./spec/a_spec.rb:3:in `block (2 levels) in <top (required)>'\n\n1 example, 1 failure"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "npx jest src/a.test.js", "FAIL src/a.test.js\n  \u25cf parses\n\n    TypeError: parse is not a function\n\n      at Object.<anonymous> (src/a.test.js:3:5)\n\nTests:       1 failed, 1 total"), 1, "error TESTS_FAILED"},
		{"uncaught-exception", oa, bashDoc(t, "grep -n Exception logs/app.log", "12:Exception in thread \"main\" java.lang.IllegalStateException\n31:panic: recovered"), 1, "ok"},
		{"crashed", oa, bashDoc(t, "./build/parser tests/big.json", "Segmentation fault (core dumped)"), 1, "error CRASHED"},
		{"crashed", oa, bashDoc(t, "./build/app --load data.bin", "bash: line 1:  4121 Aborted                 (core dumped) ./build/app --load data.bin"), 1, "error CRASHED"},
		{"crashed", oa, bashDoc(t, "python train.py", "epoch 1/10\nKilled"), 1, "error CRASHED"},
		{"crashed", oa, bashDoc(t, "go run ./cmd/server", "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()"), 1, "error CRASHED"},
		{"crashed", oa, bashDoc(t, "cat CHANGELOG.md", "## 2.1\nFixed: Segmentation fault when the file is empty\nKilled processes are now reaped"), 1, "ok"},
		{"crashed", oa, bashDoc(t, "python migrate.py", "Aborted the migration: nothing to do"), 1, "ok"},
		{"go-tool-error", oa, bashDoc(t, "go test ./...", "go: cannot find main module, but found .git/config in /app\n\tto create a module there, run:\n\tgo mod init"), 1, "error BUILD_FAILED"},
		{"go-tool-error", oa, bashDoc(t, "go build ./cmd/app", "cmd/app/main.go:5:2: no required module provides package github.com/acme/clock/parse; to add it:\n\tgo get github.com/acme/clock/parse"), 1, "error BUILD_FAILED"},
		{"go-tool-error", oa, bashDoc(t, "go get github.com/acme/clock@v1.2.0", "go: downloading github.com/acme/clock v1.2.0\ngo: added github.com/acme/clock v1.2.0"), 1, "ok"},
		{"curl-error", oa, bashDoc(t, "curl -sS localhost:8080/health", "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused"), 1, "error ERROR"},
		{"curl-error", oa, bashDoc(t, "grep -rn 'curl: (' docs/", "docs/ops.md:14:If you see curl: (7) the server is down."), 1, "ok"},
		{"prettier-error", oa, bashDoc(t, "echo \"(a:b)\" | npx prettier --parser babel-ts 2>&1", "(node:549) [DEP0128] DeprecationWarning: Invalid 'main' field\n[error] stdin: SyntaxError: Did not expect a type annotation here. (1:2)\n[error] > 1 | (a:b)\n[error]     |  ^\n"), 1, "error SyntaxError"},
		{"prettier-error", oa, bashDoc(t, "npx prettier --write test-scss.scss", "[error] test-scss.scss: TypeError: Cannot read properties of undefined (reading 'type')\n[error]     at genericPrint (/w/src/language-css/printer-postcss.js:558:21)\n"), 1, "error TypeError"},
		{"prettier-error", oa, bashDoc(t, "sbt test", "[info] Tests: succeeded 3, failed 1\n[error] Failed: Total 4, Failed 1, Errors 0, Passed 3\n"), 1, "ok"},
		{"prettier-error", oa, bashDoc(t, "grep -rn SyntaxError docs/", "docs/faq.md:3:[error] stdin: SyntaxError: Unexpected token is what you see"), 1, "ok"},
		{"netcat-error", oa, bashDoc(t, "nc victim 9999", "victim [172.26.0.3] 9999 (?) : Connection refused\n"), 1, "error ERROR"},
		{"netcat-error", oa, bashDoc(t, "nc -v localhost 1337 < payload.bin", "nc: connect to localhost port 1337 (tcp) failed: Connection refused"), 1, "error ERROR"},
		{"netcat-error", oa, bashDoc(t, "ncat db 5432", "Ncat: Connection refused."), 1, "error ERROR"},
		{"netcat-error", oa, bashDoc(t, "nc -zv localhost 20-23", "nc: connect to localhost port 20 (tcp) failed: Connection refused\nConnection to localhost 22 port [tcp/ssh] succeeded!"), 1, "ok"},
		{"netcat-error", oa, bashDoc(t, "grep -n refused notes.md", "notes.md:9:nc: connect to host port 22 (tcp) failed: Connection refused"), 1, "ok"},
		{"apt-error", oa, bashDoc(t, "apt-get install -y strace", "E: Unable to locate package strace\n\nReading package lists...\nBuilding dependency tree...\nReading state information..."), 1, "error ERROR"},
		{"apt-error", oa, bashDoc(t, "apt-get install -y python3-dev", "Reading package lists...\nE: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 412 (apt-get)"), 1, "error ERROR"},
		{"apt-error", oa, bashDoc(t, "apt-get install -y jq", "Reading package lists...\nSetting up jq (1.6-2.1ubuntu3) ...\nW: --force-yes is deprecated, use one of the options starting with --allow instead."), 1, "ok"},
		{"apt-error", oa, bashDoc(t, "grep -n 'E: Unable' docs/setup.md", "docs/setup.md:40:If apt says E: Unable to locate package strace, run apt-get update."), 1, "ok"},
		{"openssl-error", oa, bashDoc(t, "openssl pkeyutl -decrypt -inkey /tmp/priv.pem -in msg", "Could not find private key from /tmp/priv.pem\nC0BEC2ABAA2A0000:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:../crypto/store/store_result.c:151:\npkeyutl: Error initializing context"), 1, "error ERROR"},
		{"openssl-error", oa, bashDoc(t, "openssl rsa -in key.pem -check", "unable to load Private Key\n140735:error:0909006C:PEM routines:get_name:no start line:crypto/pem/pem_lib.c:745:Expecting: ANY PRIVATE KEY"), 1, "error ERROR"},
		{"openssl-error", oa, bashDoc(t, "grep -n 'Could not find' notes.md", "notes.md:3:openssl says Could not find private key from key.pem when the header is missing"), 1, "ok"},
		{"openssl-error", oa, bashDoc(t, "python3 parse.py", "parsed 3 records; field error:count was 0"), 1, "ok"},
		{"uncaught-exception", oa, bashDoc(t, "node src/index.js", "/app/src/index.js:12\n    throw new Error('config missing');\n    ^\n\nError: config missing\n    at Object.<anonymous> (/app/src/index.js:12:11)\n    at Module._compile (internal/modules/cjs/loader.js:999:30)"), 1, "error Error"},
		{"package-manager-error", oa, bashDoc(t, "npm test", "npm ERR! Missing script: \"test\"\nnpm ERR! \nnpm ERR! To see a list of scripts, run:\nnpm ERR!   npm run"), 1, "error ERROR"},
		{"option-refused", oa, bashDoc(t, "grep -Rin --color -S 'parse_http_date' testbed || true", "grep: invalid option -- 'S'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information."), 1, "error USAGE_ERROR"},
		{"option-refused", oa, bashDoc(t, "ls && grep -R --no-color private sphinx || true", "AUTHORS\nsphinx\ngrep: unrecognized option '--no-color'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information."), 1, "error USAGE_ERROR"},
		{"option-refused", oa, bashDoc(t, "cp a", "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information."), 1, "error USAGE_ERROR"},
		{"option-refused", oa, bashDoc(t, "rm", "rm: missing operand\nTry 'rm --help' for more information."), 1, "error USAGE_ERROR"},
		{"option-refused", oa, bashDoc(t, "git am --check p.patch", "Patch can be applied:\nerror: unknown option `check'\nusage: git am [<options>] [(<mbox> | <Maildir>)...]"), 1, "error USAGE_ERROR"},
		{"option-refused", oa, bashDoc(t, "python3 check_cli.py", "grep: invalid option -- 'S'\nwas expected, and printed\n"), 1, "ok"},
		{"is-a-directory", oa, bashDoc(t, "grep -n 'class PseudoAxis' -n seaborn || true", "grep: seaborn: Is a directory\n"), 1, "error IS_A_DIRECTORY"},
		{"is-a-directory", oa, bashDoc(t, "nl -ba sympy/ntheory | sed -n '1,200p'", "nl: sympy/ntheory: Is a directory"), 1, "error IS_A_DIRECTORY"},
		{"is-a-directory", oa, bashDoc(t, "grep -n get_source -n sphinx || true && grep -rn get_source sphinx", "grep: sphinx: Is a directory\nsphinx/pycode/__init__.py:41:        if loader and getattr(loader, 'get_source', None):"), 1, "ok"},
		{"is-a-directory", oa, bashDoc(t, "python3 explain.py", "the message 'grep: x: Is a directory' means grep was not given -r"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "git log -3", "fatal: not a git repository (or any of the parent directories): .git"), 1, "error ERROR"},
		{"command-not-found", oa, bashDoc(t, "python3 -m pytest -q", "/usr/bin/python3: No module named pytest"), 1, "error COMMAND_NOT_FOUND"},
		{"python-traceback", oa, bashDoc(t, "python -c 'import yaml'", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'yaml'"), 1, "error ModuleNotFoundError"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest tests/test_totals.py -q", "..F\n=================================== FAILURES ===================================\nE       assert 81 == 90\nFAILED tests/test_totals.py::test_discount - assert 81 == 90\n1 failed, 2 passed in 0.14s"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "./runtests.py utils_tests", "..F\n----------------------------------------------------------------------\nRan 3 tests in 0.004s\n\nFAILED (failures=1)"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "npx vitest run", " FAIL  src/cart.test.ts > cart > applies the discount once\n\n Test Files  1 failed (1)\n      Tests  1 failed | 6 passed (7)"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "./gradlew test", "> Task :test FAILED\n\nAppTest > parses() FAILED\n\n3 tests completed, 1 failed"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "ctest --test-dir build", "50% tests passed, 1 tests failed out of 2"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest -x -q --tb=no 2>&1 | tail -2", "FAILED tests/test_totals.py::test_discount - assert 81 == 90\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "npm test", "> app@1.0.0 test\n> mocha\n\n  parse\n    1) handles empty\n\n  0 passing (8ms)\n  1 failing..."), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "grep -rn 'FAILED' notes.md", "notes.md:3:FAILED tests/test_a.py::test_b - flaky on CI"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest tests/test_totals.py 2>&1 | head -c 400", "============================= test session starts ==============================\ncollected 3 items\n\ntests/test_totals.py ..F\n\n=================================== FAILURES ===================================\n___ test_discount ___..."), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "java -cp target/classes:lib/* org.junit.runner.JUnitCore com.acme.ParseTest", "JUnit version 4.13.2\n..E\nTime: 0.012\nThere was 1 failure:\n1) parses(com.acme.ParseTest)\njava.lang.AssertionError: expected:<1> but was:<2>\n\nFAILURES!!!\nTests run: 3,  Failures: 1"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "java -jar junit-platform-console-standalone.jar -cp out --select-class com.acme.ParseTest", "[         3 tests found           ]\n[         0 tests skipped         ]\n[         3 tests started         ]\n[         0 tests aborted         ]\n[         2 tests successful      ]\n[         1 tests failed          ]"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "java -jar junit-platform-console-standalone.jar -cp out --select-class com.acme.ParseTest", "[         3 tests successful      ]\n[         0 tests failed          ]"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "./build/parser_test", "[==========] Running 3 tests from 1 test suite.\n[ RUN      ] Parse.Empty\nparser_test.cc:12: Failure\nExpected equality of these values:\n  parse(\"\")\n    Which is: 1\n  0\n[  FAILED  ] Parse.Empty (0 ms)\n[==========] 3 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 2 tests."), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "./build/tests", "===============================================================================\ntest cases: 3 | 2 passed | 1 failed\nassertions: 9 | 8 passed | 1 failed"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "dotnet test", "Failed!  - Failed:     1, Passed:     3, Skipped:     0, Total:     4, Duration: 52 ms - Acme.Tests.dll (net8.0)"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "./build/tests", "===============================================================================\nAll tests passed (9 assertions in 3 test cases)"), 1, "ok"},
		{"bundler-error", oa, bashDoc(t, "npm run build", "> app@0.1.0 build\n> vite build\n\nvite v5.2.0 building for production...\n✓ 12 modules transformed.\nx Build failed in 412ms\nerror during build:\nsrc/main.ts (3:9): \"parse\" is not exported by \"src/parse.ts\""), 1, "error COMPILE_ERROR"},
		{"bundler-error", oa, bashDoc(t, "npx next build", "   Creating an optimized production build ...\nFailed to compile.\n\n./app/page.tsx\nModule not found: Can't resolve './Header'"), 1, "error COMPILE_ERROR"},
		{"bundler-error", oa, bashDoc(t, "grep -rn 'Failed to compile' docs", "docs/troubleshooting.md:8:If next build says Failed to compile. check the import paths"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "bundle exec rspec", "..F\n\nFailures:\n\n  1) Cart applies the discount once\n\n3 examples, 1 failure"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "vendor/bin/phpunit", "..F\n\nFAILURES!\nTests: 3, Assertions: 5, Failures: 1."), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "COLUMNS=1000 python -m pytest", strings.Repeat("=", 450)+" 1 failed, 8 passed in 0.05s "+strings.Repeat("=", 450)), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest -q", "...\n3 passed, 1 xfailed in 0.21s"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "go test ./...", "ok  \texample.com/app\t0.003s\nok  \texample.com/app/parse\t0.010s"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "cargo test", "running 2 tests\ntest tests::a ... ok\ntest tests::b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "mvn test", "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1\n[INFO] BUILD SUCCESS"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "npx jest", "PASS src/a.test.js\nTests:       4 passed, 4 total"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "grep -n FAIL ci.log", "12:--- FAIL: TestParse (0.00s)\n13:FAIL\texample.com/app\t0.003s"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "pytest -q", "........................................................................ [ 62%]\n..........ssss..Fsssss................................................. [ 66%]\n......................"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest tests/test_sampler.py -v 2>&1 | head -3", "tests/test_sampler.py::test_penalty[0.1-cuda:0] PASSED [ 50%]\ntests/test_sampler.py::test_penalty[0.1-cuda:1] FAILED [100%]\n"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "pytest tests/test_c.py 2>&1 | head -4", "collected 3 items\n\ntests/test_c.py .E [ 66%]\n"), 1, "error TESTS_FAILED"},
		{"tests-failed", oa, bashDoc(t, "pytest -q", "..........ssss..xsssss....X........................................... [ 66%]\n......................"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "python -m pytest tests/test_sampler.py -v 2>&1 | head -3", "tests/test_sampler.py::test_penalty[0.1-cuda:0] PASSED [ 50%]\ntests/test_sampler.py::test_failed_upload PASSED [100%]\n"), 1, "ok"},
		{"tests-failed", oa, bashDoc(t, "python report.py", "Each row of the report ends FAILED [ 83%] when a step fails.\nFeature flags: FFF [ 10%]?\n"), 1, "ok"},
		{"build-failed", oa, bashDoc(t, "cd docs && sphinx-build -n -W . _build", "Running Sphinx v4.2.0\nbuilding [html]: targets for 1 source files that are out of date\nwriting output... [100%] index\n\n\nWarning, treated as error:\n/testbed/repro.py:docstring of repro.foo::py:class reference target not found: True"), 1, "error BUILD_FAILED"},
		{"build-failed", oa, bashDoc(t, "python notes.py", "With -W every Warning, treated as error: the build stops at the first one.\n"), 1, "ok"},
		{"package-manager-error", oa, bashDoc(t, "yarn install 2>&1 | tail -3", "➤ YN0001: │ Error: definitelytyped-header-parser@https://github.com/x: Git clone failed\n➤ YN0000: └ Completed in 8s 689ms\n➤ YN0000: · Failed with errors in 8s 694ms"), 1, "error ERROR"},
		{"package-manager-error", oa, bashDoc(t, "yarn install", "➤ YN0000: └ Completed in 3s 12ms\n➤ YN0000: · Done with warnings in 3s 20ms"), 1, "ok"},
		// pip's code line cut off by tail: its closing report still says it gave up.
		{"package-manager-error", oa, bashDoc(t, "pip install -e . --no-build-isolation -q 2>&1 | tail -5", "× Encountered error while generating package metadata.\n╰─> See above for output.\n\nnote: This is an issue with the package mentioned above, not pip.\nhint: See above for details.\n"), 1, "error PIP_METADATA_GENERATION_FAILED"},
		{"package-manager-error", oa, bashDoc(t, "pip install lxml==4.2.0 2>&1 | tail -3", "× Encountered error while trying to install package.\n╰─> lxml\n"), 1, "error PIP_ERROR"},
		{"package-manager-error", oa, bashDoc(t, "grep -rn 'Encountered error while' docs/", "docs/install.md:40:× Encountered error while generating package metadata.\n"), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "cd /testbed && python reproduce.py", "File \"/testbed/reproduce.py\", line 48\n    \"\"\"Test function docstring.\"\"\"\n       ^\nSyntaxError: invalid syntax"), 1, "error SyntaxError"},
		{"python-traceback", oa, bashDoc(t, "cd /testbed && python reproduce.py 2>&1 | tail -3", "  File \"/testbed/reproduce.py\", line 3, in <module>\r\n    run()\r\nAttributeError: 'NoneType' object has no attribute 'x'\r\n"), 1, "error AttributeError"},
		{"python-traceback", oa, bashDoc(t, "python lint.py", "File \"settings.py\", line 12\nstyle: use four spaces\n"), 1, "ok"},
		{"python-traceback", oa, bashDoc(t, "python explain.py", "The report says\nFile \"a.py\", line 3\nValueError: bad input\n"), 1, "ok"},
		{"pytest-collection-error", oa, bashDoc(t, "python -m pytest -q", "tests/test_config.py:4: PytestCollectionWarning: cannot collect test class 'TestConfig' because it has a __init__ constructor\n....\n4 passed, 1 warning in 0.12s"), 1, "ok"},
		{"go-build-error", oa, bashDoc(t, "go vet ./... && go test ./...", "# example.com/app\nok  \texample.com/app\t0.004s"), 1, "ok"},
		{"argparse-usage", oa, bashDoc(t, "python manage.py test --fast", "usage: manage.py test [-h] [--noinput] [--failfast]\n                      [test_label ...]\nmanage.py test: error: unrecognized arguments: --fast\n"), 1, "error USAGE_ERROR"},
		{"argparse-usage", swe, sweDoc(t, "rover_search_code /sphinx-doc__sphinx --verbose", "usage: _rover_search [-h] --project_path PROJECT_PATH\n                     [--class_name CLASS_NAME] [--code CODE]\n_rover_search: error: argument --code: expected one argument\n"), 0, "error USAGE_ERROR"},
		{"argparse-usage", oa, bashDoc(t, "python tool.py -h", "usage: tool.py [-h] [--out OUT] FILE\n\npositional arguments:\n  FILE\n\noptions:\n  -h, --help  show this help message and exit\n"), 1, "ok"},
		{"argparse-usage", oa, bashDoc(t, "python run.py", "usage: run.py [-h] FILE\nlog: error: disk almost full\n"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "git checkout fix-parser", "error: pathspec 'fix-parser' did not match any file(s) known to git"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "cat CHANGELOG.md", "Error: messages now name the file (#41)\n"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "javac --release 7 -d out @sources.txt 2>&1 | head -30", "OpenJDK 64-Bit Server VM warning: Unable to get SVE vector length on this system. Disabling SVE. Specify -XX:UseSVE=0 to shun this warning.\nerror: release version 7 not supported\nUsage: javac <options> <source files>"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "java -cp out Main", "OpenJDK 64-Bit Server VM warning: Unable to get SVE vector length on this system. Disabling SVE. Specify -XX:UseSVE=0 to shun this warning.\nError: Could not find or load main class Main\nCaused by: java.lang.ClassNotFoundException: Main"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "java -cp out Main", "OpenJDK 64-Bit Server VM warning: Unable to get SVE vector length on this system. Disabling SVE. Specify -XX:UseSVE=0 to shun this warning.\nParsed 3 records\nError: none"), 1, "ok"},
		{"error-prefix", oa, bashDoc(t, "r2 -q -c 'afl' /root/app", "WARN: Relocs has not been applied. Please use `-e bin.relocs.apply=true` or `-e bin.cache=true` next time\nERROR: Cannot find function at 0x000012ff"), 1, "error ERROR"},
		{"error-prefix", oa, bashDoc(t, "pip install pycryptodome", "WARNING: Running pip as the 'root' user can result in broken permissions\nSuccessfully installed pycryptodome-3.20.0\nError: none"), 1, "ok"},
		{"error-prefix", oa, chatDoc(t, "lint", map[string]any{}, "Errors: 0, warnings: 2"), 1, "ok"},
		{"no-tests-run", oa, bashDoc(t, "python -m pytest tests/test_a.py -k test_nope", "============================= test session starts ==============================\ncollecting ... collected 0 items\n\n============================ no tests ran in 0.12s ============================="), 1, "ok empty"},
		{"no-tests-run", oa, bashDoc(t, "npm test -- --grep deploy", "> istanbul cover bin/test --grep deploy\n\nWarning: Could not find any test files matching pattern: deploy\nNo test files found\nNo coverage information was collected"), 1, "ok empty"},
		{"no-tests-run", oa, bashDoc(t, "python -m pytest tests/test_a.py", "collecting ... collected 0 items / 1 error\n\n==================================== ERRORS ====================================\nImportError while importing test module\n=== 1 error in 0.20s ==="), 1, "error TESTS_FAILED"},
		{"no-tests-run", oa, bashDoc(t, "python -m pytest --collect-only tests/test_a.py", "collected 3 items\n<Module test_a.py>\n  <Function test_b>\n\n=== no tests ran in 0.01s ==="), 1, "ok"},
		{"empty-phrase", oa, chatDoc(t, "docs_lookup", map[string]any{"q": "retry budget"}, "No results found for 'retry budget'."), 1, "ok empty"},
		{"empty-phrase", swe, sweDoc(t, "search_file \"def foo\" src/a.py", "No matches found for \"def foo\" in /repo/src/a.py"), 0, "ok empty"},
		{"empty-phrase", oa, bashDoc(t, "grep -rn \"No results found\" src/", "src/ui/empty.tsx:4:  return <p>No results found</p>;"), 1, "ok"},
		{"empty-json-search", oa, chatDoc(t, "find-nodes", map[string]any{"q": "handleKeyDown"}, `{"success": true, "data": {"elapsedMs": 40, "results": [], "page": {"limit": 10, "hasMore": false, "totalCount": 0}}}`), 1, "ok empty"},
		{"empty-json-search", oa, chatDoc(t, "query_db", map[string]any{"sql": "SELECT path FROM files"}, `{"rows": [], "rowCount": 0}`), 1, "ok empty"},
		{"empty-json-search", oa, chatDoc(t, "find-nodes", map[string]any{"q": "Tabs"}, `{"success": true, "data": {"results": [{"name": "Tabs", "path": "src/Tabs.js"}], "page": {"totalCount": 1}}}`), 1, "ok"},
		{"empty-json-search", oa, chatDoc(t, "search_index", map[string]any{"q": "x"}, `{"status": "ready", "errors": []}`), 1, "ok"},
		{"empty-json-search", oa, chatDoc(t, "get_config", map[string]any{}, `{"results": []}`), 1, "ok"},
		{"empty-search", oa, bashDoc(t, "grep -rn resolveAlias src/", ""), 1, "ok empty"},
		{"empty-search", oa, chatDoc(t, "search_products", map[string]any{"q": "lamp"}, "[]"), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, "rm -f build/tmp.o", ""), 1, "ok"},
		{"empty-search", oa, bashDoc(t, "grep -rn resolveAlias src/", "src/alias.py:3:def resolveAlias(name):"), 1, "ok"},
		// A file shown through grep that printed nothing does not hold
		// what grep looked for; a file shown whole that is blank is an answer.
		{"empty-search", oa, bashDoc(t, `cat package.json | grep -A5 '"engines"'`, ""), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, `nl -ba django/db/models/base.py | grep -n "def __setattr__"`, ""), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, `cat .env`, ""), 1, "ok"},
		{"empty-search", oa, bashDoc(t, `cat package.json | grep -A5 '"engines"'`, "  \"engines\": {\n    \"node\": \">=14\"\n  },"), 1, "ok"},
		{"empty-search", oa, bashDoc(t, `find /workspace -name "*.pyc" -delete`, ""), 1, "ok"},
		{"empty-search", oa, bashDoc(t, `find /workspace -name "*.pyc"`, ""), 1, "ok empty"},
		// The mini-swe-agent research fork labels every output; a grep it
		// handed to exec_bash_cmd that matched nothing prints the label alone.
		{"empty-search", oa, bashDoc(t, "@bug_localization\ndef grep_add_lines():\n    return exec_bash_cmd('grep -RIn --include=\"*.py\" \"def add_lines\" .')", "bash execution output:\n \n"), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, "@bug_localization\ndef grep_add_lines():\n    cmd = 'grep -RIn \"add_lines\" . || true'\n    return exec_bash_cmd(cmd)", "bash execution output:\n \n"), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, "@bug_localization\ndef grep_add_lines():\n    return exec_bash_cmd('grep -RIn \"add_lines\" .')", "bash execution output:\n ./plot.py:12:def add_lines(self):\n"), 1, "ok"},
		{"empty-search", oa, bashDoc(t, "@bug_reproduction\ndef find_composed_index():\n    exec_bash_cmd(\"grep -nR \\\"def _delete_composed_index\\\" testbed || true\")\n    return exec_bash_cmd(\"grep -nR \\\"_delete_composed_index\\\" testbed || true\")", "bash execution output:\n \n\nbash execution output:\n \n"), 1, "ok empty"},
		{"empty-search", oa, bashDoc(t, "@patch_generation\ndef fix():\n    return exec_bash_cmd(\"sed -i 's/a/b/' x.py\")", "bash execution output:\n \n"), 1, "ok"},

		// openai-messages' rule.
		{"autogen-exitcode", oa, chatDoc(t, "run_code", map[string]any{"code": "print(total(rows))"}, "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"\", line 1, in <module>\nNameError: name 'rows' is not defined"), 1, "error EXIT_CODE"},
		{"autogen-exitcode", oa, chatDoc(t, "run_code", map[string]any{"code": "print(2 + 2)"}, "exitcode: 0 (execution succeeded)\nCode output: 4"), 1, "ok"},

		{"autogen-script-exit", oa, chatDoc(t, "run_code", map[string]any{"code": "import pandas"}, "The script ran, then exited with Unix exit code: 1\nIts output was:\nModuleNotFoundError: No module named 'pandas'"), 1, "error EXIT_CODE"},
		{"autogen-script-exit", oa, chatDoc(t, "run_code", map[string]any{"code": "print(4)"}, "The script ran, then exited with Unix exit code: 0\nIts output was:\n4"), 1, "ok"},
		{"agents-sdk-tool-error", oa, chatDoc(t, "refund_charge", map[string]any{"charge_id": "ch_2"}, "An error occurred while running the tool. Please try again. Error: payments API returned 503"), 1, "error ERROR"},
		{"agents-sdk-tool-error", oa, chatDoc(t, "refund_charge", map[string]any{"charge_id": "ch_2"}, "Refund re_77 succeeded. An error occurred while running the tool. Please try again. Error: none"), 1, "ok"},
		{"tool-call-timed-out", oa, chatDoc(t, "execute-tool", map[string]any{"server_name": "fetch", "tool_name": "fetch", "params": map[string]any{"url": "https://example.com"}}, "Tool call timed out."), 1, "error TIMEOUT"},
		{"tool-call-timed-out", oa, chatDoc(t, "read_file", map[string]any{"path": "NOTES.md"}, "Known issues:\nTool call timed out. is what the copilot says after 60 s\nSee the FAQ."), 1, "ok"},
		{"openhands-error-mark", oa, chatDoc(t, "str_replace_editor", map[string]any{"command": "view", "path": "/workspace/app"}, "Invalid `path` parameter: app. The path should be an absolute path.\n[Error occurred in processing last action]"), 1, "error ERROR"},
		{"openhands-error-mark", oa, chatDoc(t, "execute_bash", map[string]any{"command": "cat NOTES.md"}, "When it fails OpenHands adds [Error occurred in processing last action] to the message.\n[Command finished with exit code 0]"), 1, "ok"},
		{"openhands-command-stopped", oa, chatDoc(t, "execute_bash", map[string]any{"command": "python serve.py"}, "Serving on :8000\n[The command timed out after 120.0 seconds. You may wait longer to see additional output by sending empty command '', send other commands to interact with the current process, or send keys to interrupt/kill the command.]"), 1, "error TIMEOUT"},
		{"openhands-command-stopped", oa, chatDoc(t, "execute_bash", map[string]any{"command": "grep -n timed README.md"}, "12: [The command finished after 3 seconds.]\n[Command finished with exit code 0]"), 1, "ok"},

		// autogen's rules: an executor agent's answer to the code sent.
		{"autogen-script-exit", ag, agTeamDoc(t, "```python\nimport pandas\n```", "The script ran, then exited with an error (POSIX exit code: 1)\nIts output was:\nModuleNotFoundError: No module named 'pandas'"), 1, "error EXIT_CODE"},
		{"autogen-script-exit", ag, agTeamDoc(t, "```python\nopen('out.txt', 'w')\n```", "The script ran but produced no output to console. The POSIX exit code was: 2. If you were expecting output, consider revising the script to ensure content is printed to stdout."), 1, "error EXIT_CODE"},
		{"autogen-script-exit", ag, agTeamDoc(t, "```python\nopen('out.txt', 'w')\n```", "The script ran but produced no output to console. The POSIX exit code was: 0. If you were expecting output, consider revising the script to ensure content is printed to stdout."), 1, "ok"},
		{"autogen-script-exit", ag, agTeamDoc(t, "Did it work?", "The script ran, then exited with an error last time; this time it printed 4."), 1, "ok"},
		{"autogen-exitcode", ag, agTeamDoc(t, "```python\nprint(total(rows))\n```", "exitcode: 1 (execution failed)\nCode output: NameError: name 'rows' is not defined"), 1, "error EXIT_CODE"},
		{"autogen-exitcode", ag, agTeamDoc(t, "```python\nprint(2 + 2)\n```", "exitcode: 0 (execution succeeded)\nCode output: 4"), 1, "ok"},

		// Trae Agent's rule: its edit tool refusing the edit.
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "replace", map[string]any{"file_path": "/app/a.ts", "old_string": "x = 1", "new_string": "x = 2"}, "Failed to edit, 0 occurrences found for old_string in /app/a.ts. No edits made. The exact text in old_string was not found.", "error"), 1, "error EDIT_REJECTED"},
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "replace", map[string]any{"file_path": "/app/a.ts", "old_string": "x", "new_string": "y"}, "Error: Failed to edit, expected 1 occurrence but found 3.", "error"), 1, "error EDIT_REJECTED"},
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "replace", map[string]any{"file_path": "/app/a.ts", "old_string": "x = 1", "new_string": "x = 2"}, "Could not find an exact match for 'old_string' in '/app/a.ts'. If previous edits modified the file, read it again.", "error"), 1, "error EDIT_REJECTED"},
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "run_shell_command", map[string]any{"command": "grep -rn 'exact match' docs"}, "Output: docs/edit.md:3:Could not find an exact match for 'old_string' is the 0.61 wording\nProcess Group PGID: 12", "success"), 1, "ok"},
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "replace", map[string]any{"file_path": "/app/a.ts", "old_string": "x", "new_string": "x"}, "No changes to apply. The old_string and new_string are identical in file: /app/a.ts", "success"), 1, "error EDIT_REJECTED"},
		{"gemini-edit-rejected", GeminiCLI, gcliDoc(t, "run_shell_command", map[string]any{"command": "grep -rn 'occurrences found' src/tools"}, "Output: src/tools/edit.ts:212:      raw: `Failed to edit, 0 occurrences found for old_string in ${path}.`\nProcess Group PGID: 12", "success"), 1, "ok"},
		{"gemini-edit-rejected", QwenCode, qwenDoc(t, "edit", map[string]any{"file_path": "/srv/a.py", "old_string": "x = 1", "new_string": "x = 2"}, "Failed to edit, 0 occurrences found for old_string in /srv/a.py. No edits made.", true), 1, "error EDIT_REJECTED"},
		{"gemini-edit-rejected", QwenCode, qwenDoc(t, "read_file", map[string]any{"absolute_path": "/srv/notes.md"}, "Known messages:\nFailed to edit, 0 occurrences found for old_string means the text moved.", false), 1, "ok"},
		{"continue-edit-rejected", Continue, contDoc(t, "single_find_and_replace", map[string]any{"filepath": "a.ts", "old_string": "x", "new_string": "y"}, "single_find_and_replace failed with the message: Edit at index 0: string not found in file: \"x\"\n\nPlease try something else or request further instructions.", "errored"), 1, "error EDIT_REJECTED"},
		{"continue-edit-rejected", Continue, contDoc(t, "single_find_and_replace", map[string]any{"filepath": "a.ts", "old_string": "x", "new_string": "y"}, "single_find_and_replace failed with the message: Edit at index 0: String \"x\" appears 3 times in the file. Either provide a more specific string.", "errored"), 1, "error EDIT_REJECTED"},
		{"continue-edit-rejected", Continue, contDoc(t, "MultiEdit", map[string]any{"file_path": "a.py", "edits": []any{map[string]any{"old_string": "x", "new_string": "y"}}}, "Edit at index 0: string not found in file: \"x\"", "errored"), 1, "error EDIT_REJECTED"},
		{"continue-edit-rejected", Continue, contDoc(t, "Bash", map[string]any{"command": "cat notes.txt"}, "Edit at index 0: was the first step of the plan", "done"), 1, "ok"},
		{"continue-edit-rejected", Continue, contDoc(t, "run_terminal_command", map[string]any{"command": "grep -rn 'failed with the message' gui/"}, "gui/callToolById.ts:105: content: `${name} failed with the message: string not found in file`", "done"), 1, "ok"},
		{"trae-edit-rejected", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "x = 2"}, "No replacement was performed, old_str `x = 1` did not appear verbatim in /repo/a.py.", false), 0, "error EDIT_REJECTED"},
		{"trae-edit-rejected", TraeAgent, traeDoc(t, "bash", map[string]any{"command": "grep -n 'No replacement' tools/edit_tool.py"}, "88:            raise ToolError(\"No replacement was performed\")", true), 0, "ok"},
		{"editor-no-such-path", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/nope.py"}, "The path /repo/nope.py does not exist. Please provide a valid path.", false), 0, "error NO_SUCH_FILE"},
		{"editor-no-such-path", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "/repo/new/a.py", "file_text": "x"}, "The parent directory /repo/new does not exist. Please create it first.", false), 0, "error NO_SUCH_FILE"},
		{"editor-no-such-path", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/tools/edit_tool.py"}, "Here's the result of running `cat -n` on /repo/tools/edit_tool.py:\n    60\t            raise ToolError(f\"The path {path} does not exist. Please provide a valid path.\")", true), 0, "ok"},
		{"create-exists", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "/repo/t.py", "file_text": "x = 1\n"}, "File already exists at: /repo/t.py. Cannot overwrite files using command `create`.", false), 0, "error EDIT_REJECTED"},
		{"create-exists", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/tools/edit_tool.py"}, "Here's the result of running `cat -n` on /repo/tools/edit_tool.py:\n    41\t            raise ToolError(\"File already exists at: {path}. Cannot overwrite files using command `create`.\")", true), 0, "ok"},
		{"trae-usage-error", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/t.py", "view_range": []int{1, 10}}, "Invalid `view_range`: [1, 10]. Its second element `10` should be smaller than the number of lines in the file: `1`", false), 0, "error USAGE_ERROR"},
		{"trae-usage-error", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/repo/t.py", "old_str": "", "new_str": "x"}, "Error executing tool 'str_replace_based_edit_tool': empty separator", false), 0, "error USAGE_ERROR"},
		{"trae-usage-error", TraeAgent, traeDoc(t, "bash", map[string]any{"command": "python bench.py --mode fast"}, "Invalid `--mode` value: fast", false), 0, "error ERROR"},
		{"trae-usage-error", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/errors.txt"}, "Here's the result of running `cat -n` on /repo/errors.txt:\n     1\tInvalid `view_range` is raised when the range is past the end\n", true), 0, "ok"},

		// browser-use's rules.
		{"browser-use-no-element", BrowserUse, buDoc(t, "click_element", map[string]any{"index": 44}, map[string]any{"error": "Error executing action click_element: Element with index 44 does not exist - retry or use alternative actions"}), 0, "error NO_SUCH_ELEMENT"},
		{"browser-use-no-element", BrowserUse, buDoc(t, "click", map[string]any{"index": 12}, map[string]any{"extracted_content": "Element index 12 not available - page may have changed. Try refreshing browser state."}), 0, "error NO_SUCH_ELEMENT"},
		{"browser-use-no-element", BrowserUse, buDoc(t, "scroll", map[string]any{"down": true, "index": 9}, map[string]any{"error": "RuntimeError: Error executing action scroll: Element index 9 not found in browser state"}), 0, "error NO_SUCH_ELEMENT"},
		{"browser-use-no-element", BrowserUse, buDoc(t, "click_element_by_index", map[string]any{"index": 7}, map[string]any{"extracted_content": "🖱️  Clicked button with index 7: Report: element index 7 not found? Contact support"}), 0, "ok"},
		{"browser-use-no-element", BrowserUse, buDoc(t, "extract_content", map[string]any{"goal": "the error shown"}, map[string]any{"extracted_content": "📄  Extracted from page\n: Element with index 3 does not exist is the message the widget shows"}), 0, "ok"},
		{"browser-use-timeout", BrowserUse, buDoc(t, "go_to_url", map[string]any{"url": "https://slow.example.com"}, map[string]any{"error": "Error executing action go_to_url: Page.goto: Timeout 30000ms exceeded.\n=========================== logs ===========================\nnavigating to \"https://slow.example.com/\", waiting until \"load\""}), 0, "error TIMEOUT"},
		{"browser-use-timeout", BrowserUse, buDoc(t, "go_to_url", map[string]any{"url": "https://slow.example.com"}, map[string]any{"error": "Site unavailable: https://slow.example.com - net::ERR_CONNECTION_TIMED_OUT at https://slow.example.com/", "success": false}), 0, "error TIMEOUT"},
		{"browser-use-timeout", BrowserUse, buDoc(t, "search_google", map[string]any{"query": "Timeout 30000ms exceeded"}, map[string]any{"extracted_content": "🔍  Searched for \"Timeout 30000ms exceeded\" in Google"}), 0, "ok"},

		// SWE-agent's rules.
		{"edit-rejected", swe, sweDoc(t, "edit 4:4\n    return x[1:\nend_of_edit", "Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.\n\nERRORS:\n- E999 SyntaxError: '[' was never closed"), 0, "error EDIT_REJECTED"},
		{"edit-rejected", swe, sweDoc(t, "str_replace_editor str_replace /testbed/a.py   --old_str 'x = 1' --new_str 'x = 2'", "No replacement was performed, old_str `x = 1` did not appear verbatim in /testbed/a.py."), 0, "error EDIT_REJECTED"},
		{"create-exists", swe, sweDoc(t, "str_replace_editor create /testbed/reproduce_issue.py --file_text 'import os'", "File already exists at: /testbed/reproduce_issue.py. Cannot overwrite files using command `create`."), 0, "error EDIT_REJECTED"},
		{"create-exists", swe, sweDoc(t, "str_replace_editor view /testbed/tools/edit.py", "Here's the result of running `cat -n` on /testbed/tools/edit.py:\n    12\tMSG = \"Cannot overwrite files using command `create`\""), 0, "ok"},
		{"edit-rejected", swe, sweDoc(t, "open tools/windowed/bin/edit", "[File: /repo/tools/windowed/bin/edit (60 lines total)]\n41:    print(\"Your proposed edit has introduced new syntax error(s).\")\n42:    print(\"No replacement was performed\")"), 0, "ok"},
		{"edit-rejected", swe, sweDoc(t, "str_replace_editor view /testbed/tools/edit.py", "Here's the result of running `cat -n` on /testbed/tools/edit.py:\n     9\tMSG = \"old_str did not appear verbatim\""), 0, "ok"},
		{"rover-search-empty", swe, sweDoc(t, "rover_search_method /django__django get_cache_key", "Found 0 methods with name get_cache_key in the codebase.\n\n========= start =================\nFound 0 methods with name get_cache_key in the codebase.\n\n========= end  ==================\n"), 0, "ok empty"},
		{"rover-search-empty", swe, sweDoc(t, "rover_search_code /sympy__sympy \"BlockDiagMatrix\"", "<unknown>:23: SyntaxWarning: invalid escape sequence '\\S'\nCould not find code BlockDiagMatrix in the codebase.\n"), 0, "ok empty"},
		{"rover-search-empty", swe, sweDoc(t, "rover_search_class /django__django Settings", "Class Settings did not appear in the codebase.\n"), 0, "ok empty"},
		{"rover-search-empty", swe, sweDoc(t, "rover_search_class /django__django RedirectView", "The tool returned information about class `RedirectView`.\n========= start =================\nFound 1 classes with name RedirectView in the codebase.\n"), 0, "ok"},
		{"rover-search-empty", swe, sweDoc(t, "python check.py", "Could not find code in the codebase.\n"), 0, "ok"},
		{"usage-error", swe, sweDoc(t, "goto", "Usage: goto <line_number>"), 0, "error USAGE_ERROR"},
		{"usage-error", swe, sweDoc(t, "scroll_down", "No file open. Use the `open` command first."), 0, "error USAGE_ERROR"},
		{"usage-error", swe, sweDoc(t, "open README.md", "[File: /repo/README.md (12 lines total)]\n1:# confparse\n2:Usage: confparse FILE"), 0, "ok"},
		{"usage-error", swe, sweDoc(t, "python reproduce.py", "Error: OperationalError: no such table: core_book\nTraceback (most recent call last):\n  File \"/testbed/reproduce.py\", line 9, in <module>\n    Book.objects.aggregate(n=Count('id'))\ndjango.db.utils.OperationalError: no such table: core_book"), 0, "error django.db.utils.OperationalError"},
		{"not-found", swe, sweDoc(t, "python check.py", "File settings.py not found"), 0, "ok"},
		{"cancelled-timeout", swe, sweDoc(t, "cd /testbed && python reproduce.py", "The command 'cd /testbed && python reproduce.py' was cancelled because it took more than 300 seconds. Please try a different command that completes more quickly."), 0, "error TIMEOUT"},
		{"cancelled-timeout", swe, sweDoc(t, "python check.py", "checking\nThe command 'sleep 5' was cancelled because it took more than 300 seconds."), 0, "ok"},
		{"not-found", swe, sweDoc(t, "open src/nope.py", "File src/nope.py not found"), 0, "error NO_SUCH_FILE"},
		{"not-found", swe, sweDoc(t, "str_replace_editor view /testbed/x.py", "The path /testbed/x.py does not exist. Please provide a valid path."), 0, "error NO_SUCH_FILE"},
		{"not-found", swe, sweDoc(t, "str_replace_editor create /testbed/test_app/models.py --file_text 'x = 1'", "The parent directory /testbed/test_app does not exist. Please create it first."), 0, "error NO_SUCH_FILE"},
		{"not-found", swe, sweDoc(t, "search_dir \"not found\" src", "Found 2 matches for \"not found\" in /repo/src:\n/repo/src/io.py (2 matches)\nEnd of matches for \"not found\" in /repo/src"), 0, "ok"},

		// Rovo Dev's rules.
		{"rovo-timeout", RovoDev, rovoDoc("bash", "command: cd /workspace && npm install\ntimeout: 300", "```\n\n Timeout...\n```"), 2, "error TIMEOUT"},
		{"rovo-timeout", RovoDev, rovoDoc("bash", "command: grep -n Timeout src/net.ts", "```\nsrc/net.ts:40:  // Timeout... then retry\n```"), 2, "ok"},
		{"rovo-timeout", RovoDev, rovoDoc("bash", "command: mvn test", "```\nTimed out while waiting for response to ClientRequest. Waited 300.0 seconds....\n```"), 2, "error TIMEOUT"},
		{"rovo-background-refused", RovoDev, rovoDoc("bash", "command: npm start &", "```\nError: background execution not supported in this environment...\n```"), 2, "error ERROR"},
		{"rovo-background-refused", RovoDev, rovoDoc("bash", "command: grep -rn 'background execution' docs", "```\ndocs/faq.md:3:Error: background execution not supported in this environment\n```"), 2, "ok"},
		{"rovo-tool-error", RovoDev, rovoDoc("find_and_replace_code", "file_path: src/a.ts\nfind: x\nreplace: y", "```\nError executing tool find_and_replace_code: Multiple matches found for the find string\n```"), 2, "error TOOL_ERROR"},
		{"rovo-tool-error", RovoDev, rovoDoc("open_files", "file_paths:\n- src/r3_factory.ts", "```\nError executing tool open_files: Error opening src/r3_factory.ts: File src/r3_factory.ts not found in workspace....\n```"), 2, "error TOOL_ERROR"},
		{"rovo-tool-error", RovoDev, rovoDoc("expand_folder", "folder_path: src/planner/assertions", "```\nError executing tool expand_folder: Directory not found: /tmp/x/src/planner/assertions...\n```"), 2, "error TOOL_ERROR"},
		{"rovo-tool-error", RovoDev, rovoDoc("bash", "command: cat docs/tools.md", "```\nWhen a tool fails, the agent sees: Error executing tool NAME: reason\n```"), 2, "ok"},

		// mini-swe-agent's rules.
		{"format-error", mini, miniV1(t, "THOUGHT: two\n\n```bash\nls\n```\n\n```bash\npwd\n```", "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."), 2, "error FORMAT_ERROR"},
		{"format-error", mini, miniV1(t, "THOUGHT: read the config\n\n```bash\ncat src/minisweagent/config/default.yaml\n```",
			"<returncode>0</returncode>\n<output>\nagent:\n  format_error_template: |\n    Please always provide EXACTLY ONE action in triple backticks, found {{actions|length}} actions.\n</output>"), 2, "ok"},
		{"mini-killed", mini, miniV1(t, "THOUGHT: run the tests\n\n```bash\npytest -q\n```", "The last command <command>pytest -q</command> timed out and has been killed.\nThe output of the command was:\n<output>\n..F.\n</output>\nPlease try another command."), 2, "error TIMEOUT"},
		{"mini-killed", mini, miniV1(t, "THOUGHT: read the config\n\n```bash\ncat src/minisweagent/config/default.yaml\n```",
			"<returncode>0</returncode>\n<output>\nagent:\n  timeout_template: |\n    The last command <command>{{action['action']}}</command> timed out and has been killed.\n</output>"), 2, "ok"},

		// anthropic-messages' rules.
		{"tool-use-edit-rejected", an, antDoc(t, "Edit", map[string]any{"file_path": "/app/settings.py", "old_string": "timeout = 3", "new_string": "timeout = 5"},
			"<tool_use_error>String to replace not found in file.\nString: timeout = 3</tool_use_error>", true), 1, "error EDIT_REJECTED"},
		{"tool-use-edit-rejected", an, antDoc(t, "Read", map[string]any{"file_path": "/app/docs/errors.md"},
			"     1→<tool_use_error>String to replace not found in file.</tool_use_error>", false), 1, "ok"},
		{"edit-rejected", an, antDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/app/settings.py", "old_str": "timeout = 3", "new_str": "timeout = 5"},
			"String to replace not found in file.", true), 1, "error EDIT_REJECTED"},
		{"edit-rejected", an, antDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/app/a.py", "old_str": "x", "new_str": "y"},
			"Error: No match found for replacement. Please check your text and try again.", true), 1, "error EDIT_REJECTED"},
		{"edit-rejected", an, antDoc(t, "Read", map[string]any{"file_path": "/app/docs/editing.md"},
			"     1→If the old text is wrong, Claude Code answers\n     2→String to replace not found in file.", false), 1, "ok"},
		{"cline-no-tool", an, antDoc(t, "execute_command", map[string]any{"command": "npm test"}, "[ERROR] You did not use a tool in your previous response! Please retry with a tool use.", false), 1, "error FORMAT_ERROR"},
		{"cline-no-tool", an, antDoc(t, "read_file", map[string]any{"path": "NOTES.md"}, "Known issue: [ERROR] You did not use a tool in your previous response! appears when the model answers in prose.", false), 1, "ok"},
		{"tool-use-no-such-file", an, antDoc(t, "Read", map[string]any{"file_path": "/app/nope.py"}, "<tool_use_error>File does not exist.</tool_use_error>", true), 1, "error NO_SUCH_FILE"},
		{"tool-use-no-such-file", an, antDoc(t, "Edit", map[string]any{"file_path": "/app/nope.py", "old_string": "a", "new_string": "b"}, "<tool_use_error>File does not exist. Current working directory: /app</tool_use_error>", true), 1, "error NO_SUCH_FILE"},
		{"tool-use-no-such-file", an, antDoc(t, "Read", map[string]any{"file_path": "/app/docs/errors.md"}, "     1→Claude Code answers <tool_use_error>File does not exist.</tool_use_error> for a missing file", false), 1, "ok"},
		{"tool-use-error", an, antDoc(t, "Write", map[string]any{"file_path": "/app/a.py", "content": "x"}, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true), 1, "error USAGE_ERROR"},
		{"editor-no-such-path", an, antDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/nope.py"}, "The path /repo/nope.py does not exist. Please provide a valid path.", true), 1, "error NO_SUCH_FILE"},
		{"editor-no-such-path", an, antDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/tools/edit.py"}, "Here's the result of running `cat -n` on /repo/tools/edit.py:\n    60\t            raise ToolError(f\"The path {path} does not exist. Please provide a valid path.\")", false), 1, "ok"},
		{"tool-use-error", an, antDoc(t, "Grep", map[string]any{"pattern": "tool_use_error"}, "src/render.ts:12:  const tag = '<tool_use_error>';", false), 1, "ok"},
		{"user-rejected", an, antDoc(t, "Bash", map[string]any{"command": "rm -rf build"},
			"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", true), 1, "error REJECTED"},
		{"user-rejected", an, antDoc(t, "Read", map[string]any{"file_path": "/app/NOTES.md"},
			"     1→# Permissions\n     2→The user doesn't want to proceed with this tool use: Claude Code says so when a call is refused.", false), 1, "ok"},
		{"user-rejected", an, antDoc(t, "Read", map[string]any{"file_path": "/app/big.log"}, "Interrupted by user", true), 1, "error REJECTED"},
		{"user-rejected", an, antDoc(t, "Bash", map[string]any{"command": "tail -2 run.log"}, "step 3 done\nInterrupted by user", false), 1, "ok"},
		{"command-timed-out", an, antDoc(t, "Bash", map[string]any{"command": "npm test"}, "Command timed out after 2m 0.0s\n> app@1.0.0 test\n> jest --watch", true), 1, "error TIMEOUT"},
		{"command-timed-out", an, antDoc(t, "Read", map[string]any{"file_path": "/app/docs/limits.md"},
			"     1→Claude Code stops a command at two minutes:\n     2→Command timed out after 2m 0.0s", false), 1, "ok"},

		// ATIF: Claude Code's rules when the trajectory is Claude Code's,
		// and the harness's answer to a response it could not parse.
		{"tool-use-edit-rejected", ATIF, atifDoc(t, "claude-code", "Edit", map[string]any{"file_path": "/app/settings.py", "old_string": "timeout = 3", "new_string": "timeout = 5"},
			"<tool_use_error>String to replace not found in file.\nString: timeout = 3</tool_use_error>"), 1, "error EDIT_REJECTED"},
		{"tool-use-edit-rejected", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/docs/errors.md"},
			"     1→<tool_use_error>String to replace not found in file.</tool_use_error>"), 1, "ok"},
		{"edit-rejected", ATIF, atifDoc(t, "claude-code", "Edit", map[string]any{"file_path": "/app/settings.py", "old_string": "timeout = 3", "new_string": "timeout = 5"},
			"String to replace not found in file."), 1, "error EDIT_REJECTED"},
		{"edit-rejected", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/docs/editing.md"},
			"     1→If the old text is wrong, Claude Code answers\n     2→String to replace not found in file."), 1, "ok"},
		{"cline-no-tool", ATIF, atifDoc(t, "claude-code", "Bash", map[string]any{"command": "npm test"}, "[ERROR] You did not use a tool in your previous response! Please retry with a tool use."), 1, "error FORMAT_ERROR"},
		{"cline-no-tool", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "NOTES.md"}, "Known issue: [ERROR] You did not use a tool in your previous response! appears when the model answers in prose."), 1, "ok"},
		{"tool-use-no-such-file", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/nope.py"}, "<tool_use_error>File does not exist.</tool_use_error>"), 1, "error NO_SUCH_FILE"},
		{"tool-use-no-such-file", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/docs/errors.md"}, "     1→Claude Code answers <tool_use_error>File does not exist.</tool_use_error> for a missing file"), 1, "ok"},
		{"tool-use-error", ATIF, atifDoc(t, "claude-code", "Write", map[string]any{"file_path": "/app/a.py", "content": "x"}, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"), 1, "error USAGE_ERROR"},
		{"editor-no-such-path", ATIF, atifDoc(t, "claude-code", "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "/repo/nope.py"}, "The path /repo/nope.py does not exist. Please provide a valid path."), 1, "error NO_SUCH_FILE"},
		{"editor-no-such-path", ATIF, atifDoc(t, "claude-code", "Bash", map[string]any{"command": "grep -rn 'does not exist' tools/"}, "tools/edit.py:60: The path {path} does not exist. Please provide a valid path."), 1, "ok"},
		{"tool-use-error", ATIF, atifDoc(t, "claude-code", "Grep", map[string]any{"pattern": "tool_use_error"}, "src/render.ts:12:  const tag = '<tool_use_error>';"), 1, "ok"},
		{"user-rejected", ATIF, atifDoc(t, "claude-code", "Bash", map[string]any{"command": "rm -rf build"},
			"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."), 1, "error REJECTED"},
		{"user-rejected", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/NOTES.md"},
			"     1→# Permissions\n     2→The user doesn't want to proceed with this tool use: Claude Code says so when a call is refused."), 1, "ok"},
		{"command-timed-out", ATIF, atifDoc(t, "claude-code", "Bash", map[string]any{"command": "npm test"}, "Command timed out after 15s"), 1, "error TIMEOUT"},
		{"command-timed-out", ATIF, atifDoc(t, "claude-code", "Read", map[string]any{"file_path": "/app/docs/limits.md"},
			"     1→Command timed out after 2m 0.0s is what Claude Code says."), 1, "ok"},
		{"format-error", ATIF, atifDoc(t, "mini-swe-agent", "", nil, "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."), 1, "error FORMAT_ERROR"},
		{"format-error", ATIF, atifDoc(t, "mini-swe-agent", "bash_command", map[string]any{"command": "cat config/default.yaml"},
			"<returncode>0</returncode>\n<output>\nagent:\n  format_error_template: |\n    Please always provide EXACTLY ONE action in triple backticks.\n</output>"), 1, "ok"},
		{"mini-killed", ATIF, atifDoc(t, "mini-swe-agent", "bash_command", map[string]any{"command": "sleep 99"},
			"<exception>An error occurred while executing the command: Command 'sleep 99' timed out after 60 seconds</exception>\n<returncode>-1</returncode>\n<output>\n</output>"), 1, "error TIMEOUT"},
		{"mini-killed", ATIF, atifDoc(t, "mini-swe-agent", "bash_command", map[string]any{"command": "cat notes.txt"},
			"<returncode>0</returncode>\n<output>\nAn error occurred while executing the command: see <exception> in the log.\n</output>"), 1, "ok"},
		{"harness-parse-error", ATIF, atifDoc(t, "terminus-2", "", nil, "Previous response had parsing errors:\nERROR: No valid JSON found in response\n\nPlease fix these issues and provide a proper JSON response."), 1, "error FORMAT_ERROR"},
		{"harness-parse-error", ATIF, atifDoc(t, "terminus-2", "bash_command", map[string]any{"keystrokes": "grep -rn 'parsing errors' logs/\n", "duration": 0.5},
			"root@host:/app# grep -rn 'parsing errors' logs/\nlogs/run.txt:3:Previous response had parsing errors:\nroot@host:/app# "), 1, "ok"},

		// Aider's rules: the reply is step 1 (the user's input is entry 0),
		// Aider's messages after it are its answer.
		{"aider-edit-no-match", Aider, aiderDoc(aiderBlock, "The LLM did not conform to the edit format.", "https://aider.chat/docs/troubleshooting/edit-errors.html", "# 1 SEARCH/REPLACE block failed to match!"), 1, "error EDIT_REJECTED"},
		{"aider-edit-no-match", Aider, aiderDoc("Edits that failed to match are sent back.\n\n"+aiderBlock, "Applied edit to app.py"), 1, "ok"},
		{"aider-edit-format", Aider, aiderDoc("app.py\n```python\n<<<<<<< SEARCH\nx = 1\n```", "The LLM did not conform to the edit format.", "https://aider.chat/docs/troubleshooting/edit-errors.html"), 1, "error FORMAT_ERROR"},
		{"aider-edit-format", Aider, aiderDoc("When a reply does not conform to the edit format, Aider says so.\n\n"+aiderBlock, "Applied edit to app.py"), 1, "ok"},
		{"aider-lint-or-test", Aider, aiderDoc(aiderBlock, "Applied edit to app.py", "FAILED tests/test_app.py::test_main - assert 1 == 2", "Attempt to fix test errors? (Y)es/(N)o [Yes]: y"), 1, "error EXIT_CODE"},
		{"aider-lint-or-test", Aider, aiderDoc("I'll skip the question \"Attempt to fix lint errors?\" here.\n\n"+aiderBlock, "Applied edit to app.py", "Commit 1a2b3c4 fix: lint"), 1, "ok"},
		{"react-invalid-tool", ReactLog, reactDoc("Search the web is not a valid tool, try one of [Search, Calculator]."), 0, "error INVALID_CALL"},
		{"react-invalid-tool", ReactLog, reactDoc("The FAQ says: 'Search the web is not a valid tool', see the list."), 0, "ok"},
		{"crewai-tool-error", ReactLog, reactDoc("/usr/lib/python3.10/site-packages/pydantic/main.py:214: UserWarning: deprecated\n  warnings.warn(\nI encountered an error while trying to use the tool. This was the error: [Errno 2] No such file or directory: 'credentials.json'."), 0, "error ERROR"},
		{"crewai-tool-error", ReactLog, reactDoc("Our FAQ answers 'I encountered an error while trying to use the tool' with a link to the docs."), 0, "ok"},
		{"crewai-reused-input", ReactLog, reactDoc("  warnings.warn(\n\nI tried reusing the same input, I must stop using this action input. I'll try something else instead."), 0, "error REJECTED"},
		{"crewai-invalid-call", ReactLog, reactDoc("You tried to use the tool Search the web, but it doesn't exist. You must use one of the following tools, use one at time: Search the internet with Serper."), 0, "error INVALID_CALL"},
		{"crewai-invalid-call", ReactLog, reactDoc("\nError executing tool. coworker mentioned not found, it must be one of the following options:\n- writer\n"), 0, "error INVALID_CALL"},
		{"crewai-invalid-call", ReactLog, reactDoc("The FAQ: when you see 'Error: the Action Input is not a valid key, value dictionary.' check the quotes."), 0, "ok"},
		{"crewai-reused-input", ReactLog, reactDoc("The log says I tried reusing the same input, I must stop using this action input; quoted from CrewAI."), 0, "ok"},
		{"react-parse-error", ReactLog, reactDoc("Invalid Format: Missing 'Action Input:' after 'Action:'"), 0, "error FORMAT_ERROR"},
		{"react-parse-error", ReactLog, reactDoc("The CSV has an invalid format in row 3; the others parse."), 0, "ok"},
		{"chatdev-run-error", ChatDev, chatdevDoc("An error occurred: module 'os' has no attribute 'setsid'"), 2, "error ERROR"},
		{"chatdev-run-error", ChatDev, chatdevDoc("The software run successfully without errors."), 2, "ok"},
		{"chatdev-run-error", ChatDev, chatdevDoc("The software run successfully without errors.\nPrinted: An error occurred: none"), 2, "ok"},
		{"aider-api-error", Aider, []byte("# aider chat started at 2025-03-01 09:00:00\n\n#### Fix it  \n> litellm.RateLimitError: OpenAIException - Rate limit reached for gpt-4o  \n> Retrying in 0.5 seconds...  \n"), 1, "error RATE_LIMIT"},
		{"aider-api-error", Aider, []byte("# aider chat started at 2025-03-01 09:00:00\n\n#### Fix it  \n> litellm.APIConnectionError: Connection refused  \n"), 1, "error ERROR"},
		{"aider-api-error", Aider, aiderDoc(aiderBlock, "Applied edit to app.py", "Commit 1a2b3c4 feat: log litellm.completion calls"), 1, "ok"},
		{"aider-token-limit", Aider, []byte("# aider chat started at 2025-03-01 09:00:00\n\n#### Run it  \n> Tokens: 275k sent, 0 received. Cost: $0.83 message, $0.83 session.  \n>  \n> Model anthropic/claude-3-7-sonnet-20250219 has hit a token limit!  \n> Input tokens: ~275,397 of 200,000 -- possibly exhausted context window!  \n"), 1, "error TOKEN_LIMIT"},
		{"aider-token-limit", Aider, aiderDoc("Aider says a model has hit a token limit! when the context is full.\n\n"+aiderBlock, "Applied edit to app.py"), 1, "ok"},

		// OpenHands' rules.
		{"not-executed", oh, ohDoc(t, "run", map[string]any{"command": "npm test"}, "The action has not been executed. This may have occurred because the user pressed the stop button, or because the runtime system crashed and restarted due to resource constraints.", nil), 0, "error NOT_EXECUTED"},
		{"not-executed", oh, read("/workspace/docs/faq.md", "     1\t## Why did my command not run?\n     2\tThe action has not been executed when the runtime restarts."), 0, "ok"},
		{"edit-rejected", oh, ohDoc(t, "edit", map[string]any{"command": "str_replace", "path": "/workspace/x.py", "old_str": "a", "new_str": "b"}, "ERROR:\nNo replacement was performed, old_str `a` did not appear verbatim in /workspace/x.py.", nil), 0, "error EDIT_REJECTED"},
		{"edit-rejected", oh, ohDoc(t, "run_ipython", map[string]any{"code": "edit_file_by_replace('/workspace/x.py', 'foo', 'bar')"}, "[No exact match found in /workspace/x.py for\n```\nfoo\n```\n]", nil), 0, "error EDIT_REJECTED"},
		{"edit-rejected", oh, read("/workspace/openhands/runtime/editor.py", "    40\t        raise ToolError('No replacement was performed, old_str did not appear verbatim')"), 0, "ok"},
		{"ipython-traceback", oh, ohDoc(t, "run_ipython", map[string]any{"code": "create_file('/workspace/README.md')"}, "---------------------------------------------------------------------------\r\nFileExistsError                           Traceback (most recent call last)\r\nCell In[1], line 1\r\n----> 1 create_file('/workspace/README.md')\r\n\r\nFile /opendevin/plugins/agent_skills/agentskills.py:336, in create_file(filename)\r\n    335 if os.path.exists(filename):\r\n--> 336     raise FileExistsError(f\"File '{filename}' already exists.\")\r\n\r\nFileExistsError: File '/workspace/README.md' already exists.", nil), 0, "error FileExistsError"},
		{"ipython-traceback", oh, ohDoc(t, "run_ipython", map[string]any{"code": "print(open('notes.txt').read())"}, "Known issues:\n- KeyError Traceback (most recent call last) shown when the cache is cold\n- fixed in 2.1", nil), 0, "ok"},
		{"create-exists", oh, ohDoc(t, "edit", map[string]any{"command": "create", "path": "/workspace/t.py", "file_text": "x = 1\n"}, "ERROR:\nInvalid `path` parameter: /workspace/t.py. File already exists at: /workspace/t.py. Cannot overwrite files using command `create`.", nil), 0, "error EDIT_REJECTED"},
		{"create-exists", oh, read("/workspace/openhands/runtime/editor.py", "    52\t            raise EditorToolParameterInvalidError('path', path, 'Cannot overwrite files using command `create`.')"), 0, "ok"},
		{"editor-no-such-path", oh, ohDoc(t, "edit", map[string]any{"command": "view", "path": "/workspace/x"}, "ERROR:\nInvalid `path` parameter: /workspace/x. The path /workspace/x does not exist. Please provide a valid path.", nil), 0, "error NO_SUCH_FILE"},
		{"editor-no-such-path", oh, ohDoc(t, "edit", map[string]any{"command": "str_replace", "path": "/workspace/x.py", "old_str": "a", "new_str": "b"}, "ERROR:\nInvalid `path` parameter: /workspace/x.py. The path /workspace/x.py does not exist. Please provide a valid path.", nil), 0, "error NO_SUCH_FILE"},
		{"editor-no-such-path", oh, read("/workspace/openhands/runtime/editor.py", "    60\t                f'The path {path} does not exist. Please provide a valid path.',"), 0, "ok"},
		{"invalid-parameter", oh, ohDoc(t, "edit", map[string]any{"command": "view", "path": "/workspace/x.py", "view_range": []int{90, 80}}, "ERROR:\nInvalid `view_range` parameter: [90, 80]. Its second element `80` should be greater than or equal to the first element `90`.", nil), 0, "error USAGE_ERROR"},
		{"invalid-parameter", oh, ohDoc(t, "edit", map[string]any{"command": "view", "path": "x"}, "ERROR:\nInvalid `path` parameter: x. The path should be an absolute path, starting with `/`.", nil), 0, "error USAGE_ERROR"},
		{"invalid-parameter", oh, ohDoc(t, "run", map[string]any{"command": "npm ci\nnpm test"}, "ERROR: Cannot execute multiple commands at once.\nPlease run each command separately OR chain them into a single command via && or ;", -1), 0, "error USAGE_ERROR"},
		{"invalid-parameter", oh, ohDoc(t, "run", map[string]any{"command": "grep -rn \"ERROR: Invalid\" logs/"}, "logs/app.log:3:ERROR: Invalid token for user 12", 0), 0, "ok"},
	}
}

// Every rule, generic and of each format, finds what it names, and leaves
// alone what merely looks like it: a file shown that holds the words, the
// words elsewhere than where the tool writes them.
func TestOutputRules(t *testing.T) {
	for _, c := range ruleCases(t) {
		conv, run := convertOne(t, c.format, c.doc)
		s := conv.step(t, run, c.step)
		if got := result(s); got != c.want {
			t.Errorf("%s (%s): %s, want %s; output %q", c.rule, c.format.Name, got, c.want, data(t, s))
		}
	}
}

// Each rule has a case it matches and a near miss it does not: a rule
// added without both fails here.
func TestEveryRuleIsTestedBothWays(t *testing.T) {
	type key struct{ format, rule string }
	hit, miss := map[key]bool{}, map[key]bool{}
	for _, c := range ruleCases(t) {
		k := key{"", c.rule}
		for _, r := range formatRules[c.format.Name] {
			if r.Name == c.rule {
				k.format = c.format.Name
			}
		}
		if c.want == "ok" {
			miss[k] = true
		} else {
			hit[k] = true
		}
	}
	check := func(k key) {
		if !hit[k] || !miss[k] {
			t.Errorf("rule %q of %q: hit tested %v, near miss tested %v", k.rule, k.format, hit[k], miss[k])
		}
	}
	for _, r := range OutputRules {
		check(key{"", r.Name})
	}
	for _, f := range Registry {
		rules, ok := formatRules[f.Name]
		if !ok {
			t.Errorf("format %s: list its rules in formatRules", f.Name)
		}
		for _, r := range rules {
			check(key{f.Name, r.Name})
		}
	}
}

// Tool output is kept up to 1 MiB: its head and its tail, cut at rune
// boundaries, with a mark where the middle was.
func TestOutputClippedKeepingHeadAndTail(t *testing.T) {
	out := "HEAD first line\n" + strings.Repeat("é", 3<<19) + "x" + strings.Repeat("ü", 3<<19) + "\nTAIL last line"
	conv, run := convertOne(t, OpenAIMessages, bashDoc(t, "cat big.log", out))
	got := data(t, conv.step(t, run, 1))
	if len(got) > maxOutput+len("\n[...]\n") || len(got) < maxOutput {
		t.Errorf("%d bytes kept of %d, want about %d", len(got), len(out), maxOutput)
	}
	if !strings.HasPrefix(got, "HEAD first line\n") || !strings.HasSuffix(got, "\nTAIL last line") || !strings.Contains(got, "\n[...]\n") {
		t.Errorf("head %q ... tail %q", got[:20], got[len(got)-20:])
	}
	if !utf8.ValidString(got) || strings.ContainsRune(got, utf8.RuneError) {
		t.Error("clipping split a rune")
	}
	exact := strings.Repeat("a", maxOutput)
	conv, run = convertOne(t, OpenAIMessages, bashDoc(t, "cat a.txt", exact))
	if data(t, conv.step(t, run, 1)) != exact {
		t.Error("an output of exactly 1 MiB was clipped")
	}
}

// Terminal escapes (colours, titles, bracketed paste) are stripped from the
// output kept and from the text the rules read.
func TestANSIEscapesStripped(t *testing.T) {
	conv, run := convertOne(t, OpenAIMessages, bashDoc(t, "make deploy", "\x1b]0;deploy\x07\x1b[1;31mError:\x1b[0m disk full\r\n\x1b[?2004h"))
	s := conv.step(t, run, 1)
	if got := data(t, s); got != "Error: disk full\r\n" {
		t.Errorf("data %q", got)
	}
	if result(s) != "error ERROR" {
		t.Errorf("result %s: the rules must read the text without its escapes", result(s))
	}
	conv, run = convertOne(t, OpenAIMessages, bashDoc(t, "grep -rn foo src", "\x1b[?2004l\x1b[?2004h"))
	if s := conv.step(t, run, 1); result(s) != "ok empty" {
		t.Errorf("a grep that printed only escapes: %s", result(s))
	}
}

// The program a shell command runs decides how its output is read.
func TestProgram(t *testing.T) {
	for cmd, want := range map[string]string{
		"grep -rn foo src":                     "grep",
		"cd /testbed && grep -rn foo src":      "grep",
		"FOO=1 timeout 30 /usr/bin/rg foo":     "rg",
		"sudo find / -name x | head":           "find",
		"git grep -n foo":                      "git grep",
		"export A=1; source env.sh; cat a.txt": "cat",
		`echo "a && b" | wc -l`:                "echo",
		"":                                     "",
	} {
		if got := program(cmd); got != want {
			t.Errorf("program(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// A command searches when its program does, or when its last stage keeps
// the matching lines of what came before: a test run piped to grep printed
// nothing because the lines looked for were not there, also when head or
// sort cut what grep kept. A command whose last stage only cuts its own
// output does not, nor one that runs head after the grep is done (;).
func TestCommandSearches(t *testing.T) {
	for cmd, want := range map[string]bool{
		"grep -rn foo src":                                  true,
		"sudo find / -name x | head":                        true,
		"cd /workspace && npm test 2>&1 | grep -E passing":  true,
		"cat /tmp/out.txt | rg -i 'failing'":                true,
		"pytest -q 2>&1 | tail -5":                          false,
		"npm test":                                          false,
		"cd /workspace && npm test 2>&1 | head -50":         false,
		`python -c "print('a | grep b')"`:                   false,
		`mvn -q compile 2>&1 | grep -i "error:" | head -10`: true,
		"ls node_modules/.bin/ 2>/dev/null | sort | uniq":   false,
		"npm test 2>&1 | grep FAIL; head -5 log.txt":        false,
		"make 2>&1 | grep warning || tail -3 build.log":     false,
		// A command handed to a shell is read as the shell runs it.
		`bash -lc 'grep -rn "def resolve" sphinx/'`: true,
		`bash -lc "pytest -q 2>&1 | tail -5"`:       false,
		// A search that hands what it finds to a program that changes files
		// (which prints nothing when it works) is no search.
		`find . -name "*.pyc" -delete`:                                              false,
		`cd /w && find . -name "__pycache__" -exec rm -rf {} + 2>/dev/null || true`: false,
		`find locale -name "*.po" -exec sed -i 's/a/b/g' {} \;`:                     false,
		`find . -name "*.po" -exec perl -pi -e 's/a/b/' {} \;`:                      false,
		`grep -l "flush" test/*.js | xargs -I {} sh -c 'sed -i "s/a/b/" {}'`:        false,
		`find . -name "*.pid" -o -name "*.lock" 2>/dev/null | xargs rm -f`:          false,
		`find . -name "*.py" -exec grep -l "resolve" {} \;`:                         true,
		`find . -name "*.py" -exec sed -n '1,5p' {} \;`:                             true,
		`find . -name "*.py" | xargs grep -n "def resolve"`:                         true,
		`find . -name "*.py" | xargs wc -l`:                                         true,
		// A function of the mini-swe-agent research fork searches when the
		// shell commands it hands to exec_bash_cmd all do.
		"@bug_localization\ndef f():\n    return exec_bash_cmd('grep -RIn \"x\" . || true')":                               true,
		"@bug_localization\ndef f():\n    cmd = 'find . -name \"*.py\"'\n    return exec_bash_cmd(cmd)":                    true,
		"@bug_localization\ndef f():\n    return exec_bash_cmd('ls -la')":                                                  false,
		"@bug_localization\ndef f():\n    exec_bash_cmd('grep -n x a.py')\n    return exec_bash_cmd('sed -i s/x/y/ a.py')": false,
		"@bug_localization\ndef f():\n    return print_code_context('a.py', (1, 40))":                                      false,
	} {
		if got := commandSearches(cmd); got != want {
			t.Errorf("commandSearches(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// A test run piped to grep that printed nothing found nothing; the same
// run without the grep that printed nothing printed nothing, which is no
// search's answer.
func TestBlankOutputOfAFilteredRunIsEmpty(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"cd /workspace && npm test 2>&1 | grep -E '[0-9]+ passing'", "ok empty"},
		{"cd /workspace && npm test 2>&1 > /tmp/out.txt", "ok"},
	} {
		conv, run := convertOne(t, RovoDev, rovoDoc("bash", "command: "+c.cmd, "```\n...\n```"))
		if got := result(conv.step(t, run, 2)); got != c.want {
			t.Errorf("%s: %s, want %s", c.cmd, got, c.want)
		}
	}
}

// A search that exits 1 found nothing (grep, rg, git grep); other programs
// exiting 1 failed, and so does a line whose last command is not the search.
func TestExitOneOfASearchFoundNothing(t *testing.T) {
	for cmd, want := range map[string]bool{
		"grep -rn foo src":                        true,
		"cd /testbed && rg -n 'a|b' src":          true,
		"git grep -n foo -- '*.py' 2>&1":          true,
		"grep -c foo a.txt":                       true,
		"grep -rn foo src | head -20":             false, // head's exit code
		"grep -rn foo src && echo found":          false, // echo's, had it run
		"python repro.py":                         false,
		"find . -name '*.py' | xargs grep -l foo": false,
	} {
		if got := foundNothing(cmd, 1); got != want {
			t.Errorf("foundNothing(%q, 1) = %v, want %v", cmd, got, want)
		}
		if foundNothing(cmd, 2) {
			t.Errorf("foundNothing(%q, 2): exit 2 is grep's error", cmd)
		}
	}
	// Read without its output, as a log that keeps only exit codes is.
	for cmd, want := range map[string]string{
		"cd /testbed && grep -rn DeleteLeft src 2>&1": "ok empty",
		"cd /testbed && python repro.py 2>&1":         "error EXIT_CODE",
	} {
		c, run := convertStripped(t, OpenHands, ohDoc(t, "run", map[string]any{"command": cmd}, "", 1))
		if got := result(c.step(t, run, 0)); got != want {
			t.Errorf("%q exiting 1, output stripped: %s, want %s", cmd, got, want)
		}
	}
}

// The & of a redirect does not cut a command line.
func TestSplitSegmentsKeepsRedirects(t *testing.T) {
	got := splitSegments("grep foo a 2>&1 | tail -5 && ls &>/dev/null & wait")
	want := []string{"grep foo a 2>&1 ", " tail -5 ", "", " ls &>/dev/null ", " wait"}
	if strings.Join(got, "#") != strings.Join(want, "#") {
		t.Errorf("splitSegments = %q, want %q", got, want)
	}
}

// Totals logged per run are spread over the calls, adding up to the total.
func TestSpreadUsage(t *testing.T) {
	r := (&Doc{}).newRun("r")
	for i := range 3 {
		s := r.add(i, "ACT")
		if i != 1 {
			setCall(s, "t", map[string]int{"i": i})
		}
	}
	r.spreadUsage(10, 5, 0.3)
	if r.steps[1].Usage != nil {
		t.Error("a step without a call got a share")
	}
	a, b := r.steps[0].Usage, r.steps[2].Usage
	if a.PromptTokens+b.PromptTokens != 10 || a.CompletionTokens+b.CompletionTokens != 5 || !near(a.CostUSD+b.CostUSD, 0.3) {
		t.Errorf("shares %+v %+v", a, b)
	}
	r = (&Doc{}).newRun("r")
	r.add(0, "")
	r.spreadUsage(0, 0, -1)
	if r.steps[0].Usage != nil {
		t.Error("a negative total was spread")
	}
}

// With the output stripped, a result keeps only what the format says in a
// field of its own: no text, no error or emptiness read from the text.
func TestStripOutput(t *testing.T) {
	r := (&Doc{StripOutput: true}).newRun("r")
	s := r.add(0, "ACT")
	setCall(s, "bash", map[string]string{"command": "grep -rn foo ."})
	errType, empty := r.classify("bash: foo: command not found", true, false, nil)
	r.setResult(s, "bash: foo: command not found", errType, empty)
	if errType != "" || empty || s.ToolResult.Data != nil || !*s.ToolResult.OK {
		t.Errorf("stripped: error %q empty %v data %s", errType, empty, s.ToolResult.Data)
	}
	r.setResult(s, "Please provide exactly one action", "FORMAT_ERROR", false)
	if s.ToolResult.ErrorType != "FORMAT_ERROR" || s.ToolResult.Data != nil {
		t.Errorf("an explicit error stays, its text goes: %+v", s.ToolResult)
	}
}

// With the output stripped, a harness's own message in place of the
// output (OutputRule.Harness: Claude Code refusing a call, Rovo Dev's
// timeout, CrewAI refusing an input) is still read, its text dropped;
// what a tool printed is not.
func TestStripOutputKeepsHarnessMessages(t *testing.T) {
	for _, c := range []struct {
		name   string
		format *Format
		doc    []byte
		step   int64
		want   string
	}{
		{"refused before it ran", AnthropicMessages, antDoc(t, "Read", map[string]any{"file_path": "/app/nope.py"}, "<tool_use_error>File does not exist.</tool_use_error>", true), 1, "error NO_SUCH_FILE"},
		{"refused unread", AnthropicMessages, antDoc(t, "Write", map[string]any{"file_path": "/app/a.py", "content": "x"}, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true), 1, "error USAGE_ERROR"},
		{"edit refused", AnthropicMessages, antDoc(t, "Edit", map[string]any{"file_path": "/app/a.py", "old_string": "x", "new_string": "y"}, "<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>", true), 1, "error EDIT_REJECTED"},
		{"user refused", AnthropicMessages, antDoc(t, "Bash", map[string]any{"command": "rm -rf build"}, "The user doesn't want to proceed with this tool use.", true), 1, "error REJECTED"},
		{"user interrupted a read", AnthropicMessages, antDoc(t, "Read", map[string]any{"file_path": "/app/big.log"}, "Interrupted by user", true), 1, "error REJECTED"},
		{"command stopped at the time limit", AnthropicMessages, antDoc(t, "Bash", map[string]any{"command": "npm test"}, "Command timed out after 2m 0.0s\n> app@1.0.0 test\n> jest", true), 1, "error TIMEOUT"},
		{"printed by the tool", AnthropicMessages, antDoc(t, "Bash", map[string]any{"command": "python a.py"}, "Traceback (most recent call last):\n  File \"a.py\", line 1\nNameError: name 'x' is not defined", true), 1, "error ERROR"},
		{"harness timeout", RovoDev, rovoDoc("bash", "command: cd /workspace && npm install\ntimeout: 300", "```\n\n Timeout...\n```"), 2, "error TIMEOUT"},
		{"harness tool error", RovoDev, rovoDoc("find_and_replace_code", "file_path: src/a.ts\nfind: x\nreplace: y", "```\nError executing tool find_and_replace_code: Multiple matches found\n```"), 2, "error TOOL_ERROR"},
		{"harness gave up waiting", RovoDev, rovoDoc("bash", "command: mvn test", "```\nTimed out while waiting for response to ClientRequest. Waited 300.0 seconds....\n```"), 2, "error TIMEOUT"},
		{"background refused", RovoDev, rovoDoc("bash", "command: npm start &", "```\nError: background execution not supported in this environment...\n```"), 2, "error ERROR"},
		{"printed by a command", RovoDev, rovoDoc("bash", "command: ls nope", "```\nls: cannot access 'nope': No such file or directory\n```"), 2, "ok"},
		{"executor refused a reused input", ReactLog, reactDoc("  warnings.warn(\n\nI tried reusing the same input, I must stop using this action input. I'll try something else instead."), 0, "error REJECTED"},
		{"executor could not read the turn", ReactLog, reactDoc("Invalid Format: Missing 'Action Input:' after 'Action:'"), 0, "error FORMAT_ERROR"},
		{"executor's exit code", OpenAIMessages, chatDoc(t, "run_code", map[string]any{"code": "print(total(rows))"}, "exitcode: 1 (execution failed)\nCode output: NameError: name 'rows' is not defined"), 1, "error EXIT_CODE"},
		{"agent loop stopped waiting", OpenAIMessages, chatDoc(t, "execute-tool", map[string]any{"server_name": "fetch", "tool_name": "fetch"}, "Tool call timed out."), 1, "error TIMEOUT"},
		{"SDK's word for a tool that raised", OpenAIMessages, chatDoc(t, "refund_charge", map[string]any{"charge_id": "ch_2"}, "An error occurred while running the tool. Please try again. Error: payments API returned 503"), 1, "error ERROR"},
		{"printed by a tool", ReactLog, reactDoc("Traceback (most recent call last):\n  File \"t.py\", line 1\nValueError: bad"), 0, "ok"},
	} {
		conv, run := convertStripped(t, c.format, c.doc)
		s := conv.step(t, run, c.step)
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if s.ToolResult != nil && s.ToolResult.Data != nil {
			t.Errorf("%s: the text stayed: %s", c.name, s.ToolResult.Data)
		}
	}
}

// aiderBlock is a reply's SEARCH/REPLACE block.
const aiderBlock = "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```"

// aiderDoc is an Aider chat history of one session: the user's input
// (entry 0), reply (entry 1), and Aider's messages after it.
func aiderDoc(reply string, messages ...string) []byte {
	h := "# aider chat started at 2025-03-01 09:00:00\n\n#### Change x  \n\n" + reply + "\n\n"
	for _, m := range messages {
		h += "> " + m + "  \n"
	}
	return []byte(h)
}

// A result an output rule typed names the rule as its reason, so that a
// reader can look it up; a result typed otherwise (a mini-swe-agent exit
// code no rule reads) names none.
func TestOutputRuleIsTheResultsReason(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, bashDoc(t, "python repro.py", "Traceback (most recent call last):\n  File \"repro.py\", line 2, in <module>\n    import foo\nModuleNotFoundError: No module named 'foo'\n"))
	if s := c.step(t, run, 1); result(s) != "error ModuleNotFoundError" || s.ToolResult.Reason != "output rule python-traceback" {
		t.Errorf("a traceback: %s, reason %q", result(s), s.ToolResult.Reason)
	}
	c, run = convertOne(t, MiniSWEAgent, miniV1(t, "THOUGHT: x\n\n```bash\n./check.sh\n```", "<returncode>3</returncode>\n<output>\nchecked 4 files\n</output>"))
	if s := c.step(t, run, 2); result(s) != "error EXIT_CODE" || s.ToolResult.Reason != "" {
		t.Errorf("an exit code: %s, reason %q", result(s), s.ToolResult.Reason)
	}
}

// testsFailed, which runs its expression only on the lines around a
// summary word, finds what the expression finds on every short line:
// no runner's summary is without one of the words.
func FuzzTestsFailedMatchesEveryLine(f *testing.F) {
	for _, s := range []string{
		"1 failed, 2 passed in 0.05s", "FAILED (failures=2)", "--- FAIL: TestX (0.00s)", "FAIL\tpkg\t0.01s",
		"Tests:       1 failed, 3 passed, 4 total", "  2 failing", "Tests run: 3, Failures: 1, Errors: 0",
		"[ERROR] Failed to execute goal x: There are test failures.", "3 tests completed, 1 failed",
		"test result: FAILED. 1 passed; 1 failed", "50% tests passed, 1 tests failed out of 2",
		"3 examples, 1 failure", "FAILURES!", "ERRORS!", "ok\nall good", "Failed!  - Failed:     1, Passed:     3", strings.Repeat("=", 500) + " 1 failed in 0.1s",
	} {
		f.Add("log line\n" + s + "\nmore")
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := false
		for _, line := range strings.Split(text, "\n") {
			if len(strings.Trim(line, "= ")) <= maxSummaryLine && reTestsFailedLine.MatchString(line) {
				want = true
			}
		}
		if got := testsFailed(text); got != want {
			t.Errorf("testsFailed(%q) = %v, the expression on each line says %v", text, got, want)
		}
	})
}

// With the output stripped only the format's own rules are tried for a
// harness's message (classifyRule): a generic rule marked Harness would
// never run there.
func TestNoGenericRuleReadsAHarnessMessage(t *testing.T) {
	for _, r := range OutputRules {
		if r.Harness {
			t.Errorf("generic output rule %s is marked Harness: give it to the formats whose harness writes it", r.Name)
		}
	}
}

// The editor that OpenHands, SWE-agent and Trae Agent share refuses to
// create a file that is already there, and refuses the same create again
// for as long as the file is: the result is not retryable, so the create
// sent again is the agent's retry loop (detect's RA302). Its other
// refusals (a replacement's text not found) say nothing of retrying: the
// next edit may be the fix.
func TestCreateOverAFileIsNotRetryable(t *testing.T) {
	exists := "File already exists at: /w/t.py. Cannot overwrite files using command `create`."
	notFound := "No replacement was performed, old_str `x = 1` did not appear verbatim in /w/t.py."
	for _, c := range []struct {
		name   string
		format *Format
		doc    []byte
		want   *bool
	}{
		{"openhands create", OpenHands, ohDoc(t, "edit", map[string]any{"command": "create", "path": "/w/t.py", "file_text": "x"}, "ERROR:\nInvalid `path` parameter: /w/t.py. "+exists, nil), new(bool)},
		{"openhands replace", OpenHands, ohDoc(t, "edit", map[string]any{"command": "str_replace", "path": "/w/t.py", "old_str": "x = 1", "new_str": "x = 2"}, "ERROR:\n"+notFound, nil), nil},
		{"swe-agent create", SWEAgent, sweDoc(t, "str_replace_editor create /w/t.py --file_text x", exists), new(bool)},
		{"swe-agent replace", SWEAgent, sweDoc(t, "str_replace_editor str_replace /w/t.py --old_str 'x = 1' --new_str 'x = 2'", notFound), nil},
		{"trae create", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "/w/t.py", "file_text": "x"}, exists, false), new(bool)},
		{"trae replace", TraeAgent, traeDoc(t, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/w/t.py", "old_str": "x = 1", "new_str": "x = 2"}, notFound, false), nil},
	} {
		conv, run := convertOne(t, c.format, c.doc)
		s := conv.step(t, run, 0)
		if got := result(s); got != "error EDIT_REJECTED" {
			t.Errorf("%s: %s, want error EDIT_REJECTED", c.name, got)
		}
		show := func(b *bool) string {
			if b == nil {
				return "unset"
			}
			return strconv.FormatBool(*b)
		}
		if got := s.ToolResult.Retryable; show(got) != show(c.want) {
			t.Errorf("%s: retryable %s, want %s", c.name, show(got), show(c.want))
		}
	}
}

// The research fork's editing helper reports the lines it replaced, old and
// new; when every new text is its old text the edit changed nothing, and the
// same call changes nothing however often it is sent, as an editor's
// replacement of a text by itself: the result is not retryable. A report of
// lines that did change is no failure at all.
func TestHelperNoChangeIsNotRetryable(t *testing.T) {
	block := "parent_links = {}\n        for base in reversed([new_class] + parents):\n"
	same := bashDoc(t, "@patch_generation\ndef prefer_parent_link():\n    return code_replace(\"django/db/models/base.py\", old, new)",
		"Replaced L195-196 (2 lines) -> L195-196 (2 lines)\n  Old: "+block+"  New: "+block)
	conv, run := convertOne(t, OpenAIMessages, same)
	s := conv.step(t, run, 1)
	if got := result(s); got != "error EDIT_REJECTED" {
		t.Fatalf("same text: %s, want error EDIT_REJECTED", got)
	}
	if s.ToolResult.Retryable == nil || *s.ToolResult.Retryable {
		t.Errorf("same text: retryable %v, want false", s.ToolResult.Retryable)
	}
}
