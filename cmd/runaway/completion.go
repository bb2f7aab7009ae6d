package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
)

// completionShells are the shells 'runaway completion' writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// pathFlags are the flags whose value is a file or a directory, which a
// shell completes from the file system; a flag with a list of values
// (setValues) completes to those, and any other to nothing.
var pathFlags = []string{"out", "rejects", "prices", "policy", "labels", "spill-dir", "redact-key-file", "include", "exclude"}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	fs := lookupCommand("completion").flags()
	if code, ok := parseFlags(fs, args, "completion", stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 || !slices.Contains(completionShells, fs.Arg(0)) {
		fmt.Fprintf(stderr, "runaway completion: want one shell: %s\n", strings.Join(completionShells, ", "))
		writeShortUsage(stderr, "completion")
		return exitUsage
	}
	var script string
	switch fs.Arg(0) {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	}
	if _, err := io.WriteString(stdout, script); err != nil {
		fmt.Fprintf(stderr, "runaway completion: %v\n", err)
		return exitFailure
	}
	return exitClean
}

// complFlag is a flag as completion sees it.
type complFlag struct {
	name, short string
	help        string   // its first clause, for the shells that show one
	takesValue  bool     // not a bool
	repeatable  bool     // may be given again
	values      []string // the values it takes, when the code has the list
	path        bool     // a file or a directory
}

// complCommand is a command as completion sees it.
type complCommand struct {
	name, summary string
	flags         []complFlag
	operands      []string // the words its arguments complete to, if not files
	files         bool     // its arguments are paths
}

// completionModel reads the commands table: what every shell's script is
// made of.
func completionModel() []complCommand {
	var out []complCommand
	for _, c := range commands() {
		cc := complCommand{name: c.name, summary: c.summary}
		switch c.operands {
		case operandsFiles, operandsDirs:
			cc.files = true
		case operandsCommands:
			for _, o := range commands() {
				cc.operands = append(cc.operands, o.name)
			}
		case operandsShells:
			cc.operands = completionShells
		case operandsDetectors:
			for _, d := range detect.Registry {
				cc.operands = append(cc.operands, d.ID, d.Slug)
			}
		}
		fs := c.flags()
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			typ := f.Value.Type()
			cc.flags = append(cc.flags, complFlag{
				name: f.Name, short: f.Shorthand, help: firstClause(f.Usage),
				takesValue: typ != "bool",
				repeatable: strings.HasSuffix(typ, "Array") || strings.HasSuffix(typ, "Slice"),
				values:     flagValues(f),
				path:       slices.Contains(pathFlags, f.Name),
			})
		})
		out = append(out, cc)
	}
	return out
}

// firstClause is a flag's help up to its first comma, semicolon or
// parenthesis: what fits beside a completion.
func firstClause(s string) string {
	if i := strings.IndexAny(s, ";(:,"); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func commandNames(cmds []complCommand) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return strings.Join(names, " ")
}

