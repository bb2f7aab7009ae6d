package main

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/replay"
)

// command is one subcommand as every place that names it sees it: the
// dispatcher, help, the command list, shell completion, the man page and
// docs/cli.md all read commands(), so none of them can drift from the
// flags a command really takes.
type command struct {
	name     string
	synopsis []string // usage lines after "runaway NAME"
	listed   string   // the arguments the command list shows, when shorter than synopsis[0]
	summary  string   // its line in the command list
	about    string   // what help says above the flags
	// flags makes the command's flag set, bound to values of its own; nil
	// for a command without flags.
	flags func() *pflag.FlagSet
	// operands is what a shell completes the arguments to.
	operands operandKind
	run      func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// operandKind is what a command's positional arguments are, for completion.
type operandKind int

const (
	operandsNone      operandKind = iota
	operandsFiles                 // input paths
	operandsDirs                  // directories
	operandsCommands              // command names (help)
	operandsShells                // shell names (completion)
	operandsDetectors             // detector ids (detectors)
)

// commands is the table of subcommands, in the order the command list
// shows them. It is a function, not a variable, because help, completion
// and man read it and are in it.
func commands() []command {
	return []command{
		{name: "scan", synopsis: []string{"[flags] PATH..."},
			summary: "analyze logs: files, directories, globs, - for stdin",
			about: "Reads agent step logs and reports which runs ran away, why, from which step, and what it cost.\n" +
				"PATH is a file, a directory (read recursively), a glob, an s3:// or gs:// URL, or - for stdin.\n" +
				".gz and .zst input is read transparently; Parquet tables are recognised by their content.\n" +
				"Exit codes: 0 nothing at or above --fail-on, 1 runs at or above --fail-on, 2 usage error,\n" +
				"3 runtime failure.",
			flags: func() *pflag.FlagSet { return new(scanCmd).flagSet() }, operands: operandsFiles, run: runScan},
		{name: "explain", synopsis: []string{"RUN_ID [--run ID]... [flags] PATH..."}, listed: "RUN_ID PATH...",
			summary: "one run step by step: timeline, loop, cause, the guard that stops it",
			about: "Explains runs step by step: a timeline with the loop segment marked and repeated steps\n" +
				"folded, the onset, the memory that contaminated the loop, the verdict, root cause, waste,\n" +
				"and the guard that would have stopped the run (docs/explain.md). Only the lines that can\n" +
				"hold the run ids are decoded.",
			flags: func() *pflag.FlagSet { return new(explainCmd).flagSet() }, operands: operandsFiles, run: runExplain},
		{name: "replay", synopsis: []string{"[--guard NAME[:param=value,...]]... [flags] PATH..."}, listed: "[--guard NAME]... PATH...",
			summary: "replay runtime guards over the logs: what each would have stopped",
			about: "Replays runtime guards over the runs, step by step, and reports per guard the runaway runs it\n" +
				"would have stopped (at which step, how soon after the onset, what it saves), the runaway runs\n" +
				"it misses, and the healthy runs it would have stopped, with its reason.\n" +
				"Guards: " + strings.Join(replay.Names(), ", ") + " ('runaway replay --list' shows params and sources).",
			flags: func() *pflag.FlagSet { return new(replayCmd).flagSet() }, operands: operandsFiles, run: runReplay},
		{name: "eval", synopsis: []string{"--labels FILE [flags] PATH..."}, listed: "--labels FILE PATH...",
			summary: "score the verdicts against --labels: precision, recall, causes",
			about: "Scans the logs and scores the verdicts against the labels: precision, recall and F1 of the\n" +
				"runaway verdict, the root-cause confusion matrix, onset accuracy (+-2 steps), and the healthy\n" +
				"runs flagged, per confounder. Findings are not failures: the exit code is 0 unless a --min-*\n" +
				"threshold is missed (1), the flags are wrong (2) or the input cannot be read (3).",
			flags: func() *pflag.FlagSet { return new(evalCmd).flagSet() }, operands: operandsFiles, run: runEval},
		{name: "gen", synopsis: []string{"[flags]"},
			summary: "write a labelled synthetic corpus",
			about: "Writes a deterministic synthetic corpus of agent step logs with one labelled\n" +
				"runaway pattern per runaway run and realistic confounders in healthy runs.",
			flags: func() *pflag.FlagSet { return new(genCmd).flagSet() },
			run:   func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runGen(args, stdout, stderr) }},
		{name: "fixture", synopsis: []string{"RUN_ID PATH... --out DIR [--run ID]... [flags]", "--all-flagged PATH... --out DIR [flags]"},
			listed:  "RUN_ID PATH... --out DIR",
			summary: "write a run as a redacted regression fixture (--out DIR)",
			about: "Writes each run as DIR/<name>.jsonl (its steps, redacted unless --no-redact) and\n" +
				"DIR/<name>.want.json (its verdict, root cause, onset step and detectors), the format\n" +
				"'runaway verify' and fixtures/ use (docs/fixtures.md). <name> is the run id made safe.",
			flags: func() *pflag.FlagSet { return new(fixtureCmd).flagSet() }, operands: operandsFiles, run: runFixture},
		{name: "verify", synopsis: []string{"[flags] DIR..."},
			summary: "check fixtures against their want files",
			about: "Checks every fixture under DIR (a <name>.jsonl with its <name>.want.json, recursively):\n" +
				"runaway's verdict, root cause, onset step and detectors must match the want file.\n" +
				"Exit codes: 0 all match, 1 a fixture does not match, 2 usage error,\n" +
				"3 a fixture cannot be read, holds rejected lines or has no want file.",
			flags: func() *pflag.FlagSet { return new(verifyCmd).flagSet() }, operands: operandsDirs,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runVerify(args, stdout, stderr) }},
		{name: "detectors", synopsis: []string{"[ID|slug]"},
			summary: "list the detectors, or print one's document",
			about:   "Lists the detectors with their root cause and thresholds (key=default, and where the default\ncomes from), or prints one detector's page.",
			flags:   func() *pflag.FlagSet { return newFlagSet("detectors") }, operands: operandsDetectors,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return runDetectors(args, stdout, stderr)
			}},
		{name: "schema", synopsis: []string{""},
			summary: "print the input JSON Schema",
			about:   "Prints the JSON Schema of runaway's input step lines (docs/schema.md).",
			flags:   func() *pflag.FlagSet { return newFlagSet("schema") },
			run:     func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runSchema(args, stdout, stderr) }},
		{name: "completion", synopsis: []string{"bash|zsh|fish"},
			summary: "print a shell completion script",
			about: "Prints a completion script for the shell: subcommands, their flags, and the values of\n" +
				"flags that take one of a list. Load it with, for example:\n" +
				"  bash: source <(runaway completion bash)\n" +
				"  zsh:  runaway completion zsh > \"${fpath[1]}/_runaway\"\n" +
				"  fish: runaway completion fish > ~/.config/fish/completions/runaway.fish",
			flags: func() *pflag.FlagSet { return newFlagSet("completion") }, operands: operandsShells,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return runCompletion(args, stdout, stderr)
			}},
		{name: "man", synopsis: []string{""},
			summary: "print the manual page (roff; man -l <(runaway man) shows it)",
			about:   "Prints runaway's manual page in roff, the text of docs/man/runaway.1.",
			flags:   func() *pflag.FlagSet { return newFlagSet("man") },
			run:     func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runMan(args, stdout, stderr) }},
		{name: "help", synopsis: []string{"[COMMAND]"},
			summary: "list the commands, or print one's help",
			about:   "Lists the commands, or prints a command's help, as 'runaway COMMAND --help' does.",
			flags:   func() *pflag.FlagSet { return newFlagSet("help") }, operands: operandsCommands,
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runHelp(args, stdout, stderr) }},
		{name: "version", synopsis: []string{""},
			summary: "print the version",
			about:   "Prints runaway's version, the input and output schema versions, and the Go version.",
			flags:   func() *pflag.FlagSet { return newFlagSet("version") },
			run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return runVersion(args, stdout, stderr)
			}},
	}
}

// lookupCommand is the command of that name, or nil.
func lookupCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return &c
		}
	}
	return nil
}

// newFlagSet is a command's flag set: errors come back to the caller,
// which says them once on stderr, and help is printed by writeHelp, on
// stdout when asked for.
func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}
