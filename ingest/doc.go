// Package ingest turns step logs into Arrow record batches of
// schema.StepArrowSchema: it expands CLI paths into sources, recognises gzip
// and zstd by their magic bytes, frames each source into chunks of whole
// lines, decodes the chunks on parallel workers and hands the batches on in
// input order. A line that cannot be a step is a reject, located by file and
// line, counted by kind and kept verbatim; a source that cannot be read is a
// failure. docs/ingest.md describes the behaviour in full.
package ingest
