package adapters

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// Only browser-use histories are recognised: an object whose "history"
// opens with an entry holding "model_output" and "result" or "state". A
// near miss (an entry without either, an empty history, OpenHands'
// history of events) is refused, saying why.
func TestBrowserUseRecognize(t *testing.T) {
	for doc, want := range map[string]string{
		`{"history": [{"model_output": null, "result": [{"error": "x"}], "state": {"url": ""}}]}`: "",
		`{"history": [{"model_output": {"action": []}, "state": {}}], "usage": null}`:             "",
		`{"history": [{"model_output": null, "metadata": null}]}`:                                 `"history" holds no browser-use step ("model_output" with "result" or "state")`,
		`{"history": [{"result": [], "state": {}}]}`:                                              `"history" holds no browser-use step ("model_output" with "result" or "state")`,
		`{"history": [{"action": "run", "args": {"command": "ls"}}]}`:                             `"history" holds no browser-use step ("model_output" with "result" or "state")`,
		`{"history": [[{"action": "run"}, {"observation": "run"}]]}`:                              `"history" does not hold objects`,
		`{"history": []}`:            `"history" is empty: no step to read`,
		`{"history": {"steps": []}}`: `"history" is not a list`,
		`{"messages": []}`:           `no "history" list`,
		`[{"model_output": null, "result": [], "state": {}}]`: `not a JSON object with a "history" list`,
	} {
		d, err := ParseDoc("t.json", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := BrowserUse.Recognize(d); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", doc, got, want)
		}
	}
	// The other formats' reasons for a browser-use history name what they
	// looked for.
	d := sampleDoc(t, "browser-use/healthy-library-hours.json", 0)
	if err := OpenHands.Recognize(d); err == nil || !strings.Contains(err.Error(), `"history" holds neither events`) {
		t.Errorf("openhands on a browser-use history: %v", err)
	}
}

