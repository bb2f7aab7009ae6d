package adapters

import (
	"encoding/json"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A call that changes a file gets the edit intent: an editor's write, a
// patch, a shell command that redirects into a file, edits in place,
// tees or applies a patch, or a Python program on standard input that
// writes a file. Reads, searches, redirects to /dev/null or to another
// descriptor, and ">" inside quotes or a here-document's body do not.
// A shell tool called with {"restart": true} (Anthropic's bash tool, Trae
// Agent's) restarts the tool: its intent says so, whatever else it holds.
func TestShellRestartIntent(t *testing.T) {
	for _, c := range []struct {
		tool, args, want string
	}{
		{"bash", `{"restart": true}`, schema.IntentRestart},
		{"bash", `{"command": "", "restart": true}`, schema.IntentRestart},
		{"bash", `{"command": "ls", "restart": false}`, ""},
		{"bash", `{"command": "sed -i 's/a/b/' x.py"}`, schema.IntentEdit},
		{"search", `{"restart": true}`, ""},
	} {
		if got := callChange(c.tool, json.RawMessage(c.args)); got != c.want {
			t.Errorf("callChange(%s, %s) = %q, want %q", c.tool, c.args, got, c.want)
		}
	}
}

func TestEditsAreMarked(t *testing.T) {
	for _, c := range []struct {
		tool string
		args map[string]any
		want bool
	}{
		{"bash", map[string]any{"command": "cat <<'EOF' > reproduce.py\nif a > b:\n    pass\nEOF"}, true},
		{"bash", map[string]any{"command": "sed -i 's/x/y/' src/a.py"}, true},
		// perl edits in place whatever options come before -i.
		{"bash", map[string]any{"command": "perl -0777 -pe \"s/a/b/s\" -i django/contrib/admin/utils.py && echo patched"}, true},
		{"bash", map[string]any{"command": "perl -ne 'print if /-i/' setup.cfg"}, false},
		{"bash", map[string]any{"command": "echo 'x = 1' >> config.py"}, true},
		{"bash", map[string]any{"command": "git diff | tee /tmp/patch.diff"}, true},
		{"shell", map[string]any{"command": "git apply fix.patch"}, true},
		{"str_replace_editor", map[string]any{"command": "str_replace", "path": "/a.py"}, true},
		{"apply_patch", map[string]any{"patch": "*** Begin Patch"}, true},
		{"Edit", map[string]any{"file_path": "/a.py"}, true},
		{"find_and_replace_code", map[string]any{"file_path": "a.py", "find": "x", "replace": "y"}, true},
		{"bash", map[string]any{"command": "grep -rn 'a > b' src 2>/dev/null | head"}, false},
		{"bash", map[string]any{"command": "python -c \"print(1 > 0)\""}, false},
		{"bash", map[string]any{"command": "pytest -q > /dev/null 2>&1"}, false},
		{"bash", map[string]any{"command": "python - <<'EOF'\nprint(3 > 2)\nEOF"}, false},
		// A program quoted over several lines is one command line, the
		// redirect after it included; a comparison inside it is no redirect.
		{"bash", map[string]any{"command": "awk '{\n    print $0\n}' django/utils.py > /tmp/u.py && mv /tmp/u.py django/utils.py"}, true},
		{"bash", map[string]any{"command": "python -c \"\nimport sys\nprint(len(sys.argv) > 1)\n\""}, false},
		// A Python program on standard input edits when it writes a file.
		{"bash", map[string]any{"command": "python3 - <<'PY'\nfrom pathlib import Path\np = Path('sphinx/util/inspect.py')\np.write_text(p.read_text().replace('a', 'b'))\nPY"}, true},
		{"bash", map[string]any{"command": "python <<EOF\nwith open('setup.cfg', 'w') as f:\n    f.write('[x]')\nEOF"}, true},
		{"bash", map[string]any{"command": "python - <<'PY'\nprint(open('setup.cfg').read())\nPY"}, false},
		{"str_replace_editor", map[string]any{"command": "view", "path": "/a.py"}, false},
		// SWE-agent writes the editor's arguments as one string.
		{"str_replace_editor", map[string]any{"args": "str_replace /testbed/a.py --old_str 'x' --new_str 'y'"}, true},
		{"str_replace_editor", map[string]any{"args": "create /testbed/reproduce.py --file_text 'print(1)'"}, true},
		{"str_replace_editor", map[string]any{"args": "view /testbed/a.py --view_range 10 40"}, false},
		{"search", map[string]any{"q": "x > y"}, false},
		// A command handed to a shell is read as the shell runs it.
		{"bash", map[string]any{"command": "bash -lc 'python - << \"PY\"\np = \"a.py\"\nopen(p, \"w\").write(\"x\")\nPY'"}, true},
		{"bash", map[string]any{"command": "bash -lc \"grep -rn 'a > b' src\""}, false},
		// The mini-swe-agent research fork's action edits when the shell
		// command it hands exec_bash_cmd does, or it calls an editing helper.
		{"bash", map[string]any{"command": "@patch_generation\ndef fix():\n    return exec_bash_cmd(r\"\"\"python3 - <<'PY'\nfrom pathlib import Path\np = Path('a.py')\np.write_text(p.read_text().replace('\\n', ''))\nPY\"\"\")"}, true},
		{"bash", map[string]any{"command": "@patch_generation\ndef fix():\n    return exec_bash_cmd(\"sed -i 's/\\\"x\\\"/y/' a.py\")"}, true},
		{"bash", map[string]any{"command": "@patch_generation\ndef fix():\n    return code_replace('a.py', 'x', 'y')"}, true},
		{"bash", map[string]any{"command": "@bug_localization\ndef look():\n    return exec_bash_cmd(\"nl -ba a.py | sed -n '1,40p'\")"}, false},
		{"bash", map[string]any{"command": "@bug_localization\ndef look():\n    return exec_bash_cmd(\"python - <<'PY'\\nprint(open('a.py').read())\\nPY\")"}, false},
		{"bash", map[string]any{"command": "@debug\ndef run():\n    return exec_bash_cmd(cmd)"}, false},
		// The literal assigned to the variable it hands over, opened on a
		// line of its own, is the command.
		{"bash", map[string]any{"command": "@bug_localization\ndef patch():\n    cmd = \"sed -i 's/a/b/' inspect.py\"\n    return exec_bash_cmd(cmd)"}, true},
		{"bash", map[string]any{"command": "@bug_localization\ndef patch():\n    cmd = r\"\"\"\npython - << 'PY'\np = 'inspect.py'\nwith open(p, 'w') as f:\n    f.write('x')\nPY\n\"\"\"\n    return exec_bash_cmd(cmd)"}, true},
		{"bash", map[string]any{"command": "@bug_localization\ndef look():\n    cmd = \"grep -n 'a > b' inspect.py\"\n    return exec_bash_cmd(cmd)"}, false},
		// An action that looks, then edits, in two calls of the helper.
		{"bash", map[string]any{"command": "@patch_generation\ndef fix():\n    exec_bash_cmd(\"sed -n '1,20p' a.py\")\n    exec_bash_cmd(\"sed -i 's/a/b/' a.py\")\n    return exec_bash_cmd(\"pytest -q\")"}, true},
		// Or holds its shell command in a fenced block, which the harness
		// runs: a Python program there that writes a file edits; one that
		// only reads does not.
		{"bash", map[string]any{"command": "@debug\ndef fix_indentation():\n    ```bash\n    cd /testbed && python - <<'PY'\nfrom pathlib import Path\np=Path('a.py')\np.write_text(p.read_text().replace('x', 'y'))\nPY\n```"}, true},
		{"bash", map[string]any{"command": "@bug_localization\ndef look():\n    ```bash\n    cd /testbed && python - <<'PY'\nprint(open('a.py').read())\nPY\n```"}, false},
		{"bash", map[string]any{"command": "@debug\ndef show():\n    return exec_bash_cmd(\"python - <<'PY'\\nif a > b:\\n    print(a)\\nPY\")"}, false},
	} {
		args, _ := json.Marshal(c.args)
		if got := changesFile(c.tool, args); got != c.want {
			t.Errorf("%s %s: changes a file %v, want %v", c.tool, args, got, c.want)
		}
	}
}

// A shell call that installs a package gets an install intent naming what
// it installs: pip, npm, yarn, apt and the like. Listing packages, a test
// run whose arguments mention "install", and the words inside quotes do
// not.
func TestInstallsAreMarked(t *testing.T) {
	for _, c := range []struct {
		tool, cmd string
		want      bool
	}{
		{"bash", "cd /workspace && pip install 'pydantic<2' -q", true},
		{"bash", "python3 -m pip install -e .", true},
		{"bash", "npm ci && npm test", true},
		{"bash", "yarn add lodash", true},
		{"shell", "apt-get install -y maven", true},
		{"execute_bash", "go get example.com/x@v1.2.0", true},
		{"bash", "cd /workspace && ./mvnw install -pl dubbo-common -DskipTests -q", true},
		{"bash", "mvn -q clean install", true},
		{"bash", "mvn test -Dtest=InstallerTest", false},
		{"bash", "pip list | grep pydantic", false},
		{"bash", "npm test -- --grep install", false},
		{"bash", "echo 'run pip install x'", false},
		{"bash", "cat <<'EOF' > notes.md\npip install x\nEOF", false},
		{"grep", "pip install", false},
	} {
		args, _ := json.Marshal(map[string]string{"command": c.cmd})
		if got := installs(c.tool, args); got != c.want {
			t.Errorf("%s %q: installs %v, want %v", c.tool, c.cmd, got, c.want)
		}
	}
}

// The install intent names the install command without its options,
// quotes and what follows it: two installs of one package share it, two
// packages do not.
func TestInstallIntentNamesWhatIsInstalled(t *testing.T) {
	for cmd, want := range map[string]string{
		"cd /workspace && pip install -q 'pydantic<2' && python t.py": "install: pip install pydantic<2",
		"pip install pyyaml -q 2>/dev/null":                           "install: pip install pyyaml",
		"rm -rf node_modules/.x && npm install 2>&1 | tail -20":       "install: npm install",
		"npm install --no-audit | tail":                               "install: npm install",
		"./mvnw install -pl dubbo-common -DskipTests -q":              "install: mvnw install dubbo-common",
	} {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		if got := callChange("bash", args); got != want {
			t.Errorf("%q: intent %q, want %q", cmd, got, want)
		}
	}
}

// Reading a command for what it changes never panics, whatever its
// quoting: the shell wrapper, a stage-decorated action's string literal
// and a first line that ends outside quotes are all parsed from text an
// agent wrote.
func FuzzCallChange(f *testing.F) {
	for _, s := range []string{
		"bash -lc 'sed -i s/a/b/ x.py'",
		"@patch_generation\ndef f():\n    return exec_bash_cmd(r\"\"\"python - <<'PY'\nopen('a','w')\nPY\"\"\")",
		"@debug\ndef f():\n    return exec_bash_cmd(\"a\\\\\"",
		"awk '{\n print }' f > g",
		"echo \"unterminated",
		"sh -c \"cd /x && cat > y <<EOF\nz\nEOF\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		_ = callChange("bash", args)
		_ = commandSearches(cmd)
		_ = program(cmd)
	})
}
