package scanbeam

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"

	"github.com/runawayhq/runaway/detect"
)

// The flink and spark runners submit the job to a Beam job server (Flink's
// or Spark's job server, in production) through Beam's portable job API.
// Here the job server is prism's, started on this machine, with the SDK
// worker in this process (LOOPBACK): the submission, artifact staging and
// execution path is the one a Flink or Spark job server serves, and the
// output is the scan's.
func TestPortableRunnersThroughAJobServer(t *testing.T) {
	want := scanOutputs(t, []string{"../../fixtures"})["ndjson"]
	for _, runner := range []string{"flink", "spark"} {
		t.Run(runner, func(t *testing.T) {
			port := freePort(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
				t.Fatal(err)
			}
			endpoint, env := *jobopts.Endpoint, *jobopts.EnvironmentType
			*jobopts.Endpoint, *jobopts.EnvironmentType = fmt.Sprintf("localhost:%d", port), "LOOPBACK"
			defer func() { *jobopts.Endpoint, *jobopts.EnvironmentType = endpoint, env }()

			out := t.TempDir()
			p, s := beam.NewPipelineWithRoot()
			if err := Scan(ctx, s, sourcesOf(t, "../../fixtures"), Options{Policy: detect.DefaultPolicy(), Output: out}); err != nil {
				t.Fatal(err)
			}
			if _, err := beam.Run(ctx, runner, p); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(out, "runs.ndjson"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("runs.ndjson through the %s runner differs from the scan's ndjson (%d and %d bytes)", runner, len(got), len(want))
			}
		})
	}
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
