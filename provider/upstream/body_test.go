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
		name  string
		body  string
		limit int64
		want  string
	}{
		{"within the limit", body, 2001, body},
		{"at the limit", body, 1000, body},
		{"over the limit", body, 101, body[:101]},
		{"empty", "", 101, ""},
		{"larger than the pool keeps", large, 1 << 30, large},
		{"after a large one", body, 2001, body},
	}
	readers := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"a byte at a time", iotest.OneByteReader},
	}
	for _, c := range cases {
		for _, rd := range readers {
			t.Run(c.name+"/"+rd.name, func(t *testing.T) {
				got, err := readBody(rd.wrap(strings.NewReader(c.body)), c.limit, nil)
				if err != nil || string(got) != c.want {
					t.Fatalf("read %d bytes, want %d (%v)", len(got), len(c.want), err)
				}
				into := bytes.NewBufferString("left from an earlier read")
				got, err = readBody(rd.wrap(strings.NewReader(c.body)), c.limit, into)
				if err != nil || string(got) != c.want {
					t.Fatalf("into a buffer: read %d bytes, want %d (%v)", len(got), len(c.want), err)
				}
			})
		}
	}
	t.Run("error", func(t *testing.T) {
		boom := errors.New("boom")
		got, err := readBody(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 101, nil)
		if !errors.Is(err, boom) || string(got) != "abc" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

// BenchmarkReadBody reads a provider answer of 3 KB against io.ReadAll.
//
//	go test ./provider/upstream -run '^$' -bench ReadBody -benchmem
func BenchmarkReadBody(b *testing.B) {
	body := bytes.Repeat([]byte(`{"id":"1","label":"Stage"},`), 120)
	b.Run("readBody", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readBody(bytes.NewReader(body), 1<<20, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("readBody/into", func(b *testing.B) {
		into := new(bytes.Buffer)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readBody(bytes.NewReader(body), 1<<20, into); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("io.ReadAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := io.ReadAll(io.LimitReader(bytes.NewReader(body), 1<<20)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
