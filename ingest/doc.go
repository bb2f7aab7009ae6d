// Package ingest turns step logs into Arrow record batches of
// schema.StepArrowSchema: it expands CLI arguments (files, directories,
// globs, stdin, s3://, gs:// and file:// URLs) into a lazy sequence of
// sources, recognises gzip and zstd by their magic bytes, frames each source
// into chunks of whole lines, decodes the chunks on parallel workers and hands
// the batches on in input order. A line that cannot be a step is a reject,
// located by file and line, counted by kind and kept verbatim; a source that
// cannot be listed, opened or read is a failure. docs/ingest.md describes the
// behaviour in full.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package ingest
