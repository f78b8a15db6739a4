package content

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// TestBodyEncodingsRoundTrip makes bodies of many sizes one after another,
// as a tree load does, and decodes every compressed variant: compressors
// are reused between bodies, so state left over from one would corrupt the
// next.
func TestBodyEncodingsRoundTrip(t *testing.T) {
	for i, size := range []int{300, 5000, 300, 70000, 4999, 70001, 1 << 20, 2000, 5000} {
		var sb strings.Builder
		for n := 0; sb.Len() < size; n++ {
			fmt.Fprintf(&sb, "line %d of body %d, %x; ", n, i, n*n*2654435761)
		}
		data := []byte(sb.String()[:size])
		b, err := NewBody(http.StatusOK, TypeText, data, time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Encodings(); len(got) != 2 {
			t.Fatalf("body %d (%d bytes): encodings %v, want br and gzip", i, size, got)
		}
		for _, v := range b.variants[1:] {
			var rd io.Reader = bytes.NewReader(v.data)
			if v.encoding == "gzip" {
				if rd, err = gzip.NewReader(rd); err != nil {
					t.Fatal(err)
				}
			} else {
				rd = brotli.NewReader(rd)
			}
			got, err := io.ReadAll(rd)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("body %d (%d bytes), %s: decoded %d bytes, err %v", i, size, v.encoding, len(got), err)
			}
		}
	}
}
