// Package report renders the results of a scan: a terminal table for people,
// json / ndjson documents for programs, a self-contained HTML page, Parquet
// and Prometheus files. docs/output.md is the contract of the json and
// ndjson documents. It also holds the escaping every renderer of log text
// shares (Sanitize for terminals, MarkdownText and MarkdownCode) and the
// redaction of a result's evidence (RedactRun).
//
// Every renderer is deterministic (the same Scan gives the same bytes), and
// every string that came from an agent's log is treated as hostile: the table
// escapes control characters so no escape sequence reaches the terminal, the
// JSON encoders escape them by construction, and the HTML page sanitizes
// them and lets html/template escape the markup.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package report
