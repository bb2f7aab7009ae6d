package adapters

import "testing"

// A Python program run from the command line prints for sure when a
// top-level statement prints literal text before anything could stop it;
// not when the print is conditional, in a loop or a string, after an
// exit, of no literal, to a file, or when the output goes elsewhere.
func TestPythonPrintsForSure(t *testing.T) {
	for cmd, want := range map[string]bool{
		"python3 - <<'PY'\nimport re\nprint('done')\nPY":                                                    true,
		"python - <<PY 2>&1\nfrom pathlib import Path\nprint(f\"size {len(x)}\")\nPY":                       true,
		"python3 - <<'PY'\nclass A: pass\ndef f():\n    return 1\nprint('value:', f())\nPY":                 true,
		"cd /testbed && python3 - <<'EOF'\nprint(\"ok\")\nEOF":                                              true,
		"python3 -u - <<'PY'\nimport sys\nprint('HAS_WIDGET:', w)\nPY":                                      true,
		"python -B -u <<EOF\nprint('done')\nEOF":                                                            true,
		`python -c "import sys; print('version', sys.version)"`:                                             true,
		`cd /testbed && python -c "print('hello')"`:                                                         true,
		"python3 - <<'PY'\nif x:\n    print('a')\nelse:\n    print('b')\nPY":                                true,
		"python3 - <<'PY'\nif x:\n    print('a')\nelif y:\n    print('b')\nPY":                              false,
		"python3 - <<'PY'\nif x:\n    s = 1\nelse:\n    print('b')\nPY":                                     false,
		"python3 - <<'PY'\nif x:\n    print('a')\n    sys.exit(1)\nelse:\n    print('b')\nPY":               false,
		"python3 - <<'PY'\nif x:\n    pass\n# why\nelse:\n    sys.exit(0)\nprint('x')\nPY":                  false,
		"python3 - <<'PY'\nif x:\n    pass\nprint('x')\nPY":                                                 true,
		"python3 - <<'PY'\ntry:\n    f()\n    print('OK')\nexcept Exception as e:\n    print('ERR', e)\nPY": true,
		"python3 - <<'PY'\ntry:\n    f()\n    print('OK')\nexcept Exception:\n    pass\nPY":                 false,
		"python3 - <<'PY'\nwith open('a') as f:\n    print('size', len(f.read()))\nPY":                      true,
		"python3 - <<'PY'\nfor l in lines:\n    if l: raise ValueError(l)\nprint('x')\nPY":                  false,
		"python3 - <<'PY'\nline = p.read_text().splitlines()[3]\nprint(repr(line))\nPY":                     true,
		"python3 - <<'PY'\nfor l in lines:\n    print('line', l)\nPY":                                       false,
		"python3 - <<'PY'\nimport sys\nsys.exit(0)\nprint('x')\nPY":                                         false,
		"python3 - <<'PY'\nraise SystemExit('no')\nprint('x')\nPY":                                          false,
		"python3 - <<'PY' > out.txt\nprint('x')\nPY":                                                        false,
		"python3 - <<'PY' | grep x\nprint('x')\nPY":                                                         false,
		"python3 - <<'PY'\nprint(x)\nPY":                                                                    false,
		"python3 - <<'PY'\nprint('')\nPY":                                                                   false,
		"python3 - <<'PY'\ns = '''\nprint('in a string')\n'''\nPY":                                          false,
		"python3 - <<'PY'\nx = dict(\nprint('an argument'))\nPY":                                            false,
		"python3 - <<'PY'\nx = 1 + \\\nprint('continued')\nPY":                                              false,
		"python3 - <<'PY'\nprint('never closed')":                                                           false,
		"cat > t.py <<'EOF'\nprint('x')\nEOF":                                                               false,
		`cd /w && pip install -e . && python -c "print('hi')"`:                                              false,
		`python3 -c "print('hi')" > log.txt`:                                                                false,
		`python3 -c "n = 3; print('more' if n > 2 else 'less')"`:                                            true,
		`python3 -c "import sys; print('hi', file=sys.stderr)"`:                                             false,
		`python3 -c "import x; x.main()"`:                                                                   false,
		`python3 script.py`:                                                                                 false,
	} {
		if got := printsForSure(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

// The research fork of mini-swe-agent labels every output; a stage action
// whose Python program prints for sure, answered with the label alone,
// lost its output (NO_OUTPUT). One that prints only on a condition keeps
// its blank answer.
func TestLabelledBlankAnswer(t *testing.T) {
	blank := "<returncode>0</returncode>\n<output>\nbash execution output:\n \n</output>"
	for action, want := range map[string]string{
		"@bug_localization\ndef show_line():\n    return exec_bash_cmd(\n        \"python3 - <<'PY'\\nfrom pathlib import Path\\nline = Path('a.py').read_text().splitlines()[3]\\nprint('LINE', repr(line))\\nPY\"\n    )":                                   "error NO_OUTPUT",
		"@patch_generation\ndef fix():\n    return exec_bash_cmd(\n        \"python3 - <<'PY'\\nfrom pathlib import Path\\np = Path('a.py')\\ns = p.read_text()\\nif 'x' in s:\\n    p.write_text(s.replace('x', 'y'))\\n    print('REPLACED')\\nPY\"\n    )": "ok",
	} {
		c, run := convertOne(t, MiniSWEAgent, miniV1(t, action, blank))
		if got := result(c.step(t, run, 2)); got != want {
			t.Errorf("%q: %s, want %s", action, got, want)
		}
	}
}
