package detect

import "github.com/runawayhq/runaway/schema"

// A goal is what a string of calls keeps trying to reach: RA301's goal
// storms are one goal failing the same way again and again, whatever lies
// between the tries. The adapters name the goals of an agent framework's
// generic tools by intent (an install of one thing, an edit): a shell or
// an editor does whatever its args say. A call of an application's own
// tool (`book_reservation`, `update_order`) has its goal in its name: a
// booking refused for its payment total three times, with the total
// recalculated between the tries, is one booking failing, as an install
// timing out three times is one install.

// sameGoal reports whether calls i and j are one tool seeking one thing
// by intent: the same intent (an install after whatever cleanup came
// before it, an edit). Their failures of one specific type are then one
// failure coming back, in a streak as in a stretch.
func sameGoal(v *Run, i, j int) bool {
	return v.Tool[i] == v.Tool[j] && v.Intent[i] != 0 && v.Intent[i] == v.Intent[j]
}

// hasGoal reports whether failed call i seeks a goal RA301's goal storms
// follow: it has an intent, or it calls an application's tool (appTool)
// and the harness did not refuse it as malformed (a call it could not
// read is no attempt at what the tool does: such failures are the format
// storms of RA301's streaks and stretches).
func hasGoal(v *Run, i int) bool {
	if v.Intent[i] != 0 {
		return true
	}
	switch v.Names.ErrTypeName(v.ErrType[i]) {
	case schema.ErrInvalidCall, schema.ErrFormatError:
		return false
	}
	return appTool(v.Names.ToolName(v.Tool[i]))
}

// sameGoalOf reports whether call j seeks the goal of call i, a call with
// a goal (hasGoal): the same intent (sameGoal), or the same application
// tool without one.
func sameGoalOf(v *Run, i, j int) bool {
	if v.Intent[i] != 0 {
		return sameGoal(v, i, j)
	}
	return v.Tool[i] == v.Tool[j] && v.Intent[j] == 0
}

// resentCall reports whether one of the failed calls is the very same
// call as one before it (sameCall): an application tool's failures are a
// storm when the agent went back to a call that had already failed. Four
// bookings of four different flights, each refused because its flight
// is full, are an agent trying what its lookups found; a booking refused
// for its payment total, sent again with another total and then with the
// first again, goes in a circle.
func resentCall(v *Run, fails []int) bool {
	for x, j := range fails {
		for _, i := range fails[:x] {
			if v.sameCall(i) == v.sameCall(j) {
				return true
			}
		}
	}
	return false
}

// appTool reports whether a tool is an application's own, not one an
// agent framework gives every agent (agentTools, the shells, the file
// editors).
func appTool(tool string) bool {
	return tool != "" && !agentTools[tool] && !schema.IsShellTool(tool) && !schema.EditorTools[tool]
}

// agentTools are the tools agent frameworks give every agent, as the
// adapters name them: turns, model requests and malformed turns; files
// read, searched, written and edited; code runners and their processes;
// planners, scratchpads and sub-agents; browsers; the proxies through
// which an agent calls other servers' tools; and finishing.
var agentTools = map[string]bool{
	// Turns, model requests, malformed turns, finishing.
	schema.ToolMessage: true, "model": true, "format_error": true, "invalid_tool_call": true,
	"submit": true, "finish": true, "task_done": true, "attempt_completion": true,
	// Files: SWE-agent, OpenHands, Claude Code, Rovo Dev, Codex, ChatDev, Aider, generic names.
	"read": true, "Read": true, "read_file": true, "view": true, "open": true, "goto": true,
	"scroll_up": true, "scroll_down": true, "find_file": true, "search_dir": true, "search_file": true,
	"grep": true, "Grep": true, "glob": true, "Glob": true, "ls": true, "LS": true, "list_dir": true,
	"edit": true, "Edit": true, "MultiEdit": true, "insert": true, "create": true, "write": true, "Write": true,
	"write_file": true, "create_file": true, "delete_file": true, "apply_patch": true, "replace": true,
	"open_files": true, "expand_folder": true, "expand_code_chunks": true, "find_and_replace_code": true,
	"inspect_code": true, "NotebookEdit": true, "read_many_files": true, "list_directory": true,
	"search_file_content": true, "grep_search": true, "read_file_range": true, "read_currently_open_file": true,
	"edit_existing_file": true, "single_find_and_replace": true, "multi_edit": true, "create_new_file": true,
	"file_glob_search": true, "view_diff": true, "codebase": true, "semSearch": true,
	// Code runners and their processes.
	"python": true, "run_ipython": true, "execute_ipython_cell": true, "run_software": true,
	"write_stdin": true, "BashOutput": true, "KillBash": true,
	// Planners, scratchpads, sub-agents.
	"plan": true, "update_plan": true, "task_tracker": true, "task_tracking": true, "think": true,
	"sequentialthinking": true, "TodoWrite": true, "todo_write": true, "ExitPlanMode": true, "Task": true,
	"write_todos": true, "save_memory": true, "updateTodos": true, "task": true,
	// Browsers and the web.
	"browser": true, "browse_interactive": true, "web_read": true, "WebFetch": true, "WebSearch": true,
	"web_fetch": true, "google_web_search": true, "search_web": true, "fetch_url_content": true,
	"webFetch": true, "webSearch": true,
	// Copilot CLI's.
	"rg": true, "show_file": true, "read_bash": true, "write_bash": true, "stop_bash": true, "list_bash": true,
	"task_complete": true, "ask_user": true, "store_memory": true, "read_agent": true, "list_agents": true,
	"write_agent": true, "skill": true, "exit_plan_mode": true, "sql": true, "powershell": true,
	// Letta's: the agent's reply and its memory.
	"send_message": true, "core_memory_append": true, "core_memory_replace": true, "memory_replace": true,
	"memory_insert": true, "memory_rethink": true, "archival_memory_insert": true, "archival_memory_search": true,
	"conversation_search": true,
	// Proxies to other servers' tools (MCP).
	"execute-tool": true, "call_tool_mcp": true,
}
