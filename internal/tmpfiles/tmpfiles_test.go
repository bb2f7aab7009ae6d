package tmpfiles

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestOwner(t *testing.T) {
	for name, want := range map[string]int{
		"runaway-spill-123-456":      123,
		"runaway-spill-123-":         123,
		"runaway-spill-0123-4":       0, // not how Prefix writes it
		"runaway-spill-abc-4":        0,
		"runaway-spill-123":          0, // no random part: not ours
		"runaway-spill-":             0,
		"other-123-4":                0,
		"runaway-spill--5-4":         0,
		"runaway-spill-99999999999-": 0,
	} {
		pid, ok := Owner(name, "runaway-spill-")
		if (want != 0) != ok || pid != want && want != 0 {
			t.Errorf("Owner(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
	if pid, ok := Owner(Prefix("x-")+"r", "x-"); !ok || pid != os.Getpid() {
		t.Errorf("Prefix does not name this process: %d %v", pid, ok)
	}
}

// Only entries of dead processes, unchanged for a minute, go.
func TestRemoveStale(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration, inner time.Duration) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Join(p, "sub"), 0o700)
		os.WriteFile(filepath.Join(p, "sub", "f"), []byte("x"), 0o600)
		for _, q := range []string{p, filepath.Join(p, "sub")} {
			os.Chtimes(q, now.Add(-age), now.Add(-age))
		}
		os.Chtimes(filepath.Join(p, "sub", "f"), now.Add(-inner), now.Add(-inner))
	}
	mk("s-"+dead+"-old", 5*time.Minute, 5*time.Minute)
	mk("s-"+dead+"-busy", 5*time.Minute, time.Second) // a file inside changed lately
	mk("s-"+dead+"-new", time.Second, time.Second)
	mk("s-"+strconv.Itoa(os.Getppid())+"-live", 5*time.Minute, 5*time.Minute)
	mk("s-"+strconv.Itoa(os.Getpid())+"-mine", 5*time.Minute, 5*time.Minute)
	mk("t-"+dead+"-otherkind", 5*time.Minute, 5*time.Minute)
	got := removeStale(dir, "s-", now)
	if want := []string{filepath.Join(dir, "s-"+dead+"-old")}; !slices.Equal(got, want) {
		t.Fatalf("removed %v, want %v", got, want)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 5 {
		t.Fatalf("%d entries left, want 5", len(left))
	}
}
