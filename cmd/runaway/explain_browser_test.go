package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/runawayhq/runaway/schema"
)

// chromiumPath is where Debian's chromium package puts the browser.
const chromiumPath = "/usr/bin/chromium"

// browser starts a headless Chromium for one test, or skips the test when
// there is none. It is given a fresh profile and no network of its own
// (the pages load nothing anyway: their CSP forbids it).
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("browser test skipped: no Chromium at %s (apt-get install -y chromium)", chromiumPath)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting Chromium at %s: %v", chromiumPath, err)
	}
	return ctx
}

// fileURL is the file:// URL of a page written by the CLI.
func writePage(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if code, _, stderr := runCLI(t, "", append(args, "--out", path)...); code != exitClean {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return "file://" + path
}

// marks are what a fixture's timeline must draw, counted from the fixture
// file itself (not from the code that draws them).
type marks struct {
	States, Calls, Errors, Empties, Reads int
}

func fixtureMarks(t *testing.T, path string) marks {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m marks
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s schema.Step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		m.States++
		if s.ToolCall != nil {
			m.Calls++
			m.Errors += map[bool]int{true: 1}[s.ToolResult.IsError()]
			m.Empties += map[bool]int{true: 1}[s.ToolResult.IsEmpty()]
		}
		if s.Memory != nil {
			m.Reads += len(s.Memory.Retrieved)
		}
	}
	return m
}

// The explain page draws one SVG timeline per run in a real browser: it has
// a size, a mark per step in the state lane, a bar per call, an error mark
// per failed call, a read mark per memory read, and the shaded loop. A
// screenshot of the first timeline is a PNG that is not blank; with
// -update it becomes docs/explain-timeline.png.
func TestBrowserDrawsTheExplainTimeline(t *testing.T) {
	ctx := browser(t)
	fixtures := []string{
		filepath.Join(fixturesDir, "detectors", "RA501.positive.jsonl"),
		filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl"),
	}
	url := writePage(t, "explain", "fx-RA501-positive", "--run", "fx-cause-error-storm-one-call", "--format", "html", fixturesDir)
	type drawn struct {
		W, H                                         float64
		States, Calls, Errors, Empties, Reads, Links int
		LoopW                                        float64
		Contaminant                                  int
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("svg.timeline"))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]drawn](`[...document.querySelectorAll("svg.timeline")].map(s => {
		const r = s.getBoundingClientRect(), loop = s.querySelector("rect.loop");
		return {W: r.width, H: r.height,
			States: s.querySelectorAll("g.states rect").length,
			Calls: s.querySelectorAll("g.calls rect").length,
			Errors: s.querySelectorAll("g.marks path.err").length,
			Empties: s.querySelectorAll("g.marks circle.empty").length,
			Reads: s.querySelectorAll("circle.mem-read").length,
			Links: s.querySelectorAll("path.mem-link").length,
			LoopW: loop ? loop.getBBox().width : 0,
			Contaminant: s.querySelectorAll(".contaminant").length};
	})`))
	if err != nil {
		t.Fatal(err)
	}
	resources, err := chromedp.Run(ctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource").length`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#run-0 figure.timeline")))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(fixtures) {
		t.Fatalf("%d SVG timelines, want %d", len(got), len(fixtures))
	}
	for k, path := range fixtures {
		want, g := fixtureMarks(t, path), got[k]
		if g.W <= 0 || g.H <= 0 || g.LoopW <= 0 {
			t.Errorf("%s: timeline %vx%v, loop %v wide: not drawn", path, g.W, g.H, g.LoopW)
		}
		if g.States != want.States || g.Calls != want.Calls || g.Errors != want.Errors || g.Empties != want.Empties || g.Reads != want.Reads {
			t.Errorf("%s: drew %+v, the log has %+v", path, g, want)
		}
	}
	if got[0].Contaminant == 0 || got[0].Links == 0 {
		t.Errorf("the contaminating memory is not marked or its reads not linked: %+v", got[0])
	}
	if resources != 0 {
		t.Errorf("the page loaded %d resources", resources)
	}
	checkScreenshot(t, shot)
	if *update {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "explain-timeline.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkScreenshot(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b := img.Bounds()
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>11<<10|g>>11<<5|bl>>11] = true
		}
	}
	if b.Dx() < 300 || b.Dy() < 100 || len(colours) < 8 {
		t.Errorf("screenshot %dx%d with %d colours: blank?", b.Dx(), b.Dy(), len(colours))
	}
}

