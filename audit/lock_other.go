//go:build !unix

package audit

import "os"

// lockFile is a no-op where flock(2) is missing: run one process per data dir.
func lockFile(*os.File) (bool, error) { return true, nil }
