package scanbeam

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/schema"
)

// A run's rows cross the shuffle as Arrow IPC record batch messages without
// the schema, which every one would otherwise repeat (a few KB against a
// row's few hundred bytes): the stream a run is read from is the schema's
// message, then its parts' messages, then the end-of-stream marker.

var endOfStream = []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}

// batchMessage encodes rec as one IPC record batch message.
func batchMessage(mem memory.Allocator, rec arrow.RecordBatch) ([]byte, error) {
	full, err := ipcStream(mem, rec)
	if err != nil {
		return nil, err
	}
	head, err := schemaMessageLen(full)
	if err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(full, endOfStream) {
		return nil, fmt.Errorf("an IPC stream without its end marker")
	}
	return bytes.Clone(full[head : len(full)-len(endOfStream)]), nil
}

// ipcStream is the IPC stream of rec alone.
func ipcStream(mem memory.Allocator, rec arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	err := w.Write(rec)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), err
}

// schemaMessageLen is the length of a stream's first message, its schema:
// a continuation marker, the metadata's length, the metadata, no body.
func schemaMessageLen(stream []byte) (int, error) {
	if len(stream) < 8 || binary.LittleEndian.Uint32(stream) != 0xffffffff {
		return 0, fmt.Errorf("not an IPC stream")
	}
	n := 8 + int(int32(binary.LittleEndian.Uint32(stream[4:])))
	if n < 8 || n > len(stream) {
		return 0, fmt.Errorf("an IPC stream with a schema message of %d bytes", n)
	}
	return n, nil
}

// stepsSchemaMessage is the schema message that opens every run's stream.
var stepsSchemaMessage = sync.OnceValues(func() ([]byte, error) {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema.StepArrowSchema)
	defer b.Release()
	empty := b.NewRecordBatch()
	defer empty.Release()
	full, err := ipcStream(mem, empty)
	if err != nil {
		return nil, err
	}
	n, err := schemaMessageLen(full)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(full[:n]), nil
})
