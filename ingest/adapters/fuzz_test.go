package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// fuzzFormat checks that reading any bytes as a document of f never
// panics, and that what f converts is valid input: every step passes
// schema validation and no run numbers two steps alike. Seeds are the
// format's samples and the rule cases written for it.
func fuzzFormat(f *testing.F, format *Format, seeds ...[]byte) {
	for _, s := range sampleDocs {
		if s.format != format {
			continue
		}
		raw := readSample(f, s.rel)
		if s.line > 0 {
			raw = sampleLines(f, s.rel)[s.line-1]
		}
		f.Add(raw, s.line == 0)
	}
	for _, c := range ruleCases(f) {
		if c.format == format {
			f.Add(c.doc, true)
		}
	}
	for _, s := range seeds {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, whole bool) {
		if format.Text != nil {
			// A text transcript: whatever its bytes, read whole.
			format.Text(raw)
			fuzzConvert(t, format, TextDoc("fuzz", 3, raw))
		}
		if d, err := ParseDoc("fuzz.json", 3, whole, raw); err == nil {
			fuzzConvert(t, format, d)
		}
		if format.Transcript != nil && whole {
			// A JSON Lines file read whole, as a transcript is.
			if d, err := ParseLines("fuzz.jsonl", 3, raw); err == nil {
				format.Transcript(d)
				fuzzConvert(t, format, d)
			}
		}
	})
}

// fuzzConvert converts d if f recognises it, checking every step.
func fuzzConvert(t *testing.T, format *Format, d *Doc) {
	_, _ = Detect(d)
	if format.Recognize(d) != nil {
		return
	}
	seen := map[string]map[int64]bool{}
	_ = ConvertDoc(format, d, func(s *schema.Step) error {
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid step %+v: %v", s, err)
		}
		if _, err := AppendStepJSON(nil, s); err != nil {
			t.Fatalf("step does not marshal: %v", err)
		}
		if seen[s.RunID] == nil {
			seen[s.RunID] = map[int64]bool{}
		}
		if seen[s.RunID][*s.Step] {
			t.Fatalf("run %q: step %d twice", s.RunID, *s.Step)
		}
		seen[s.RunID][*s.Step] = true
		return nil
	})
}

func FuzzSWEAgent(f *testing.F) {
	fuzzFormat(f, SWEAgent,
		[]byte(`{"trajectory": [{"action": "", "observation": null, "thought": ""}], "info": {"model_stats": {"instance_cost": -1, "tokens_sent": -5}}}`),
		[]byte("[{\"instance_id\": 3, \"trajectory\": [{\"role\": \"ai\", \"text\": \"```\\n```x\\n```\"}, {\"role\": \"user\", \"text\": null}, {\"role\": \"ai\"}]}, {\"trajectory\": 1}]"),
	)
}

func FuzzMiniSWEAgent(f *testing.F) {
	fuzzFormat(f, MiniSWEAgent,
		[]byte(`{"trajectory_format": "mini-swe-agent-1.1", "messages": [{"role": "user"}, {"role": "user"}, {"role": "user", "content": "No tool calls found"}]}`),
	)
}

func FuzzOpenHands(f *testing.F) {
	fuzzFormat(f, OpenHands,
		[]byte(`[{"kind": "ObservationEvent", "observation": {"kind": "X"}}, {"kind": "ActionEvent", "action": {"kind": "ThinkAction"}}]`),
		[]byte(`{"history": [[{"action": "run", "args": {}}, {"observation": "run", "content": ""}]]}`),
	)
}

