package upstream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadBody(t *testing.T) {
	body := strings.Repeat("0123456789", 100)
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := readBody(c.r, c.length, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("read %d bytes, want %d", len(got), len(c.want))
			}
		})
	}
	t.Run("error", func(t *testing.T) {
		boom := errors.New("boom")
		got, err := readBody(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 10, 101)
		if !errors.Is(err, boom) || string(got) != "abc" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

// BenchmarkReadBody reads a provider answer of 3 KB that declares its
// length, as net/http hands it over, against io.ReadAll.
//
//	go test ./provider/upstream -run '^$' -bench ReadBody -benchmem
func BenchmarkReadBody(b *testing.B) {
	body := bytes.Repeat([]byte(`{"id":"1","label":"Stage"},`), 120)
	b.Run("readBody", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readBody(bytes.NewReader(body), int64(len(body)), 1<<20); err != nil {
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
