package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
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
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		writeShortUsage(stderr, cmd)
		return exitUsage, false
	}
	return exitClean, true
}

// exit says on stderr why a job stopped, unless the job has said it
// already, with the command's usage after a usage error that asks for it,
// and returns the exit code.
func exit(cmd string, stderr io.Writer, err error) int {
	if err != nil && !pipeline.Reported(err) {
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
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
		fmt.Fprintf(stderr, "runaway schema: %v\n", err)
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

// interruptible is the context of a job: until stop, SIGINT and SIGTERM
// cancel it instead of killing the process, so that the job removes its
// temporary files and writes no report.
func interruptible() (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
