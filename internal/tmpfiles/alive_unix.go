//go:build unix

package tmpfiles

import (
	"errors"
	"syscall"
)

// alive reports whether a process has the pid: signal 0 checks without
// sending, and only ESRCH says there is none (EPERM is someone else's).
func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
