//go:build unix

package audit

import "golang.org/x/sys/unix"

// freeBytes is the space left for an unprivileged writer on dir's file system.
func freeBytes(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
