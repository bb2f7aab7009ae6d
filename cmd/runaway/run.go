package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// Exit codes (docs/design.md, "The contract"); pipeline.ExitCode maps a
// job's error to them.
const (
	exitClean    = pipeline.ExitClean    // nothing at or above --fail-on
	exitFindings = pipeline.ExitFindings // runs at or above --fail-on
	exitUsage    = pipeline.ExitUsage    // bad flags or arguments
	exitFailure  = pipeline.ExitFailure  // could not run: unreadable input, failed output, --strict rejects
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
			fmt.Fprintf(stderr, "runaway schema: %s\n", errText(err))
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

// parseFlags parses a command's flags; ok is false when the command must
// end with code (0 after --help, 2 after a bad flag).
func parseFlags(fs *pflag.FlagSet, args []string, cmd string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean, false
		}
		fmt.Fprintf(stderr, "runaway %s: %s\n", cmd, errText(err))
		return exitUsage, false
	}
	return exitClean, true
}

// errText is an error's message for the terminal: errors name files and
// quote input, so control characters are shown escaped (report.Sanitize),
// as every string from a log or a file name is.
func errText(err error) string { return report.Sanitize(err.Error()) }

// exit says on stderr why a job stopped, unless the job has said it
// already, with the command's usage after a usage error that asks for it,
// and returns the exit code.
func exit(cmd string, fs *pflag.FlagSet, stderr io.Writer, err error) int {
	if err != nil && !pipeline.Reported(err) {
		fmt.Fprintf(stderr, "runaway %s: %s\n", cmd, errText(err))
		var usage *pipeline.UsageError
		if errors.As(err, &usage) && usage.ShowUsage {
			fs.Usage()
		}
	}
	return pipeline.ExitCode(err)
}

// interruptible is the context of a job: until stop, SIGINT, SIGTERM,
// SIGHUP (the terminal closed) and SIGQUIT cancel it instead of killing the
// process, so that the job removes its temporary files, commits no output,
// and ends with the interrupted exit code, 3. SIGQUIT would otherwise end
// the process with exit 2, the usage code; it still prints every
// goroutine's stack to stderr first, which is what it is sent for when a
// job hangs.
func interruptible(stderr io.Writer) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			if sig == syscall.SIGQUIT {
				fmt.Fprintln(stderr, "runaway: SIGQUIT: the stacks of every goroutine follow; stopping")
				_ = pprof.Lookup("goroutine").WriteTo(stderr, 2)
			}
			cancel()
		case <-done:
			return
		}
		// A job blocked where a signal cannot reach it (a read of a
		// terminal or of a pipe whose writer is idle) would never end: a
		// second signal ends the process at once. Its temporary files are
		// removed by the next run (internal/tmpfiles).
		select {
		case <-sigs:
			fmt.Fprintln(stderr, "runaway: second signal: exiting now, without cleaning up")
			os.Exit(exitFailure)
		case <-done:
		}
	}()
	return ctx, func() {
		// Signals that come later, while the job cleans up, are caught too:
		// signal.Stop only after the job has returned.
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// colorWanted: colour only on a terminal, and never when NO_COLOR is set
// (https://no-color.org).
func colorWanted(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
