package replay

import (
	"encoding/json"
	"io"

	"github.com/runawayhq/runaway/schema"
)

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// jsonDocument is the json report: the scan report's envelope around Report.
type jsonDocument struct {
	SchemaVersion string   `json:"schema_version"`
	Tool          jsonTool `json:"tool"`
	*Report
}

// WriteJSON writes the report as one indented json document with the
// output schema version.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonDocument{
		SchemaVersion: schema.OutputVersion,
		Tool:          jsonTool{Name: "runaway", Version: schema.ProductVersion},
		Report:        rep,
	})
}
