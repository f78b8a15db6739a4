package bufpool

import (
	"strings"
	"testing"
)

func TestGetIsEmpty(t *testing.T) {
	for range 100 {
		b := Get()
		if b.Len() != 0 {
			t.Fatalf("Get returned %d bytes of an earlier use", b.Len())
		}
		b.WriteString(strings.Repeat("x", 1000))
		Put(b)
	}
}

func TestPutKeepsLargeBuffersOut(t *testing.T) {
	b := Get()
	b.Grow(MaxKept + 1)
	Put(b) // must not panic or keep it; nothing observable beyond that
	if Get().Cap() > MaxKept {
		t.Fatal("a buffer over MaxKept came back from the pool")
	}
}
