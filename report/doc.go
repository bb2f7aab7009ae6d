// Package report renders the results of a scan: a terminal table for people,
// and json / ndjson documents for programs. docs/output.md is the contract of
// the json and ndjson documents.
//
// Every renderer is deterministic (the same Scan gives the same bytes), and
// every string that came from an agent's log is treated as hostile: the table
// escapes control characters so no escape sequence reaches the terminal, and
// the JSON encoders escape them by construction.
package report