// bashCompletion is a bash script: the command word, then per command its
// flags, a flag's values or files, and its arguments.
func bashCompletion() string {
	cmds := completionModel()
	var b strings.Builder
	b.WriteString(`# bash completion for runaway; written by 'runaway completion bash'.
# Load it with: source <(runaway completion bash)
_runaway() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    COMPREPLY=()
    if [[ ${COMP_CWORD} -eq 1 ]]; then
        COMPREPLY=($(compgen -W "` + commandNames(cmds) + `" -- "$cur"))
        return 0
    fi
    case "${COMP_WORDS[1]}" in
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)\n", c.name)
		var valued []string
		var flagWords []string
		for _, f := range c.flags {
			words := []string{"--" + f.name}
			if f.short != "" {
				words = append(words, "-"+f.short)
			}
			flagWords = append(flagWords, words...)
			if !f.takesValue {
				continue
			}
			pattern := strings.Join(words, "|")
			switch {
			case f.values != nil:
				valued = append(valued, fmt.Sprintf("            %s) COMPREPLY=($(compgen -W %s -- \"$cur\")); return 0 ;;\n", pattern, shQuote(strings.Join(f.values, " "))))
			case f.path:
				valued = append(valued, fmt.Sprintf("            %s) COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n", pattern))
			default:
				valued = append(valued, fmt.Sprintf("            %s) return 0 ;;\n", pattern))
			}
		}
		if len(valued) > 0 {
			b.WriteString("        case \"$prev\" in\n")
			for _, v := range valued {
				b.WriteString(v)
			}
			b.WriteString("        esac\n")
		}
		fmt.Fprintf(&b, "        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W %s -- \"$cur\"))\n            return 0\n        fi\n",
			shQuote(strings.Join(append(flagWords, "--help"), " ")))
		switch {
		case c.files:
			b.WriteString("        COMPREPLY=($(compgen -f -- \"$cur\"))\n")
		case c.operands != nil:
			fmt.Fprintf(&b, "        COMPREPLY=($(compgen -W %s -- \"$cur\"))\n", shQuote(strings.Join(c.operands, " ")))
		}
		b.WriteString("        ;;\n")
	}
	b.WriteString(`    esac
    return 0
}
complete -o default -o bashdefault -F _runaway runaway
`)
	return b.String()
}

// shQuote quotes s for a POSIX shell (bash, zsh): single quotes, with each
// single quote closed, escaped and reopened.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshCompletion is a zsh script for fpath (a file named _runaway) or to
// source: _arguments with a description per flag.
func zshCompletion() string {
	cmds := completionModel()
	var b strings.Builder
	b.WriteString(`#compdef runaway
# zsh completion for runaway; written by 'runaway completion zsh'.
# Install it as _runaway in a directory of $fpath, or source it.
_runaway() {
    local -a commands
    commands=(
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "        %s\n", shQuote(c.name+":"+zshDesc(c.summary)))
	}
	b.WriteString(`    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'runaway command' commands
        return
    fi
    local cmd=${words[2]}
    shift words
    (( CURRENT-- ))
    case $cmd in
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)\n        _arguments -s \\\n", c.name)
		for _, f := range c.flags {
			spec := "[" + zshDesc(f.help) + "]"
			if f.takesValue {
				action := " "
				switch {
				case f.values != nil:
					action = "(" + strings.Join(f.values, " ") + ")"
				case f.path:
					action = "_files"
				}
				spec += ":" + f.name + ":" + action
			}
			repeat := ""
			if f.repeatable {
				repeat = "*"
			}
			if f.short != "" {
				fmt.Fprintf(&b, "            %s{-%s,--%s}%s \\\n", shQuote(repeat+"(-"+f.short+" --"+f.name+")"), f.short, f.name, shQuote(spec))
			} else {
				fmt.Fprintf(&b, "            %s \\\n", shQuote(repeat+"--"+f.name+spec))
			}
		}
		b.WriteString("            '(- *)'{-h,--help}'[print the help]'")
		switch {
		case c.files:
			fmt.Fprintf(&b, " \\\n            %s", shQuote("*:path:_files"))
		case c.operands != nil:
			fmt.Fprintf(&b, " \\\n            %s", shQuote("*:argument:("+strings.Join(c.operands, " ")+")"))
		}
		b.WriteString("\n        ;;\n")
	}
	b.WriteString(`    esac
}
if [[ "${funcstack[1]}" == "_runaway" ]]; then
    _runaway "$@"
else
    compdef _runaway runaway
fi
`)
	return b.String()
}

// zshDesc makes text safe inside an _arguments description: brackets and
// colons have a meaning there.
func zshDesc(s string) string {
	return strings.NewReplacer("[", "(", "]", ")", ":", " -", "\\", "/").Replace(s)
}

// fishCompletion is a fish script: one complete line per command and flag.
func fishCompletion() string {
	cmds := completionModel()
	var b strings.Builder
	b.WriteString(`# fish completion for runaway; written by 'runaway completion fish'.
# Install it as ~/.config/fish/completions/runaway.fish
complete -c runaway -f
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c runaway -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := fishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			line := "complete -c runaway -n " + cond
			if f.short != "" {
				line += " -s " + f.short
			}
			line += " -l " + f.name
			switch {
			case f.values != nil:
				line += " -x -a " + fishQuote(strings.Join(f.values, " "))
			case f.path:
				line += " -r -F"
			case f.takesValue:
				line += " -x"
			}
			b.WriteString(line + " -d " + fishQuote(f.help) + "\n")
		}
		switch {
		case c.files:
			fmt.Fprintf(&b, "complete -c runaway -n %s -F\n", cond)
		case c.operands != nil:
			fmt.Fprintf(&b, "complete -c runaway -n %s -a %s\n", cond, fishQuote(strings.Join(c.operands, " ")))
		}
	}
	return b.String()
}

// fishQuote quotes s for fish: single quotes, in which only \' and \\ are
// escapes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
