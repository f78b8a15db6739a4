// Package bufpool lends byte buffers to code that reads or writes a body
// whole (a provider's answer, a JSON response): each call would otherwise
// grow a fresh buffer from a few hundred bytes, copying as it goes, which
// was a fifth of the REST path's allocated bytes.
package bufpool

import (
	"bytes"
	"sync"
)

// MaxKept is the largest capacity a returned buffer may have and still be
// kept: a rare large body is left to the collector rather than held.
const MaxKept = 256 << 10

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Get returns an empty buffer. Give it back with Put once nothing refers
// to its bytes.
func Get() *bytes.Buffer {
	b := buffers.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Put returns b to the pool, unless it grew past MaxKept.
func Put(b *bytes.Buffer) {
	if b.Cap() <= MaxKept {
		buffers.Put(b)
	}
}
