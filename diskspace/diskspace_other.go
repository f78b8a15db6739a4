//go:build !unix

// Package diskspace measures a directory's file system: the audit journal
// refuses to fill it, and the health snapshot reports it.
package diskspace

import (
	"errors"
	"math"
)

// ErrUnmeasured: this platform's file systems are not measured.
var ErrUnmeasured = errors.New("disk space is not measured on this platform")

// Usage reports no limit: write errors tell.
func Usage(string) (free, total uint64, err error) { return math.MaxUint64, 0, ErrUnmeasured }
