// Package redact replaces the free text and values of agent step logs by
// placeholders that keep what runaway's detectors compare, so a run from
// production can be shared (a regression fixture, a report attached to an
// incident) without its content.
//
// What survives redaction, and why:
//
//   - Equality. The same value always becomes the same placeholder, in every
//     goroutine, file and process that uses the same key: placeholders are a
//     keyed hash of the value (HMAC-SHA256), never a first-appearance number.
//     Repeated calls stay repeated; different values stay different (up to a
//     hash collision of 35 bits per word).
//   - Normalised equality. A word's placeholder is derived from its
//     lower-cased form and takes the word's capitalisation pattern, and all
//     white space and punctuation are kept, so two texts equal after
//     lower-casing and collapsing white space (schema.Normalize, the
//     near-duplicate and re-plan keys) are equal after redaction, and two
//     texts that differ only in case or spacing still differ.
//   - Word overlap. The empty-result detector groups rephrased queries by a
//     64-bit word signature (schema.WordOverlap). A placeholder is chosen
//     among the keyed candidates of its word so that it falls on the same
//     signature bit as the word, so signatures, and the grouping, are exactly
//     those of the original. The cost: six bits of an unkeyed hash of each
//     word survive, which tells which sixty-fourth of a dictionary a word
//     is in and nothing more.
//   - Shape. Stop words and digits-only words of up to four digits stay
//     verbatim (they are not secrets; keeping them keeps pagination numbers,
//     "top 10", years, and the stop-word handling of the word signature
//     intact), and so do one-character words (the signature ignores them)
//     and the words that make a sentence a request ("please", "provide",
//     "need": schema.AskWords), so that what a turn asks for is read alike.
//     JSON keeps its keys, types, structure and white space.
//   - Keys of the text. What is derived from text besides equality (a
//     result's fingerprint after volatile tokens are normalised, a SimHash)
//     does not survive placeholders; the caller computes it from the text
//     and keeps it through Fingerprint (a keyed hash: equality kept) and
//     SimHash (a keyed permutation of the bits and a keyed mask: Hamming
//     distances kept).
//
// Secrets are removed before anything else and never reach the output, not
// even as a hash of their raw bytes: API keys (sk-..., AKIA..., ghp_...,
// xox...-, AIza...), bearer and basic credentials, JWTs, passwords in URLs
// and in key=value pairs, private-key blocks and email addresses become
// "secret-<kind>-<hash>".
//
// The zero key: New(nil) uses DefaultKey, a fixed public key, so output is
// deterministic across machines. With the public key anyone can compute the
// placeholder of a guessed word; pass a private key to New where a
// dictionary attack on the placeholders matters.
//
// A Redactor's output depends only on its key and its input (it caches
// word placeholders, which only saves time); it is safe for concurrent use.
//
// Like every package below the command line, it must not import pipeline
// or cmd: they call it, and it works the same for any caller.
package redact
