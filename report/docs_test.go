package report

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

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

// Every Parquet column and every Prometheus metric is documented in its own
// section of docs/output.md: top-level columns and metrics by name in their
// section, struct children (indicators, finding fields) anywhere, since the
// section points to the run object's tables for them.
func TestOutputDocCoversParquetAndProm(t *testing.T) {
	doc, err := os.ReadFile("../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	parquetDoc, promDoc := docSection(t, text, "## parquet"), docSection(t, text, "## prom")
	layout, err := parquetLayout()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range layout.schema.Fields() {
		if !strings.Contains(parquetDoc, "`"+f.Name+"`") {
			t.Errorf("docs/output.md, parquet: column `%s` not documented", f.Name)
		}
		for _, child := range nestedFieldNames(f.Type) {
			if !strings.Contains(text, "`"+child+"`") {
				t.Errorf("docs/output.md: parquet column %s has a child `%s` documented nowhere", f.Name, child)
			}
		}
	}
	for _, m := range promMetrics {
		if !strings.Contains(promDoc, "`"+m.name+"`") {
			t.Errorf("docs/output.md, prom: metric `%s` not documented", m.name)
		}
	}
}

// docSection is the text from heading to the next heading of its level.
func docSection(t *testing.T, text, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(text, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/output.md has no %q section", heading)
	}
	level := heading[:strings.Index(heading, " ")+1]
	section, _, _ := strings.Cut(after, "\n"+level)
	return section
}

// nestedFieldNames lists the names of struct fields inside typ, at any
// depth, through lists and maps; list and map plumbing (item, key, value)
// is Arrow's, not ours.
func nestedFieldNames(typ arrow.DataType) []string {
	var names []string
	switch typ := typ.(type) {
	case *arrow.StructType:
		for _, f := range typ.Fields() {
			names = append(names, f.Name)
			names = append(names, nestedFieldNames(f.Type)...)
		}
	case *arrow.ListType:
		names = nestedFieldNames(typ.Elem())
	case *arrow.MapType:
		names = nestedFieldNames(typ.ItemType())
	}
	return names
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
