package detect

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRegistryIsSortedAndUnique(t *testing.T) {
	idPattern := regexp.MustCompile(`^RA[1-9][0-9]{2}$`)
	seen := map[string]bool{}
	for i, d := range Registry {
		if !idPattern.MatchString(d.ID) {
			t.Errorf("%s: ID must look like RA101", d.ID)
		}
		if i > 0 && Registry[i-1].ID >= d.ID {
			t.Errorf("registry not sorted by ID at %s", d.ID)
		}
		for _, name := range []string{d.ID, d.Slug} {
			if seen[name] {
				t.Errorf("%s used twice", name)
			}
			seen[name] = true
		}
		if d.Title == "" || d.Guard == "" || d.RootCause == CauseNone || d.run == nil {
			t.Errorf("%s: title, guard, root cause and run are required", d.ID)
		}
		if !slices.Contains(RootCauses, d.RootCause) {
			t.Errorf("%s: unknown root cause %q", d.ID, d.RootCause)
		}
		if Lookup(d.ID) != d || Lookup(d.Slug) != d {
			t.Errorf("%s: Lookup does not find it", d.ID)
		}
	}
}

func TestDetectorParamsAndReadsExist(t *testing.T) {
	params := map[string]bool{}
	for _, p := range Params() {
		params[p.Key] = true
	}
	indicators := map[string]bool{}
	it := reflect.TypeOf(Indicators{})
	for i := 0; i < it.NumField(); i++ {
		indicators[strings.Split(it.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, d := range Registry {
		for _, k := range d.Params {
			if !params[k] {
				t.Errorf("%s: param %q is not a policy key", d.ID, k)
			}
		}
		for _, r := range d.Reads {
			if !indicators[r] {
				t.Errorf("%s: reads %q, which is not an indicator", d.ID, r)
			}
		}
	}
	// Every policy field has a documented Param, and no Param is stale.
	pt := reflect.TypeOf(Policy{})
	var fields, documented []string
	for i := 0; i < pt.NumField(); i++ {
		fields = append(fields, pt.Field(i).Tag.Get("yaml"))
	}
	for _, p := range Params() {
		documented = append(documented, p.Key)
	}
	if !slices.Equal(fields, documented) {
		t.Errorf("policy fields %v\ndocumented   %v", fields, documented)
	}
}

// Every detector has its page and its positive and negative fixtures, and
// no page or fixture is left over from a detector that is gone.
func TestRegistryDocsAndFixtures(t *testing.T) {
	root := filepath.Join("..")
	want := map[string]bool{filepath.Join("docs", "detectors", "README.md"): true} // the index (TestGenerated)
	for _, d := range Registry {
		want[filepath.Join("docs", "detectors", d.ID+".md")] = true
		for _, kind := range []string{"positive", "negative"} {
			want[filepath.Join("fixtures", "detectors", d.ID+"."+kind+".jsonl")] = true
			want[filepath.Join("fixtures", "detectors", d.ID+"."+kind+".want.json")] = true
		}
	}
	for f := range want {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	for _, dir := range []string{filepath.Join("docs", "detectors"), filepath.Join("fixtures", "detectors")} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if f := filepath.Join(dir, e.Name()); !want[f] {
				t.Errorf("orphan %s: no detector in the registry owns it", f)
			}
		}
	}
}
