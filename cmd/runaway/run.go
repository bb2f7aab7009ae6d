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

// run is the whole program; main only wraps it so tests can call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeCommandList(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "--help":
		name = "help"
	case "--version":
		name = "version"
	}
	c := lookupCommand(name)
	if c == nil {
		fmt.Fprintf(stderr, "runaway: unknown command %q\n\n", name)
		writeCommandList(stderr)
		return exitUsage
	}
	defer startProfile(stderr)()
	return c.run(rest, stdin, stdout, stderr)
}

// parseFlags parses a command's flags; ok is false when the command must
// end with code: 0 after --help or -h, whose help goes to stdout (it is
// what was asked for), 2 after a bad flag.
func parseFlags(fs *pflag.FlagSet, args []string, cmd string, stdout, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(stderr) // pflag's own warnings (deprecations)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			writeHelp(stdout, lookupCommand(cmd), fs)
			return exitClean, false
		}
		fmt.Fprintf(stderr, "runaway %s: %s\n", cmd, errText(err))
		writeShortUsage(stderr, cmd)
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
func exit(cmd string, stderr io.Writer, err error) int {
	if err != nil && !pipeline.Reported(err) {
		fmt.Fprintf(stderr, "runaway %s: %s\n", cmd, errText(err))
		var usage *pipeline.UsageError
		if errors.As(err, &usage) && usage.ShowUsage {
			writeShortUsage(stderr, cmd)
		}
	}
	return pipeline.ExitCode(err)
}

// noOperands parses the flags of a command that takes no argument.
func noOperands(args []string, cmd string, stdout, stderr io.Writer) (code int, ok bool) {
	fs := lookupCommand(cmd).flags()
	if code, ok := parseFlags(fs, args, cmd, stdout, stderr); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "runaway %s: takes no arguments\n", cmd)
		writeShortUsage(stderr, cmd)
		return exitUsage, false
	}
	return exitClean, true
}

func runSchema(args []string, stdout, stderr io.Writer) int {
	if code, ok := noOperands(args, "schema", stdout, stderr); !ok {
		return code
	}
	if _, err := stdout.Write(schema.JSONSchema); err != nil {
		fmt.Fprintf(stderr, "runaway schema: %s\n", errText(err))
		return exitFailure
	}
	return exitClean
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if code, ok := noOperands(args, "version", stdout, stderr); !ok {
		return code
	}
	fmt.Fprintf(stdout, "runaway %s (input schema v%s, output schema v%s, %s)\n",
		schema.ProductVersion, schema.Version, schema.OutputVersion, runtime.Version())
	return exitClean
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
