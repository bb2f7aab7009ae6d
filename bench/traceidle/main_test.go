package main

import (
	"bytes"
	"regexp"
	"runtime/trace"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestReportSeesALoneGoroutine traces a program that first keeps two
// goroutines busy and then one: the report must count the second phase as
// one goroutine running alone, name it, and put the idle share near half of
// that phase.
func TestReportSeesALoneGoroutine(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("tracing unavailable: %v", err)
	}
	spin := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { spin(40 * time.Millisecond) })
	}
	wg.Wait()
	spin(60 * time.Millisecond) // alone, on the test's goroutine
	trace.Stop()

	var out bytes.Buffer
	if err := report(&buf, &out, 2, 5, -1, -1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	m := regexp.MustCompile(`; none running [0-9.]+ ms, one running ([0-9.]+) ms`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no summary line in:\n%s", text)
	}
	alone, _ := strconv.ParseFloat(m[1], 64)
	// The lone phase is 60 ms; the machine may run other work meanwhile,
	// and the runtime's own goroutines run now and then.
	if alone < 40 || alone > 200 {
		t.Errorf("one goroutine ran alone for %.1f ms, want about 60:\n%s", alone, text)
	}
	if !regexp.MustCompile(`ms alone  g\d+ after `).MatchString(text) {
		t.Errorf("no goroutine named as running alone:\n%s", text)
	}
}