// The scan page's table sorts on a click, in the browser: by wasted steps
// ascending, then descending on a second click (ties keep their order),
// then by run id; every run links to a section of the page, and following
// the link of the page's first run, after sorting, shows that run's
// step-by-step timeline, drawn.
func TestBrowserSortsTheScanTable(t *testing.T) {
	ctx := browser(t)
	url := writePage(t, "scan", "--format", "html", fixturesDir)
	type row struct {
		ID     string
		Wasted int64
	}
	read := func() []row {
		t.Helper()
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](`[...document.querySelectorAll("table.runs tbody tr")].map(r => ({ID: r.cells[1].textContent.trim(), Wasted: +r.cells[6].dataset.sort}))`))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	click := func(col int) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("table.runs thead th:nth-child("+strconv.Itoa(col)+")"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("table.runs"))); err != nil {
		t.Fatal(err)
	}
	initial := read()
	// The page embeds the timelines of the first flagged runs in its own
	// order (--html-timelines): its first row's run has one.
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("table.runs tbody tr:first-child a").getAttribute("href")`))
	if err != nil {
		t.Fatal(err)
	}
	click(7)
	asc := read()
	click(7)
	desc := read()
	click(2)
	byID := read()
	dangling, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("a[href^='#']")].filter(a => !document.getElementById(a.getAttribute("href").slice(1))).length`))
	if err != nil {
		t.Fatal(err)
	}
	// Following the link of the page's first run, wherever sorting moved
	// its row, shows its section, with the run's step-by-step timeline drawn.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`table.runs tbody tr a[href="`+first+`"]`))); err != nil {
		t.Fatal(err)
	}
	type shown struct {
		Hash                 string
		W, H, SectionTop, VH float64
		States               int
	}
	target, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`(() => {
		const sec = document.getElementById(location.hash.slice(1)), s = sec && sec.querySelector("svg.timeline");
		if (!s) return {Hash: location.hash};
		const r = s.getBoundingClientRect();
		return {Hash: location.hash, W: r.width, H: r.height, SectionTop: sec.getBoundingClientRect().top, VH: innerHeight,
			States: s.querySelectorAll("g.states rect").length};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if target.W <= 0 || target.H <= 0 || target.States == 0 || target.SectionTop < -1 || target.SectionTop > target.VH {
		t.Errorf("after following the link of the page's first run (%s): %+v, want its section in view with a drawn timeline", first, target)
	}
	if len(initial) < 10 {
		t.Fatalf("%d rows: the fixtures should flag more runs", len(initial))
	}
	want := slices.Clone(initial)
	slices.SortStableFunc(want, func(a, b row) int { return int(a.Wasted - b.Wasted) })
	if !slices.Equal(asc, want) {
		t.Errorf("after one click on wasted steps:\n got %v\nwant %v", asc, want)
	}
	want = slices.Clone(asc)
	slices.SortStableFunc(want, func(a, b row) int { return int(b.Wasted - a.Wasted) })
	if !slices.Equal(desc, want) || slices.Equal(desc, asc) {
		t.Errorf("after two clicks:\n got %v\nwant %v", desc, want)
	}
	want = slices.Clone(desc)
	slices.SortStableFunc(want, func(a, b row) int { return strings.Compare(a.ID, b.ID) })
	if !slices.Equal(byID, want) {
		t.Errorf("sorted by run:\n got %v\nwant %v", byID, want)
	}
	if dangling != 0 {
		t.Errorf("%d links lead nowhere in the page", dangling)
	}
}
