package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Repetition must survive volatile output: every bundled run, runaway or
// healthy, keeps its verdict, cause, onset and detectors when each text
// result gains a line of what changes by itself from one call to the next
// (a time of day opening the line, a duration, a temp path), different at
// every step. The runs are written as fixtures (their steps as read, and
// want files with what runaway says of them), the copies perturbed, and
// the copies verified against the same want files.
func TestVerdictsSurviveVolatileOutput(t *testing.T) {
	plain := t.TempDir()
	if code, _, stderr := runCLI(t, "", "fixture", "--all-flagged", "--no-redact", fixturesDir, "--out", plain); code != exitClean {
		t.Fatalf("fixture: exit %d: %s", code, stderr)
	}
	healthy, err := filepath.Glob(filepath.Join(fixturesDir, "healthy", "*"))
	if err != nil || len(healthy) == 0 {
		t.Fatalf("no healthy fixtures: %v", err)
	}
	for _, f := range healthy {
		copyFile(t, f, filepath.Join(plain, filepath.Base(f)))
	}

	noisy := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	entries, err := os.ReadDir(plain)
	if err != nil {
		t.Fatal(err)
	}
	perturbed := 0
	for _, e := range entries {
		src, dst := filepath.Join(plain, e.Name()), filepath.Join(noisy, e.Name())
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			copyFile(t, src, dst)
			continue
		}
		perturbed += perturbResults(t, src, dst, rng)
	}
	if perturbed < 100 {
		t.Fatalf("%d text results perturbed: the fixtures hold too few to test anything", perturbed)
	}

	code, out, stderr := runCLI(t, "", "verify", noisy)
	if code != exitClean || !strings.Contains(out, " 0 failed") {
		t.Errorf("verify of the runs with volatile lines added: exit %d\n%s%s", code, out, stderr)
	}
}

// perturbResults copies the step lines of src to dst, a line of volatile
// tokens appended to every text result, and returns how many it changed.
func perturbResults(t *testing.T, src, dst string, rng *rand.Rand) int {
	t.Helper()
	in, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var step map[string]any
		if err := dec.Decode(&step); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if r, ok := step["tool_result"].(map[string]any); ok {
			if text, ok := r["data"].(string); ok && strings.TrimSpace(text) != "" {
				r["data"] = text + fmt.Sprintf("\n2026-12-03T05:%02d:%02d.%03dZ done in %.2fs, log /tmp/tmp%08x/out.log",
					rng.IntN(60), rng.IntN(60), rng.IntN(1000), 0.1+9*rng.Float64(), rng.Uint32())
				n++
			}
		}
		b, err := json.Marshal(step)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
