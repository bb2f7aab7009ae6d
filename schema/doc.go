// Package schema is runaway's input contract: the fields of one agent step,
// their enums, the Arrow schema that ingest produces and detect reads, the
// JSON Schema document users validate their logs against, and the canonical
// args hash used when a log does not carry one.
//
// It imports nothing of runaway's own but internal/jsontok (a JSON tokenizer
// that imports nothing of the module), so every other package may depend on it.
//
// In particular it must not import pipeline or cmd: they call it.
package schema
