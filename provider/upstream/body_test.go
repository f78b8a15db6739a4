package upstream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gtmgate/gtmgate/internal/bufpool"
)

func TestReadBody(t *testing.T) {
	body := strings.Repeat("0123456789", 100)
	large := strings.Repeat("0123456789", bufpool.MaxKept/5) // twice what the pool keeps
	cases := []struct {
		name          string
		r             io.Reader
		length, limit int64
		want          string
	}{
		{"declared length", strings.NewReader(body), 1000, 2001, body},
		{"unknown length", strings.NewReader(body), -1, 2001, body},
		{"read a byte at a time", iotest.OneByteReader(strings.NewReader(body)), 1000, 2001, body},
		{"longer than declared", strings.NewReader(body), 10, 2001, body},
		{"shorter than declared", strings.NewReader(body), 1500, 2001, body},
		{"over the limit, declared", strings.NewReader(body), 1000, 101, body[:101]},
		{"over the limit, undeclared", strings.NewReader(body), -1, 101, body[:101]},
		{"over the limit, declared short", strings.NewReader(body), 50, 101, body[:101]},
		{"empty", strings.NewReader(""), 0, 101, ""},
		{"empty, undeclared", strings.NewReader(""), -1, 101, ""},
		{"large, undeclared", strings.NewReader(large), -1, 1 << 30, large},
		{"after a large one", strings.NewReader(body), -1, 2001, body},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := readBody(c.r, c.length, c.limit, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("read %d bytes, want %d", len(got), len(c.want))
			}
			if r, ok := c.r.(*strings.Reader); ok {
				r.Seek(0, io.SeekStart)
				into := bytes.NewBufferString("left from an earlier read")
				got, err := readBody(r, c.length, c.limit, into)
				if err != nil || string(got) != c.want {
					t.Fatalf("into a buffer: read %d bytes, want %d (%v)", len(got), len(c.want), err)
				}
			}
		})
	}
	t.Run("error", func(t *testing.T) {
		boom := errors.New("boom")
		got, err := readBody(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 10, 101, nil)
		if !errors.Is(err, boom) || string(got) != "abc" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

// BenchmarkReadBody reads a provider answer of 3 KB, with its length
// declared and without (chunked), against io.ReadAll.
//
//	go test ./provider/upstream -run '^$' -bench ReadBody -benchmem
func BenchmarkReadBody(b *testing.B) {
	body := bytes.Repeat([]byte(`{"id":"1","label":"Stage"},`), 120)
	for _, c := range []struct {
		name   string
		length int64
	}{{"declared", int64(len(body))}, {"chunked", -1}} {
		b.Run("readBody/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := readBody(bytes.NewReader(body), c.length, 1<<20, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("io.ReadAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := io.ReadAll(io.LimitReader(bytes.NewReader(body), 1<<20)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