// A history as 0.9 writes it (thoughts at the top of model_output, the
// element as DOMInteractedElement, the screenshot a path): one step per
// action, an entry of two actions taking two numbers; the element a call
// named is identified by its xpath on its page, not by its index; the
// result is what the action reported and, for an entry's last action, the
// page it led to; the thoughts are the reason, evaluation first; done is
// STOP.
func TestBrowserUseHealthySample(t *testing.T) {
	c, run := convertOne(t, BrowserUse, readSample(t, "browser-use/healthy-library-hours.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5]" {
		t.Fatalf("steps %s, want [0 1 2 3 4 5]: entry 1's two actions keep a number each", got)
	}
	c.calls(t, run, map[int64]string{0: "navigate ok", 1: "input ok", 2: "click ok", 3: "click ok", 4: "extract ok", 5: "done ok"})
	home := "https://www.riversidelibrary.example.org/"
	s := c.step(t, run, 1)
	a := args(t, s)
	target, _ := a["target"].(map[string]any)
	if _, ok := a["index"]; ok || a["text"] != "main branch hours" || target["xpath"] != "html/body/header/div/form/input" || target["tag"] != "input" || target["page"] != home {
		t.Errorf("step 1 args %s, want the text and the element by its xpath on its page, no index", s.ToolCall.Args)
	}
	if !strings.HasPrefix(reason(s), "Success - the library's home page is open") || !strings.Contains(reason(s), "There is a search field in the header") || s.TS == nil {
		t.Errorf("step 1: reason %q ts %v, want the evaluation first, then the thinking", reason(s), s.TS)
	}
	if data(t, s) != "Typed 'main branch hours'" {
		t.Errorf("step 1 data %q, want the action's own text: the page after it was not taken", data(t, s))
	}
	s = c.step(t, run, 2)
	if reason(s) != "" || !strings.HasPrefix(data(t, s), `Clicked button "Search"`) ||
		!strings.HasSuffix(data(t, s), "\n\npage: https://www.riversidelibrary.example.org/search?q=main+branch+hours\ntitle: Search results: main branch hours | Riverside Public Library") {
		t.Errorf("step 2: reason %q data %q, want the entry's words on its first action only, and the page the click led to", reason(s), data(t, s))
	}
	if s := c.step(t, run, 4); !strings.Contains(data(t, s), "Saturday: 10:00 AM - 5:00 PM") {
		t.Errorf("step 4 data %q", data(t, s))
	}
	if s := c.step(t, run, 5); s.State != "STOP" || !strings.HasPrefix(data(t, s), "The Riverside Public Library main branch") {
		t.Errorf("step 5: %s %q, want done as STOP with its text", s.State, data(t, s))
	}
	for _, s := range c.steps {
		line, _ := AppendStepJSON(nil, s)
		if strings.Contains(string(line), "screenshots/step_") || strings.Contains(string(line), ".png") {
			t.Errorf("step %d holds the screenshot's path: %s", *s.Step, line)
		}
	}
}

// A history as 0.1.40 writes it (thoughts under current_state, the element
// as DOMHistoryElement, the screenshot in base64, input_tokens): the same
// button clicked on a page that does not change is the same call, whatever
// its index in each rendering; the click's text differs by the index and a
// counter, the page it led to is the same.
func TestBrowserUseLoopSample(t *testing.T) {
	c, run := convertOne(t, BrowserUse, readSample(t, "browser-use/click-same-element-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5 6 7 8]" {
		t.Fatalf("steps %s", got)
	}
	first, second := c.step(t, run, 1), c.step(t, run, 2)
	if string(first.ToolCall.Args) != string(second.ToolCall.Args) || strings.Contains(string(first.ToolCall.Args), "index") ||
		!strings.Contains(string(first.ToolCall.Args), `"xpath":"html/body/div[1]/main/section[2]/div[3]/button"`) {
		t.Errorf("clicks at index 31 and 33: args %s and %s, want the same element's identity alike", first.ToolCall.Args, second.ToolCall.Args)
	}
	page := "\n\npage: https://harborgazette.example.com/news\ntitle: Latest news | The Harbor Gazette"
	if data(t, first) == data(t, second) || !strings.HasSuffix(data(t, first), page) || !strings.HasSuffix(data(t, second), page) {
		t.Errorf("data %q and %q, want each click's text and the same page after both", data(t, first), data(t, second))
	}
	if first.Usage == nil || first.Usage.PromptTokens != 3105 || first.TS == nil {
		t.Errorf("step 1: usage %+v ts %v, want input_tokens and the step's start", first.Usage, first.TS)
	}
	if !strings.HasPrefix(reason(second), "Failed - the list still shows the same 20 stories") || !strings.Contains(reason(second), "Clicked 'Load more stories' 1 times") {
		t.Errorf("step 2 reason %q, want current_state's evaluation, memory and goal", reason(second))
	}
	if s := c.step(t, run, 8); s.State != "STOP" || result(s) != "ok" {
		t.Errorf("step 8: %s %s, want done (success false) as STOP: the agent's verdict on the task, not a failed call", s.State, result(s))
	}
	for _, s := range c.steps {
		line, _ := AppendStepJSON(nil, s)
		if strings.Contains(string(line), "iVBORw0KGgo") {
			t.Errorf("step %d holds the screenshot: %s", *s.Step, line)
		}
	}
}

// A history as 0.2 writes it, failing: a click on an index the page does
// not have (success false, the controller's text), the registry's
// exception naming the second action of an entry (the first ran, its
// result lost), a model output that did not parse (a format error), and
// done with success false.
func TestBrowserUseErrorStormSample(t *testing.T) {
	c, run := convertOne(t, BrowserUse, readSample(t, "browser-use/element-index-error-storm.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5 6 7 8 9 10 11]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{
		1: "input_text ok", 2: "click_element_by_index error NO_SUCH_ELEMENT", 3: "click_element_by_index error NO_SUCH_ELEMENT",
		4: "format_error error FORMAT_ERROR", 6: "click_element_by_index none", 7: "input_text error NO_SUCH_ELEMENT", 11: "done ok",
	})
	if s := c.step(t, run, 2); string(s.ToolCall.Args) != `{"index":44,"target":{"page":"https://reserve.example.com/casa-lupe"}}` {
		t.Errorf("step 2 args %s, want the index on its page: the element was not logged", s.ToolCall.Args)
	}
	if s := c.step(t, run, 7); !strings.HasPrefix(data(t, s), "Error executing action input_text: Element index 45 does not exist") || !strings.Contains(data(t, s), "page: https://reserve.example.com/casa-lupe") {
		t.Errorf("step 7 data %q", data(t, s))
	}
	if s := c.step(t, run, 4); !strings.HasPrefix(data(t, s), "Could not parse response.") || s.Decision != nil {
		t.Errorf("step 4: %q %+v", data(t, s), s.Decision)
	}
	if s := c.step(t, run, 11); s.State != "STOP" {
		t.Errorf("step 11: %s", s.State)
	}
}

// buHistory wraps entries (JSON objects) as a history.
func buHistory(entries ...string) []byte {
	return []byte(`{"history": [` + strings.Join(entries, ",") + `]}`)
}

// The two shapes of a model output read alike: 0.1.12's one action, one
// result and one element as objects, its thoughts under current_state
// (with its "valuation_previous_goal"), and the flat thoughts of 0.3 on.
func TestBrowserUseShapes(t *testing.T) {
	old := buHistory(`{"model_output": {"current_state": {"valuation_previous_goal": "Success - logged in", "memory": "m", "next_goal": "open the cart"},
		"action": {"click_element": {"index": 9}}},
		"result": {"is_done": false, "extracted_content": "🖱️  Clicked index 9"},
		"state": {"url": "https://shop.example.com/", "title": "Shop", "tabs": [], "screenshot": "iVBORw0KGgo",
		  "interacted_element": {"tag_name": "a", "xpath": "html/body/nav/a[3]", "highlight_index": 9, "attributes": {"href": "/cart"}}}}`)
	flat := buHistory(`{"model_output": {"thinking": "The cart link is in the nav bar.", "evaluation_previous_goal": "Success - logged in", "memory": "m", "next_goal": "open the cart",
		"action": [{"click_element_by_index": {"index": 12}}]},
		"result": [{"is_done": false, "extracted_content": "🖱️  Clicked index 12"}],
		"state": {"url": "https://shop.example.com/", "title": "Shop", "tabs": [], "screenshot_path": "/tmp/s/step_2.png",
		  "interacted_element": [{"node_name": "A", "x_path": "html/body/nav/a[3]", "attributes": {"href": "/cart"}, "ax_name": "Cart"}]}}`)
	var got []string
	for _, doc := range [][]byte{old, flat} {
		c, run := convertOne(t, BrowserUse, doc)
		s := c.step(t, run, 0)
		if !strings.HasPrefix(reason(s), "Success - logged in\n") || !strings.HasSuffix(reason(s), "open the cart") {
			t.Errorf("reason %q", reason(s))
		}
		got = append(got, string(s.ToolCall.Args))
	}
	want := `{"target":{"page":"https://shop.example.com/","xpath":"html/body/nav/a[3]","tag":"a"}}`
	if got[0] != want || got[1] != want {
		t.Errorf("args %q, want both %s", got, want)
	}
}

// An index is the element's number in one rendering of one page: the same
// index on two pages is two calls, the same element under two indices one.
// An element logged without its xpath is known by its tag, its accessible
// name and its identifying attributes.
func TestBrowserUseTargets(t *testing.T) {
	entry := func(url, element string) string {
		return `{"model_output": {"action": [{"click": {"index": 5}}]}, "result": [{"extracted_content": "Clicked"}],
		  "state": {"url": "` + url + `", "title": "", "interacted_element": [` + element + `]}}`
	}
	c, run := convertOne(t, BrowserUse, buHistory(
		entry("https://a.example.com/", "null"),
		entry("https://b.example.com/", "null"),
		entry("https://a.example.com/", `{"node_name": "BUTTON", "x_path": "html/body/button", "attributes": {"class": "x"}}`),
		entry("https://b.example.com/", `{"node_name": "BUTTON", "x_path": "html/body/button", "attributes": {"class": "x"}}`),
		entry("https://a.example.com/", `{"node_name": "BUTTON", "attributes": {"class": "hover", "aria-label": "Next", "style": "color: red"}, "ax_name": "Next page"}`),
	))
	var as []string
	for n := range int64(5) {
		as = append(as, string(c.step(t, run, n).ToolCall.Args))
	}
	if as[0] == as[1] || as[2] == as[3] || !strings.Contains(as[0], `"index":5`) {
		t.Errorf("the same index on two pages: %q", as)
	}
	if want := `{"target":{"page":"https://a.example.com/","tag":"button","name":"Next page","attributes":{"aria-label":"Next"}}}`; as[4] != want {
		t.Errorf("an element without its xpath: %s, want %s", as[4], want)
	}
}

// A scroll's args carry the place it reached on its page, in pages: the
// same scroll from the next place is the next page of the page, not the
// same call again; going back up reaches a place seen before; another page
// (or an element scrolled within) keeps its own place.
func TestBrowserUseScrollPosition(t *testing.T) {
	entry := func(url, action string) string {
		return `{"model_output": {"action": [` + action + `]}, "result": [{"extracted_content": "Scrolled"}],
		  "state": {"url": "` + url + `", "title": "", "interacted_element": [null]}}`
	}
	a, b := "https://a.example.com/", "https://b.example.com/"
	c, run := convertOne(t, BrowserUse, buHistory(
		entry(a, `{"scroll_down": {"amount": null}}`),
		entry(a, `{"scroll_down": {}}`),
		entry(b, `{"scroll_down": {"amount": 500}}`),
		entry(a, `{"scroll_up": {}}`),
		entry(a, `{"scroll": {"down": false, "num_pages": 0.5}}`),
		entry(a, `{"scroll": {"down": true, "pages": 10, "index": 7}}`),
		entry(a, `{"scroll_up": {"amount": 5000}}`),
	))
	var got []string
	for n := range int64(7) {
		var args struct {
			Position json.RawMessage `json:"position"`
		}
		json.Unmarshal(c.step(t, run, n).ToolCall.Args, &args)
		got = append(got, string(args.Position))
	}
	if want := "1 2 0.5 1 0.5 10 0"; strings.Join(got, " ") != want {
		t.Errorf("positions %v, want %s", got, want)
	}
}

// A failed model turn is a call of format_error when the harness could not
// read the model's output as actions, else a failed call of "model" of
// the kind its message names; a number in a message is no HTTP status.
func TestBrowserUseModelFailures(t *testing.T) {
	for msg, want := range map[string]string{
		"Invalid model output format. Please follow the correct schema.\nDetails: 1 validation error for AgentOutput": "format_error error FORMAT_ERROR",
		"Could not parse response.\n\nReturn a valid JSON object with the required fields.":                           "format_error error FORMAT_ERROR",
		"Rate limit reached. Waiting before retry.":                                                                   "model error RATE_LIMIT",
		"Error code: 429 - {'error': {'message': 'Too Many Requests'}}":                                               "model error RATE_LIMIT",
		"LLM call timed out after 75 seconds. Keep your thinking and output short.":                                   "model error TIMEOUT",
		"Failed to click element 429: Node is detached from document":                                                 "model error ERROR",
	} {
		c, run := convertOne(t, BrowserUse, buHistory(`{"model_output": null, "result": [{"error": `+string(jsonString(msg))+`}], "state": {"url": "u", "title": "t", "interacted_element": [null]}}`))
		s := c.step(t, run, 0)
		if got := tool(s) + " " + result(s); got != want || data(t, s) == "" {
			t.Errorf("%q: %s %q, want %s", msg, got, data(t, s), want)
		}
	}
	// An entry whose model output is null and whose result says nothing
	// failed is no step; it keeps its number.
	c, run := convertOne(t, BrowserUse, buHistory(
		`{"model_output": null, "result": [], "state": {}}`,
		`{"model_output": {"action": [{"wait": {"seconds": 3}}]}, "result": [{"extracted_content": "🕒  Waiting for 3 seconds"}], "state": {}}`))
	if got := fmt.Sprint(c.numbers(run)); got != "[1]" {
		t.Errorf("steps %s, want [1]", got)
	}
}

// Results are aligned with the actions and stop where browser-use stopped
// running them: at an error, done, or its note that the page changed
// ("Something new appeared after action 1 / 3"), which is no result of the
// action it stands for (not run, as the ones after it). Each action keeps
// its number all the same.
func TestBrowserUseActionsNotRun(t *testing.T) {
	c, run := convertOne(t, BrowserUse, buHistory(
		`{"model_output": {"action": [{"input_text": {"index": 3, "text": "shoes"}}, {"click_element": {"index": 4}}, {"click_element": {"index": 9}}]},
		  "result": [{"extracted_content": "⌨️  Input shoes into index 3"}, {"extracted_content": "Something new appeared after action 1 / 3", "include_in_memory": true}],
		  "state": {"url": "https://shop.example.com/"}}`,
		`{"model_output": {"action": [{"click_element": {"index": 1}}, {"click_element": {"index": 2}}]},
		  "result": [{"error": "Element with index 1 does not exist - retry or use alternative actions"}],
		  "state": {"url": "https://shop.example.com/search", "title": "Results"}}`,
	))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 3]" {
		t.Fatalf("steps %s, want [0 3]", got)
	}
	if s := c.step(t, run, 0); !strings.HasSuffix(data(t, s), "page: https://shop.example.com/search\ntitle: Results") {
		t.Errorf("step 0 data %q, want the last action run with the page it led to", data(t, s))
	}
	c.calls(t, run, map[int64]string{3: "click_element error NO_SUCH_ELEMENT"})
}

// With the output stripped, browser-use's own word that an action failed
// stands: its "error" (read for its kind) and "success": false; the texts
// are gone. The final answer is the agent's words, not read for failures,
// and its "success": false is the agent's verdict on the task.
func TestBrowserUseStripped(t *testing.T) {
	doc := buHistory(
		`{"model_output": {"action": [{"go_to_url": {"url": "https://slow.example.com"}}]}, "result": [{"error": "Error executing action go_to_url: Page.goto: Timeout 30000ms exceeded."}], "state": {}}`,
		`{"model_output": {"action": [{"click_element_by_index": {"index": 44}}]}, "result": [{"success": false, "extracted_content": "Element with index 44 does not exist. Page has 38 interactive elements (indices 0-41)."}], "state": {}}`,
		`{"model_output": {"action": [{"click_element_by_index": {"index": 44}}]}, "result": [{"error": "Error executing action click_element_by_index: Element with index 44 does not exist - retry or use alternative actions"}], "state": {}}`,
		`{"model_output": {"action": [{"done": {"text": "Error: the site refused the login", "success": false}}]}, "result": [{"is_done": true, "success": false, "extracted_content": "Error: the site refused the login"}], "state": {}}`,
	)
	for _, strip := range []bool{false, true} {
		c, run := convertRead(t, BrowserUse, doc, strip)
		want := map[int64]string{0: "go_to_url error TIMEOUT", 1: "click_element_by_index error NO_SUCH_ELEMENT", 2: "click_element_by_index error NO_SUCH_ELEMENT", 3: "done ok"}
		if strip {
			want[1] = "click_element_by_index error ERROR"
		}
		c.calls(t, run, want)
		if s := c.step(t, run, 1); strip != (data(t, s) == "") {
			t.Errorf("stripped %v: data %q", strip, data(t, s))
		}
	}
}

// A history that logs no step's tokens but the run's UsageSummary beside
// "history" has the totals spread over its calls.
func TestBrowserUseUsageSummary(t *testing.T) {
	entry := `{"model_output": {"action": [{"wait": {"seconds": 1}}]}, "result": [{"extracted_content": "Waited for 1 seconds"}], "state": {}, "metadata": {"step_start_time": 1760000000.5, "step_end_time": 1760000002.0, "step_number": 1}}`
	doc := []byte(`{"history": [` + entry + `,` + entry + `], "usage": {"total_prompt_tokens": 9001, "total_completion_tokens": 400, "total_cost": 0.03, "total_tokens": 9401, "entry_count": 2, "by_model": {}}}`)
	c, run := convertOne(t, BrowserUse, doc)
	prompt, completion, cost, steps := usageSum(c, run)
	if prompt != 9001 || completion != 400 || !near(cost, 0.03) || steps != 2 {
		t.Errorf("usage %d %d %v over %d steps, want the totals over 2", prompt, completion, cost, steps)
	}
}

// A history that is not what its opening promised is rejected with the
// entry that broke it; nothing panics, and the steps are valid.
func TestBrowserUseMalformed(t *testing.T) {
	for doc, want := range map[string]string{
		`{"history": [{"model_output": null, "result": [], "state": {}}, 7]}`:                           "history entry 1: a JSON number, not an object",
		`{"history": [{"model_output": {"action": [5]}, "result": [], "state": {}}]}`:                   `history entry 0: "action": an action is not an object`,
		`{"history": [{"model_output": {"action": []}, "result": ["x"], "state": {}}]}`:                 "history entry 0: result 0: a JSON string, not an object",
		`{"history": [{"model_output": "text", "result": [], "state": {}}]}`:                            `history entry 0: "model_output": a JSON string, not an object`,
		`{"history": [{"model_output": null, "result": [{"extracted_content": "x"}], "state": {}}]}`:    "no step with an action or a failed model turn",
		`{"history": [{"model_output": {"action": [{"a": {}}]}, "result": {"error": []}, "state": 3}]}`: `history entry 0: "state" is a JSON number, not what browser-use writes there`,
	} {
		d, err := ParseDoc("h.json", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := BrowserUse.Recognize(d); err != nil {
			t.Fatalf("%s: not recognised: %v", doc, err)
		}
		err = ConvertDoc(BrowserUse, d, func(*schema.Step) error { return nil })
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}
