package pipeline

// The --format values of the jobs other than scan (report.Formats) and
// explain (ExplainFormats), the first the default. One thing has one name
// in every command: table for people, json for one document, md for
// Markdown, junit for JUnit XML (docs/cli.md, "Formats").
var (
	EvalFormats   = []string{"table", "json"}
	ReplayFormats = []string{"table", "json"}
	VerifyFormats = []string{"table", "junit"}
)
