// Package flock takes exclusive advisory locks on files without waiting
// (flock(2)), so that two processes never share what one of them owns: a
// data directory, an audit journal segment.
package flock