func FuzzOpenAIMessages(f *testing.F) {
	fuzzFormat(f, OpenAIMessages,
		[]byte(`[{"role": "assistant", "tool_calls": [{"function": {"arguments": "\"\""}}, {"function": {}}]}, {"role": "tool"}]`),
		[]byte(`{"info": {"id": 7}, "messages": [{"info": {"role": "assistant", "error": {"data": {}}, "tokens": {"input": -1, "cache": 3}, "time": {"created": 1e300}}, "parts": [{"type": "tool", "state": {"status": "completed", "metadata": {"exit": "x"}}}, {"type": "tool", "callID": 3}]}]}`),
		[]byte(`{"events": [{"author": "a", "invocation_id": "i", "error_code": "X", "timestamp": 1e300}, {"author": "user", "invocationId": "i", "content": {"parts": [{"function_response": {"response": {"status": 3}}}]}}, {"author": "a", "invocationId": "i", "content": {"role": "model", "parts": [{"functionCall": {}}, {"text": "x"}]}, "usageMetadata": {"promptTokenCount": -5}}]}`),
		[]byte(`[{"kind": "response", "parts": [{"part_kind": "tool-call", "args": "{"}, {"part_kind": "tool-call", "tool_call_id": 3}], "usage": {"input_tokens": -1}}, {"kind": "request", "parts": [{"part_kind": "retry-prompt", "content": [1, {"x": null}]}, {"part_kind": "tool-return", "content": null}]}]`),
		[]byte(`{"messages": [{"_role": "assistant", "_content": [{"tool_call": {"tool_name": 5, "id": null}}, {"tool_call": {"arguments": "x"}}], "_meta": {"usage": {"prompt_tokens": -1}}}, {"role": "tool", "content": [{"tool_call_result": {"origin": {"id": "q"}, "error": "yes", "result": [1]}}, {"text": null}]}]}`),
		readSample(f, "openai-messages/haystack-search-loop.json"),
		readSample(f, "openai-messages/sk-dotnet-chat-history.json"),
		readSample(f, "openai-messages/letta-memory-replace-loop.json"),
		[]byte(`[{"message_type": "tool_call_message", "tool_call": {"arguments": 7}, "tool_calls": [{}]}, {"message_type": "tool_return_message", "tool_returns": [{"status": "error", "stderr": [1]}], "date": 5}, {"message_type": "reasoning_message", "reasoning": null}, {"role": "x"}]`),
		[]byte(`[{"id": 3, "content": [{"class_": "api_action", "kwargs": null}, {"class_": "code_action", "language": 7, "content": ["x"]}, {"class_": "web_observation", "axtree": 1}, {"class_": "message_action"}]}, {"content": []}]`),
		[]byte(`{"conversations": [{"from": "function_call", "value": "[{\"name\": \"a\", \"arguments\": 1}, {}]"}, {"from": "observation", "value": 3}, {"from": "gpt", "value": null}, {"from": "observation"}]}`),
		[]byte(`{"messages": [{"role": {"Label": 3}, "items": [{"content_type": "function_call", "id": 1, "arguments": [1]}, {"$type": "FunctionResultContent", "Result": {"a": 1}}], "metadata": {"usage": {"PromptTokens": -1, "prompt_tokens": 1e400}}}]}`),
	)
}

func FuzzAnthropicMessages(f *testing.F) {
	fuzzFormat(f, AnthropicMessages,
		readSample(f, "anthropic-messages/claude-code-session.ndjson"),
		readSample(f, "anthropic-messages/claude-code-edit-loop.ndjson"),
		[]byte(`[{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "x"}, {"type": "tool_use", "id": "a"}, {"type": "mcp_tool_result", "tool_use_id": "a", "content": {"return_code": "x", "error_code": 3}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "is_error": "yes", "content": [{"type": "search_result", "content": 7}]}]}]`),
		[]byte("{\"type\": \"assistant\", \"sessionId\": \"s\", \"isSidechain\": true, \"isApiErrorMessage\": true, \"message\": {\"id\": \"m\", \"role\": \"assistant\", \"usage\": {\"input_tokens\": -1, \"output_tokens\": 1e300}}}\n{\"type\": \"assistant\", \"parentUuid\": \"u\", \"isSidechain\": true, \"message\": {\"id\": \"m\", \"content\": [{\"type\": \"tool_use\"}]}}"),
	)
}

