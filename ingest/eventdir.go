package ingest

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// An OpenHands session stores its event stream as a directory events/ of
// one JSON file per event, named by the event's id (0.json, 1.json, ...);
// the V1 software agent SDK names them event-<index>-<event id>.json
// (event-00002-fa7668e4-....json), in <conversation>/events/ or, under its
// agent server, <conversation>/event_service/events/. Such a directory is
// one run, so it is read as one source: its files in the order of their
// numbers, presented as one JSON array, which the openhands adapter reads
// like an exported event stream. A conversation's event files copied
// elsewhere keep their V1 names in a folder of another name (the OpenHands
// CLI's recorded trajectories, tests/trajectories/<case>/, and its
// raw-events/<conversation id>/): a directory of V1-named files alone is
// one too, whatever its name. Numbers alone (0.json) are too common a name
// to say so outside a directory named events.

// eventFileNumber is the number an event file's name gives it: <n>.json or
// event-<n>-<id>.json.
func eventFileNumber(name string) (int, bool) {
	base, ok := strings.CutSuffix(name, ".json")
	if !ok {
		return 0, false
	}
	if rest, v1 := strings.CutPrefix(base, "event-"); v1 {
		base, _, ok = strings.Cut(rest, "-")
		if !ok {
			return 0, false
		}
	}
	n, err := strconv.Atoi(base)
	return n, err == nil && n >= 0
}

// eventDirFiles returns the files of dir in number order when dir is such
// an event directory: holding at least one file, every file named as
// eventFileNumber reads but hidden ones (the SDK's lock), which are passed
// over as a walk does, and the directory named "events" unless every file
// has the V1 name event-<n>-<id>.json. Anything else in it (or a read
// error) means it is not one, and it is walked as any directory.
func eventDirFiles(dir string) ([]string, bool) {
	named := filepath.Base(dir) == "events"
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil, false
	}
	type numbered struct {
		n    int
		name string
	}
	files := make([]numbered, 0, len(entries))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // hidden: the V1 SDK's .eventlog.lock
		}
		n, ok := eventFileNumber(e.Name())
		if !ok || !e.Type().IsRegular() || (!named && !strings.HasPrefix(e.Name(), "event-")) {
			return nil, false
		}
		files = append(files, numbered{n, e.Name()})
	}
	if len(files) == 0 {
		return nil, false
	}
	slices.SortFunc(files, func(a, b numbered) int { return a.n - b.n })
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Join(dir, f.name)
	}
	return out, true
}

// eventDirSource is the source of an event directory: "[", the files'
// contents joined by ",", "]". Files are opened one at a time as the
// reader reaches them.
func eventDirSource(dir string, files []string) Source {
	return Source{
		Name: dir,
		Size: -1,
		Open: func() (io.ReadCloser, error) {
			return &eventDirReader{files: files}, nil
		},
	}
}

// eventDirReader reads "[", then each file with "," between them, then
// "]". JSON allows white space between tokens, so the files are read as
// they are.
type eventDirReader struct {
	files []string
	part  int       // 0: "[", 2k+1: file k, 2k+2: the separator after it
	cur   io.Reader // the part being read
	f     *os.File
}

func (r *eventDirReader) Read(p []byte) (int, error) {
	for {
		if r.cur == nil {
			last := 2 * len(r.files)
			switch {
			case r.part > last:
				return 0, io.EOF
			case r.part == 0:
				r.cur = strings.NewReader("[\n")
			case r.part%2 == 1:
				f, err := os.Open(r.files[r.part/2])
				if err != nil {
					return 0, err
				}
				r.f, r.cur = f, f
			case r.part == last:
				r.cur = strings.NewReader("\n]\n")
			default:
				r.cur = strings.NewReader(",\n")
			}
		}
		n, err := r.cur.Read(p)
		if err == io.EOF {
			r.closeFile()
			r.cur = nil
			r.part++
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

func (r *eventDirReader) closeFile() {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
}

func (r *eventDirReader) Close() error {
	r.closeFile()
	return nil
}
