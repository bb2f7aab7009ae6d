// Package docs embeds the documents the CLI prints (`runaway detectors ID`),
// so the binary carries the same text as the repository.
package docs

import "embed"

// Detectors holds detectors/<ID>.md, one page per detector.
//
//go:embed detectors/*.md
var Detectors embed.FS