func FuzzCodex(f *testing.F) {
	fuzzFormat(f, Codex,
		readSample(f, "codex/healthy-fix.ndjson"),
		readSample(f, "codex/tsc-error-loop.ndjson"),
		readSample(f, "codex/rollout-patch-loop.ndjson"),
		[]byte("{\"timestamp\":\"x\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"a\",\"output\":{\"k\":1}}}\n{\"timestamp\":1,\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"[\",\"call_id\":\"a\"}}\n{\"timestamp\":1,\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"a\",\"output\":\"Exit code: 99999999999999999999\\nOutput:\\n\"}}"),
		[]byte("{\"type\":\"item.started\",\"item\":{\"id\":\"a\",\"type\":\"file_change\",\"changes\":[{\"path\":7}]}}\n{\"type\":\"item.completed\",\"item\":{\"id\":\"a\",\"type\":\"command_execution\",\"exit_code\":1e400,\"command\":\"sh -c '\"}}\n{\"type\":\"thread.started\",\"thread_id\":\"\"}"),
	)
}

func FuzzGeminiCLI(f *testing.F) {
	fuzzFormat(f, GeminiCLI,
		readSample(f, "gemini-cli/session-edit-loop.ndjson"),
		readSample(f, "gemini-cli/session-fix-converges.json"),
		readSample(f, "gemini-cli/headless-build-loop.ndjson"),
		[]byte("{\"sessionId\":\"s\",\"projectHash\":\"h\"}\n{\"$set\":{\"messages\":[{\"id\":1,\"type\":\"gemini\",\"toolCalls\":[{\"args\":7,\"result\":{\"functionResponse\":{\"response\":[]}}}]}]}}\n{\"id\":\"x\",\"type\":\"error\",\"content\":{\"text\":3}}"),
		[]byte("{\"type\":\"init\",\"session_id\":1,\"model\":null}\n{\"type\":\"tool_result\",\"tool_id\":\"z\",\"status\":\"error\",\"error\":{}}\n{\"type\":\"message\",\"role\":\"assistant\",\"content\":[1]}\n{\"type\":\"tool_use\",\"tool_id\":\"z\",\"parameters\":\"x\"}\n{\"type\":\"result\",\"stats\":{\"input_tokens\":-1e400}}"),
	)
}

func FuzzCursor(f *testing.F) {
	fuzzFormat(f, Cursor,
		readSample(f, "cursor/parallel-sleep.ndjson"),
		readSample(f, "cursor/test-edit-loop.ndjson"),
		[]byte("{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":1,\"model\":null,\"session_id\":\"s\"}\n{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":7,\"tool_call\":{\"shellToolCall\":{\"args\":[],\"result\":{\"failure\":{\"exitCode\":\"99999999999999999999\"}}},\"lsToolCall\":{\"result\":{\"success\":{\"directoryTreeRoot\":{\"childrenDirs\":[1,{}]}}}}}}\n{\"type\":\"assistant\",\"message\":{\"content\":[{\"text\":5}]},\"timestamp_ms\":-3}\n{\"type\":\"result\",\"is_error\":true,\"result\":[],\"usage\":{\"inputTokens\":-1e400}}"),
	)
}

func FuzzCopilotCLI(f *testing.F) {
	fuzzFormat(f, CopilotCLI,
		readSample(f, "copilot-cli/session-import-error-loop.ndjson"),
		readSample(f, "copilot-cli/prompt-json-output.ndjson"),
		[]byte("{\"type\":\"assistant.message\",\"data\":{\"toolRequests\":[{\"toolCallId\":\"a\",\"arguments\":\"*** Begin Patch\"},{\"toolCallId\":\"b\"},{\"toolCallId\":\"a\"}],\"outputTokens\":-4}}\n{\"type\":\"tool.execution_complete\",\"agentId\":\"x\",\"data\":{\"toolCallId\":\"a\",\"success\":false,\"error\":7,\"result\":{\"content\":\"<exited with exit code 99999999999999999999>\",\"contents\":[{\"type\":\"shell_exit\",\"exitCode\":1e400}]}}}\n{\"type\":\"session.shutdown\",\"data\":{\"modelMetrics\":{\"m\":{\"usage\":{\"inputTokens\":-1}}}}}"),
		[]byte(`{"sessionId":"s","chatMessages":[{"role":"assistant","tool_calls":[{"id":"t","function":{"name":"bash","arguments":"{"}}]},{"role":"tool","tool_call_id":"t","content":"<exited with exit code -1>"}]}`),
	)
}

func FuzzDSPy(f *testing.F) {
	fuzzFormat(f, DSPy,
		readSample(f, "dspy/order-lookup-error-loop.json"),
		[]byte(`{"trajectory": {"tool_name_99999999999999999999": 3, "thought_1": [1], "tool_args_1": "x", "observation_1": {"a": null}, "tool_name_1": "finish", "observation_0": "Execution error in "}}`),
	)
}

func FuzzInspect(f *testing.F) {
	fuzzFormat(f, Inspect,
		readSample(f, "inspect/fix-dates-samples.json"),
		[]byte(`{"id":[1],"epoch":-1,"input":3,"target":null,"messages":[{"role":"assistant","content":[{"type":"reasoning","redacted":true}],"tool_calls":[{"id":"c","function":"text_editor","arguments":"x"}]},{"role":"tool","tool_call_id":["c"],"error":{"type":"unknown"}}],"events":[{"event":"model","output":{"choices":[{"message":{"id":7}}]}},{"event":"tool","id":"c","timestamp":"NaN"}],"model_usage":{"m":{"total_tokens":-9}}}`),
		[]byte(`{"version":2,"status":"error","eval":{"task":"t","task_id":"x"},"samples":[{"id":1,"epoch":1,"input":"","target":"","messages":NaN}]}`),
	)
}

func FuzzOpenCode(f *testing.F) {
	fuzzFormat(f, OpenCode,
		readSample(f, "opencode/ci-edit-loop.ndjson"),
		readSample(f, "opencode/ci-healthy.ndjson"),
		[]byte("{\"type\":\"tool_use\",\"sessionID\":\"s\",\"part\":{\"tool\":\"invalid\",\"state\":{\"status\":\"error\",\"input\":[1],\"time\":{\"start\":-1}}}}\n{\"type\":\"error\",\"sessionID\":\"s\",\"error\":7}\n{\"type\":\"step_finish\",\"sessionID\":\"t\",\"part\":{\"tokens\":{\"input\":-5},\"cost\":-1}}"),
	)
}

func FuzzQwenCode(f *testing.F) {
	fuzzFormat(f, QwenCode,
		readSample(f, "qwen-code/session-search-loop.ndjson"),
		readSample(f, "qwen-code/session-test-fix.ndjson"),
		[]byte("{\"uuid\":1,\"sessionId\":\"s\",\"type\":\"tool_result\",\"message\":{\"parts\":[{\"functionResponse\":{\"id\":\"x\",\"response\":7}}]},\"toolCallResult\":{\"status\":\"error\",\"error\":1}}\n{\"uuid\":\"2\",\"sessionId\":\"s\",\"type\":\"assistant\",\"isSidechain\":true,\"message\":{\"parts\":[{\"functionCall\":{\"id\":\"x\"}},{\"functionCall\":{\"id\":\"x\"}}]},\"usageMetadata\":{\"promptTokenCount\":-5}}"),
	)
}

func FuzzContinue(f *testing.F) {
	fuzzFormat(f, Continue,
		[]byte(`{"sessionId":3,"history":[{"message":{"role":"assistant","toolCalls":[{"id":"a","function":{"name":7,"arguments":"{"}},{"function":{}}]},"toolCallState":{"toolCallId":"a","status":"errored","output":[{"content":"x","status":"Command failed with exit code 99999999999999999999"}]}},{"message":{"role":"thinking","content":[{"text":"t"}]}},{"message":{"role":"tool"}}]}`),
	)
}

func FuzzMLflow(f *testing.F) {
	fuzzFormat(f, MLflow,
		readSample(f, "../traces/mlflow/loop.json"),
		[]byte(`{"info":{"request_id":7},"data":{"spans":[{"context":{"span_id":1},"parent_id":{},"start_time":"x","status":3,"attributes":{"mlflow.spanType":"\"LLM\"","mlflow.spanOutputs":"{\"choices\":[{\"message\":{\"tool_calls\":[{}]}}],\"content\":[{\"type\":\"tool_use\"}]}","mlflow.chat.tokenUsage":"[1]"},"events":[{"name":"exception","attributes":{"exception.type":5}}]}]}}`),
	)
}

func FuzzRovoDev(f *testing.F) {
	sep, banner := strings.Repeat("=", 120), strings.Repeat("#", 120)
	fuzzFormat(f, RovoDev,
		[]byte(banner+"\nPHASE 1\n"+banner+"\n"+sep+"\nTOOL RETURN (bash)\n```\n"+sep+"\nTOOL CALL (x)\n[: {\n"+sep+"\nAGENT:\n"+sep+"\nUSER PROMPT:\n"),
		[]byte(sep+"\nTOOL CALL (bash)\ncommand: *a\ntimeout: 1\n"+sep+"\nSYSTEM:\nx\n"+sep+"\n\n"+sep+"\nAGENT:\n"+sep+"\nAGENT:"),
	)
}

func FuzzTraeAgent(f *testing.F) {
	fuzzFormat(f, TraeAgent,
		[]byte(`{"llm_interactions": [], "agent_steps": [{"step_number": 1, "state": "error", "error": "429"}, {"step_number": 2, "llm_response": {"tool_calls": [{"name": "sequentialthinking", "arguments": "x"}], "usage": {"input_tokens": -3}}, "tool_calls": [{"call_id": "a"}, {}], "tool_results": [{"success": false}, {"call_id": "a", "result": 3}]}]}`),
	)
}

func FuzzATIF(f *testing.F) {
	fuzzFormat(f, ATIF,
		[]byte(`{"schema_version": "ATIF-v1.7", "agent": {"name": "claude-code"}, "steps": [{"source": "agent", "tool_calls": [{"function_name": "think", "arguments": 3}, {"tool_call_id": "a"}, {}], "observation": {"results": [{"content": [{"type": "text", "text": "x"}]}, {"source_call_id": "a"}, {}]}, "metrics": {"prompt_tokens": 1e300, "cost_usd": -1}}, {"source": "agent", "observation": {"results": [{"content": "Previous response had parsing errors:"}]}}, {"source": "user"}], "subagent_trajectories": [{"steps": [{"source": "agent", "message": [{"type": "image"}]}]}, {"steps": []}]}`),
	)
}

func FuzzSmolAgents(f *testing.F) {
	fuzzFormat(f, SmolAgents,
		[]byte(`[{"task": "x"}, {"step_number": 1, "tool_calls": [{"function": {"name": "final_answer", "arguments": "\"a\""}}, {}], "is_final_answer": true, "error": {"type": ""}, "timing": {"start_time": 1e300}}]`),
		[]byte(`{"intermediate_steps": [{"step_number": 0, "model_output": [{"type": "text", "text": "t"}], "error": {"type": "AgentParsingError", "message": "m"}}, {"plan": "p"}]}`),
		[]byte(`[{"step_number": 1, "tool_calls": [{"function": {"name": "python_interpreter", "arguments": "r = web_search(query='a \\'b\\' \\x41')\nprint(r)"}}], "observations": "## Search Results"}]`),
	)
}

func FuzzBrowserUse(f *testing.F) {
	fuzzFormat(f, BrowserUse,
		[]byte(`{"history": [{"model_output": {"current_state": {"valuation_previous_goal": 3}, "action": {"click_element": {"index": 5}, "go_to_url": null}}, "result": {"error": "Error executing action x: y"}, "state": {"url": 7, "interacted_element": {"xpath": "a", "attributes": [1]}}, "metadata": {"step_start_time": "x", "input_tokens": -4}}]}`),
		[]byte(`{"history": [{"model_output": {"action": [{"input": 3}, {}, {"done": {"text": "t"}}]}, "result": [{"extracted_content": "Something new appeared after action 1 / 3"}, {"is_done": "yes", "success": false}], "state": {"interacted_element": [null, {"x_path": ""}]}}, {"model_output": null, "result": [{"error": "Could not parse response"}, {"error": null}], "state": null, "metadata": {"step_start_time": 1e400}}], "usage": {"total_prompt_tokens": 1e300, "total_cost": -1}}`),
		[]byte(`{"history": [{"model_output": {"action": [{"a": {}}, {"b": {}}]}, "result": [{"error": "Error executing action b: Element index 2 does not exist"}], "state": {}}, {"model_output": {}, "result": [], "state": {"url": "u", "title": "t"}}]}`),
	)
}

func FuzzAider(f *testing.F) {
	fuzzFormat(f, Aider,
		[]byte("# aider chat started at 2025-01-01 00:00:00\n\n#### go  \n\nok\n\n> open message\nno end"),
		[]byte("# aider chat started at 2025-01-01 00:00:00\n\n\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n> Tokens: 9M sent, .k received. Cost: $. message, $1 session.  \n"),
	)
}

func FuzzChatDev(f *testing.F) {
	fuzzFormat(f, ChatDev,
		[]byte("[2023-14-09 10:02:11 INFO] **[Preprocessing]**\n[2023-14-09 10:02:11 INFO] X: **[Start Chat]**\n[\n[2023-14-09 10:02:11 INFO] A: **A<->A on : P, turn 0**\n]\n\n[2023-14-09 10:02:11 INFO] **[Update Codes]**\n updated.\n"),
		[]byte("[2023-99-99 99:99:99 INFO] **[Preprocessing]**\n[2023-14-09 10:02:11 INFO] **[OpenAI_Usage_Info Receive]**\nprompt_tokens: 99999999999999999999\n[2023-14-09 10:02:11 INFO] Retrying request to x in 1 seconds\n[2023-14-09 10:02:11 INFO] **[Post Info]**\n"),
	)
}

func FuzzNotebook(f *testing.F) {
	fuzzFormat(f, Notebook,
		[]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "outputs": [{"output_type": "stream", "text": ["# Agent: a\n", "## Final Answer: x\n"]}]}]}`),
		[]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "outputs": [{"output_type": "stream", "text": "Action: s\nAction Input: q\nObservation: \n"}, {"output_type": "stream", "text": 3}]}, {"cell_type": "markdown"}]}`),
	)
}

func FuzzReactLog(f *testing.F) {
	fuzzFormat(f, ReactLog,
		[]byte("> Entering new AgentExecutor chain...\n\x1b[32;1mAction: a\nAction Input:\x1b[0m\x1b[38;5;m\x1b[0m\n> Entering new X chain...\n> Finished chain.\n> Finished chain.\n> Finished chain.\n"),
		[]byte("Action: \nAction Input: \"\nObservation:\nObservation: Invalid Format: Missing 'Action:'\nFinal Answer:\x1b[31m"),
		[]byte("# Agent: a\n## Task: t\n# Agent: a\n## Using tool: x\n## Tool Input:\n\"{\\\"q\\\": 1}\"\n## Tool Output:\nI tried reusing the same input, I must stop using this action input.\n🤖 Agent: a\n Error parsing LLM output, agent will retry: I did it wrong.\n# Agent: a\n## Final Answer\n\n"),
	)
}
