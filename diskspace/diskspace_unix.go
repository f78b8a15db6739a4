//go:build unix

// Package diskspace measures a directory's file system: the audit journal
// refuses to fill it, and the health snapshot reports it.
package diskspace

import "golang.org/x/sys/unix"

// Usage returns the space left for an unprivileged writer on dir's file
// system and its size, in bytes.
func Usage(dir string) (free, total uint64, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	return st.Bavail * uint64(st.Bsize), st.Blocks * uint64(st.Bsize), nil
}

// ErrUnmeasured is returned where file systems are not measured (never here).
var ErrUnmeasured = errUnmeasured{}

type errUnmeasured struct{}

func (errUnmeasured) Error() string { return "disk space is not measured on this platform" }
