package bigquery

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// validJobID reports whether id is a JobReference.jobId as the BigQuery v2
// reference defines it: letters, digits, underscores and dashes, at most
// 1,024 characters, and not empty (the field is required).
func validJobID(id string) bool {
	const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
	return id != "" && len(id) <= 1024 && strings.Trim(id, allowed) == ""
}

// newJobID returns a fresh job id: prefix, "_" and 32 random hex digits.
func newJobID(prefix string) string {
	b := make([]byte, 16)
	rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}
