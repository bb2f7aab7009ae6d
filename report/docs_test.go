package report

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// docs/output.md is the contract of the json and ndjson documents: every
// field they can hold must be documented there, so adding a field without
// documenting it fails here.
func TestOutputDocCoversEveryField(t *testing.T) {
	doc, err := os.ReadFile("../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, typ := range []reflect.Type{
		reflect.TypeFor[jsonHead](), reflect.TypeFor[jsonTool](), reflect.TypeFor[Summary](),
		reflect.TypeFor[InputStats](), reflect.TypeFor[detect.RunResult](), reflect.TypeFor[detect.Indicators](),
		reflect.TypeFor[detect.Finding](), reflect.TypeFor[detect.Evidence](), reflect.TypeFor[detect.StepRange](),
		reflect.TypeFor[detect.Count](),
	} {
		for _, name := range jsonFieldNames(typ) {
			if !strings.Contains(text, "`"+name+"`") && !strings.Contains(text, "."+name+"`") {
				t.Errorf("docs/output.md does not document %s field `%s`", typ.Name(), name)
			}
		}
	}
	for _, c := range detect.RootCauses {
		if !strings.Contains(text, "`"+string(c)+"`") {
			t.Errorf("docs/output.md does not list root cause `%s`", c)
		}
	}
}

// jsonFieldNames lists the json keys of a struct type, following embedded
// structs as encoding/json does.
func jsonFieldNames(typ reflect.Type) []string {
	var names []string
	for f := range typ.Fields() {
		if f.Anonymous {
			names = append(names, jsonFieldNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
