package schema

import _ "embed"

// JSONSchema is the JSON Schema (draft 2020-12) of one step line; `runaway
// schema` prints it.
//
//go:embed step.schema.json
var JSONSchema []byte
