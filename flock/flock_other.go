//go:build !unix

package flock

import "os"

// TryLock is a no-op where flock(2) is missing: run one process per data dir.
func TryLock(*os.File) (bool, error) { return true, nil }
