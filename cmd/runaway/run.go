package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/runawayhq/runaway/schema"
)

// Exit codes (docs/design.md, "The contract").
const (
	exitClean    = 0 // nothing at or above --fail-on
	exitFindings = 1 // runs at or above --fail-on
	exitUsage    = 2 // bad flags or arguments
	exitFailure  = 3 // could not run: unreadable input, failed output, --strict rejects
)

const usageText = `runaway finds AI-agent runs that ran away in step logs (JSON Lines).

Usage:
  runaway scan [flags] PATH...     analyze logs: files, directories, globs, - for stdin
  runaway explain RUN_ID PATH...   one run step by step: timeline, loop, cause, the guard that stops it
  runaway replay [flags] PATH...   replay runtime guards over the logs: what each would have stopped
  runaway eval [flags] PATH...     score the verdicts against --labels: precision, recall, causes
  runaway gen [flags]              write a labelled synthetic corpus
  runaway fixture RUN_ID PATH...   write a run as a redacted regression fixture (--out DIR)
  runaway verify [flags] DIR...    check fixtures against their want files
  runaway detectors [ID]           list the detectors, or print one's document
  runaway schema                   print the input JSON Schema
  runaway version                  print the version

Run 'runaway COMMAND --help' for a command's flags.
Exit codes: 0 clean, 1 runs at or above --fail-on, 2 usage error, 3 runtime failure.
`

// run is the whole program; main only wraps it so tests can call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	defer startProfile(stderr)()
	switch cmd {
	case "scan":
		return runScan(rest, stdin, stdout, stderr)
	case "replay":
		return runReplay(rest, stdin, stdout, stderr)
	case "explain":
		return runExplain(rest, stdin, stdout, stderr)
	case "eval":
		return runEval(rest, stdin, stdout, stderr)
	case "gen":
		return runGen(rest, stdout, stderr)
	case "fixture":
		return runFixture(rest, stdin, stdout, stderr)
	case "verify":
		return runVerify(rest, stdin, stdout, stderr)
	case "detectors":
		return runDetectors(rest, stdout, stderr)
	case "schema":
		if len(rest) > 0 {
			fmt.Fprintln(stderr, "runaway schema: takes no arguments")
			return exitUsage
		}
		if _, err := stdout.Write(schema.JSONSchema); err != nil {
			fmt.Fprintf(stderr, "runaway schema: %v\n", err)
			return exitFailure
		}
		return exitClean
	case "version", "--version":
		fmt.Fprintf(stdout, "runaway %s (input schema v%s, output schema v%s, %s)\n",
			schema.ProductVersion, schema.Version, schema.OutputVersion, runtime.Version())
		return exitClean
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText)
		return exitClean
	}
	fmt.Fprintf(stderr, "runaway: unknown command %q\n\n%s", cmd, usageText)
	return exitUsage
}
