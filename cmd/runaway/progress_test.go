package main

import (
	"bytes"
	"strings"
	"testing"
)

// Without a terminal (a pipe, a file, a CI log) nothing but messages reaches
// stderr: no bar, no carriage returns.
func TestNoProgressBarWithoutATerminal(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "../../fixtures/"}, strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.ContainsAny(stderr.String(), "\r\x1b") {
		t.Fatalf("stderr has control characters: %q", stderr.String())
	}
	if isTerminal(&stderr) {
		t.Fatal("a buffer is not a terminal")
	}
}
