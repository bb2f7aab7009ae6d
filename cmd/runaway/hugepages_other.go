//go:build !linux

package main

// adviseHeapHugePages does nothing here: the advice it gives on Linux
// (hugepages_linux.go) has no portable counterpart the scan would gain from.
func adviseHeapHugePages(heapBytes int64) {}
