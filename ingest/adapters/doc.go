// Package adapters turns the logs that agent frameworks write into runaway's
// steps (schema v1): SWE-agent and mini-swe-agent trajectories, OpenHands
// event histories, OpenAI-style chat conversations with tool calls,
// Anthropic Messages conversations and Claude Code session transcripts,
// and the spans of tracing formats (OTLP, Langfuse, LangSmith, the OpenAI
// Agents SDK). Each Format is data (its name, what it reads) plus two
// functions: one that recognises a document, one that converts it.
// Registry lists them in the order they are tried; there is no init()
// registration.
//
// A step's number is its position in the source's own list (0-based), so a
// report's step 12 is entry 12 of the file, and the run is named after the
// file (and the entry within it), so a person can find it. The state of a
// step, and whether its output is an error or empty, are inferred by the
// rules each format's page in docs/adapters/ lists.
//
// The package imports schema only: it must not import ingest, detect or
// report, so converting a document never depends on how it is read or
// analysed.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package adapters
