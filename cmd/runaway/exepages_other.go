//go:build !linux

package main

// releaseExecutablePages does nothing here: it reads Linux's /proc to find
// the binary's mappings (exepages_linux.go).
func releaseExecutablePages() {}
