//go:build !linux

package postgres

import "syscall"

// setUserTimeout is Linux-only; elsewhere keep-alives and deadlines apply.
func setUserTimeout(string, string, syscall.RawConn) error { return nil }
