// Package duckread checks that DuckDB reads the Parquet file of
// report.ParquetWriter as the nightly scan's users will: it scans the
// repository's fixtures with the library packages (ingest, detect), streams
// the results into the writer and compares DuckDB's aggregates over
// read_parquet with the same figures computed in Go. The test is the
// content; run it with `cd bench && go test ./duckread/`.
package duckread
