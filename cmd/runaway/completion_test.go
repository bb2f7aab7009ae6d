package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
)

// Each shell's script is printed on stdout, names every command and every
// flag of scan, and offers the values the code lists; the shell, where it
// is installed, reads it without a syntax error (bash is, here and in CI).
func TestCompletionScripts(t *testing.T) {
	var scanFlags []string
	lookupCommand("scan").flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			scanFlags = append(scanFlags, f.Name)
		}
	})
	values := append(append(append(append([]string{}, report.Formats...), ingest.InputFormats()...), colorModes...), pipeline.FailOnLevels...)
	values = append(values, "junit=", "parquet=")
	for _, sh := range completionShells {
		t.Run(sh, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "completion", sh)
			if code != exitClean || stderr != "" || out == "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, c := range commands() {
				if !strings.Contains(out, c.name) {
					t.Errorf("the %s script does not name command %s", sh, c.name)
				}
			}
			for _, f := range scanFlags {
				if !strings.Contains(out, "--"+f) && !strings.Contains(out, "-l "+f+" ") {
					t.Errorf("the %s script lacks scan --%s", sh, f)
				}
			}
			for _, v := range values {
				if !strings.Contains(out, v) {
					t.Errorf("the %s script does not offer %q", sh, v)
				}
			}
			checkSyntax(t, sh, out)
		})
	}
	if code, _, stderr := runCLI(t, "", "completion", "tcsh"); code != exitUsage || !strings.Contains(stderr, "bash, zsh, fish") {
		t.Errorf("completion tcsh: exit %d %q", code, stderr)
	}
}

// checkSyntax has the shell parse the script without running it.
func checkSyntax(t *testing.T, sh, script string) {
	t.Helper()
	bin, err := exec.LookPath(sh)
	if err != nil {
		if sh == "bash" {
			t.Fatalf("bash is not installed: its syntax check must run")
		}
		t.Logf("%s is not installed: syntax not checked", sh)
		return
	}
	path := filepath.Join(t.TempDir(), "runaway."+sh)
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	switch sh {
	case "fish":
		cmd = exec.Command(bin, "--no-execute", path)
	default:
		cmd = exec.Command(bin, "-n", path)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s -n: %v\n%s", sh, err, out)
	}
}

// bash completes for real: the commands, scan's flags, --format's values
// and --input-format's, through the function the script registers.
func TestBashCompletionCompletes(t *testing.T) {
	bin, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	_, script, _ := runCLI(t, "", "completion", "bash")
	path := filepath.Join(t.TempDir(), "runaway.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) []string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shQuote(w)
		}
		prog := "source " + shQuote(path) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_runaway\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		out, err := exec.Command(bin, "--norc", "--noprofile", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", words, err, out)
		}
		return strings.Fields(string(out))
	}
	has := func(got []string, want ...string) {
		t.Helper()
		for _, w := range want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("completions %v lack %q", got, w)
			}
		}
	}
	has(complete("runaway", "sc"), "scan", "schema")
	has(complete("runaway", "scan", "--fo"), "--format")
	has(complete("runaway", "scan", "--format", ""), report.Formats...)
	has(complete("runaway", "scan", "--input-format", "lang"), "langfuse", "langsmith")
	has(complete("runaway", "explain", "--color", ""), colorModes...)
	has(complete("runaway", "scan", "--output", "ju"), "junit=")
	has(complete("runaway", "help", "ex"), "explain")
}
