package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerated fails when a file generated from the commands table is not
// what the code says: the man page, and the reference part of
// docs/cli.md. -update rewrites them.
func TestGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	check := func(path, want string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil && !(*update && os.IsNotExist(err)) {
			t.Fatal(err)
		}
		if string(got) == want {
			return
		}
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s is stale: run go test ./cmd/runaway -run TestGenerated -update", path)
	}
	check(filepath.Join(root, manPath), manPage())

	docPath := filepath.Join(root, cliDocPath)
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	page := string(doc)
	i, j := strings.Index(page, cliGeneratedBegin), strings.Index(page, cliGeneratedEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the generated reference's markers", docPath)
	}
	check(docPath, page[:i]+cliGeneratedBegin+"\n"+cliReference()+cliGeneratedEnd+page[j+len(cliGeneratedEnd):])
}
