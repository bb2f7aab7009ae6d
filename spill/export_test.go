package spill

// SetMaxEarlyFiles lowers maxEarlyFiles for a test.
func SetMaxEarlyFiles(n int) (restore func()) {
	old := maxEarlyFiles
	maxEarlyFiles = n
	return func() { maxEarlyFiles = old }
}
