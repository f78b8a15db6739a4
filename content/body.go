package content

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/bits"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Media types the engine serves.
const (
	TypeMarkdown = "text/markdown; charset=utf-8"
	TypeHTML     = "text/html; charset=utf-8"
	TypeJSON     = "application/json"
	TypeXML      = "application/xml; charset=utf-8"
	TypeText     = "text/plain; charset=utf-8"
)

// ContentSignal is the usage signal sent with markdown and in robots.txt.
const ContentSignal = "search=yes, ai-train=yes, ai-input=yes"

// minCompress is the size below which compressed variants are not kept: the
// saving would not pay for the extra header bytes.
const minCompress = 256

// brotliQuality trades load time for size; 11 is ~10x slower than 6 for a
// few percent, and bodies are compressed once per load, including reloads.
const brotliQuality = 6

// Body is one precomputed response: the bytes in each encoding with their
// strong ETags, and the headers to send with it. A Body is immutable once
// made: its headers are precomputed too.
type Body struct {
	Status       int
	ContentType  string
	LastModified time.Time
	// Header holds extra headers (Link, Content-Signal, x-markdown-tokens…).
	Header http.Header
	// variants are identity, then gzip and br when they are smaller.
	variants []variant
	// encodings names variants[1:], for negotiation on every request.
	encodings []string
}

type variant struct {
	encoding string // "", "gzip" or "br"
	data     []byte
	etag     string
	// header is every header field the variant is sent with, keys in
	// canonical form, so serving it is a few map assignments. The value
	// slices are shared by all responses and never modified.
	header []headerField
}

type headerField struct {
	key   string
	value []string
}

// bodyHeaderKeys are the fields ServeBody sets that only a 200 or error
// body carries, not a 304.
var bodyHeaderKeys = []string{"Content-Type", "Content-Length", "Content-Encoding"}

// NewBody precomputes the encodings of data.
func NewBody(status int, contentType string, data []byte, lastModified time.Time, header http.Header) (*Body, error) {
	if header == nil {
		header = http.Header{}
	}
	// Every response of a content tree states its usage terms, not only the
	// markdown ones: crawlers read them on the sitemap and skills index too.
	if header.Get("Content-Signal") == "" {
		header.Set("Content-Signal", ContentSignal)
	}
	b := &Body{Status: status, ContentType: contentType, LastModified: lastModified.UTC().Truncate(time.Second), Header: header}
	b.variants = append(b.variants, newVariant("", data))
	if len(data) < minCompress || !compressible(contentType) {
		b.precomputeHeaders()
		return b, nil
	}
	var gz bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&gz)
	if _, err := zw.Write(data); err != nil {
		return nil, fmt.Errorf("content: gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("content: gzip: %w", err)
	}
	var br bytes.Buffer
	// A window sized to the body: the default 4 MiB window makes the encoder
	// set up hash tables far larger than a page, which dominated load time.
	lgwin := min(max(bits.Len(uint(len(data))), 10), 24)
	bw, _ := brotliWriters[lgwin].Get().(*brotli.Writer)
	if bw == nil {
		bw = brotli.NewWriterOptions(&br, brotli.WriterOptions{Quality: brotliQuality, LGWin: lgwin})
	} else {
		bw.Reset(&br)
	}
	defer brotliWriters[lgwin].Put(bw)
	if _, err := bw.Write(data); err != nil {
		return nil, fmt.Errorf("content: brotli: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, fmt.Errorf("content: brotli: %w", err)
	}
	for _, v := range []variant{newVariant("br", br.Bytes()), newVariant("gzip", gz.Bytes())} {
		if len(v.data) < len(data) {
			b.variants = append(b.variants, v)
		}
	}
	b.precomputeHeaders()
	return b, nil
}

// compressible is false for formats already compressed (PNG, JPEG, GIF,
// WebP): gzip and brotli would spend load time for a few bytes.
func compressible(contentType string) bool {
	return !strings.HasPrefix(contentType, "image/") || strings.HasPrefix(contentType, "image/svg")
}

// precomputeHeaders builds each variant's header fields. Every body of a
// tree varies on Accept (HTML URLs negotiate markdown), and on
// Accept-Encoding when it has compressed variants.
func (b *Body) precomputeHeaders() {
	vary := "Accept"
	if len(b.variants) > 1 {
		vary += ", Accept-Encoding"
	}
	var lastModified string
	if !b.LastModified.IsZero() {
		lastModified = b.LastModified.Format(http.TimeFormat)
	}
	for _, v := range b.variants[1:] {
		b.encodings = append(b.encodings, v.encoding)
	}
	for i := range b.variants {
		v := &b.variants[i]
		h := http.Header{}
		for k, vs := range b.Header {
			h[http.CanonicalHeaderKey(k)] = vs
		}
		h.Set("Vary", vary)
		h.Set("Content-Type", b.ContentType)
		h.Set("Cache-Control", CacheControl)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Length", strconv.Itoa(len(v.data)))
		if v.encoding != "" {
			h.Set("Content-Encoding", v.encoding)
		}
		if b.Status == http.StatusOK {
			h.Set("ETag", v.etag)
			if lastModified != "" {
				h.Set("Last-Modified", lastModified)
			}
		}
		v.header = make([]headerField, 0, len(h))
		for k, vs := range h {
			v.header = append(v.header, headerField{k, vs})
		}
	}
}

// gzipWriters reuses compressors: each holds about a megabyte of state, and
// allocating one per body dominated load time.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

// brotliWriters reuses compressors by window size (a Reset keeps the
// options and the hash tables they sized): allocating the tables for every
// body was a third of a large tree's load time.
var brotliWriters [25]sync.Pool

func newVariant(encoding string, data []byte) variant {
	sum := sha256.Sum256(data)
	return variant{encoding: encoding, data: data, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
}

// Bytes returns the identity encoding: the exact bytes served uncompressed.
func (b *Body) Bytes() []byte { return b.variants[0].data }

// ETag returns the strong ETag of the identity encoding.
func (b *Body) ETag() string { return b.variants[0].etag }

// Encodings returns the content codings kept besides identity. The slice
// is the body's own: callers must not modify it.
func (b *Body) Encodings() []string { return b.encodings }
