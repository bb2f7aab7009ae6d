package schema

// Version is the version of the input contract (step log schema). It changes
// only when a field changes meaning; adding optional fields keeps it.
const Version = "1"

// OutputVersion is the version of the report documents (json, ndjson). It is
// written into every json document as schema_version so consumers can pin it.
const OutputVersion = "1"

// ProductVersion is the version `runaway version` prints. Release builds
// override it with -ldflags "-X github.com/runawayhq/runaway/schema.ProductVersion=...".
var ProductVersion = "0.1.0-dev"
