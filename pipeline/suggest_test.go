package pipeline

import (
	"math/rand/v2"
	"testing"
)

// The suggestions depend only on which run ids the input holds, not on the
// order the read meets them in, nor on how often.
func TestCloseRunsDoNotDependOnOrder(t *testing.T) {
	ids := []string{"run-10", "run-11", "run-12", "run-13", "run-1x", "Run-1", "run-100", "other", "run-1-retry", "rn-1"}
	var want string
	for i := range 50 {
		c := newCloseRuns([]string{"run-1"})
		shuffled := append([]string(nil), ids...)
		shuffled = append(shuffled, ids[:i%len(ids)]...) // some twice
		rand.New(rand.NewPCG(uint64(i), 7)).Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		for _, id := range shuffled {
			c.add(id)
		}
		got := c.of("run-1")
		if i == 0 {
			want = got
		} else if got != want {
			t.Fatalf("order %d: %s; first order: %s", i, got, want)
		}
	}
	if want != `close run ids: "Run-1", "rn-1", "run-10"` {
		t.Errorf("got %s", want)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		d     int
		ok    bool
	}{
		{"kitten", "sitting", -1, 3, true},
		{"kitten", "sitting", 2, 0, false},
		{"", "abc", -1, 3, true},
		{"héllo", "hello", 1, 1, true},
		{"abc", "abc", 0, 0, true},
	} {
		d, ok := editDistance(c.a, c.b, c.limit)
		if ok != c.ok || ok && d != c.d {
			t.Errorf("editDistance(%q, %q, %d) = %d, %v; want %d, %v", c.a, c.b, c.limit, d, ok, c.d, c.ok)
		}
	}
}

// A person asks for a run by the task it worked on; an agent's run id is
// often its file's path, or a file's line and the source's own id. Such a
// run is suggested first, however long its id.
func TestCloseRunsByTheTaskTheyWorkedOn(t *testing.T) {
	ids := []string{
		"results/django__django-11749/django__django-11749.traj.json",
		"results/django__django-11750/django__django-11750.traj.json",
		"out/output.jsonl:3#astropy__astropy-12907",
		"s3://bucket/day/sympy__sympy-20590.traj",
		"gpt-4o-airline.json[13]#task_id=13,trial=0",
	}
	for asked, want := range map[string]string{
		"django__django-11749":   `close run ids: "results/django__django-11749/django__django-11749.traj.json"`,
		"astropy__astropy-12907": `close run ids: "out/output.jsonl:3#astropy__astropy-12907"`,
		"sympy__sympy-20590":     `close run ids: "s3://bucket/day/sympy__sympy-20590.traj"`,
		"task_id=13,trial=0":     `close run ids: "gpt-4o-airline.json[13]#task_id=13,trial=0"`,
		"output":                 "", // a file of many runs names none of them
		"results":                `close run ids: "results/django__django-11749/django__django-11749.traj.json", "results/django__django-11750/django__django-11750.traj.json"`,
	} {
		c := newCloseRuns([]string{asked})
		for _, id := range ids {
			c.add(id)
		}
		if got := c.of(asked); got != want {
			t.Errorf("%s: %s, want %s", asked, got, want)
		}
	}
}
