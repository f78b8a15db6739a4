package content

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/bits"
	"net/http"
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
// strong ETags, and the headers to send with it.
type Body struct {
	Status       int
	ContentType  string
	LastModified time.Time
	// Header holds extra headers (Link, Content-Signal, x-markdown-tokens…).
	Header http.Header
	// variants are identity, then gzip and br when they are smaller.
	variants []variant
}

type variant struct {
	encoding string // "", "gzip" or "br"
	data     []byte
	etag     string
}

// NewBody precomputes the encodings of data.
func NewBody(status int, contentType string, data []byte, lastModified time.Time, header http.Header) (*Body, error) {
	if header == nil {
		header = http.Header{}
	}
	b := &Body{Status: status, ContentType: contentType, LastModified: lastModified.UTC().Truncate(time.Second), Header: header}
	b.variants = append(b.variants, newVariant("", data))
	if len(data) < minCompress {
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
	bw := brotli.NewWriterOptions(&br, brotli.WriterOptions{Quality: brotliQuality, LGWin: min(max(bits.Len(uint(len(data))), 10), 24)})
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
	return b, nil
}

// gzipWriters reuses compressors: each holds about a megabyte of state, and
// allocating one per body dominated load time.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

func newVariant(encoding string, data []byte) variant {
	sum := sha256.Sum256(data)
	return variant{encoding: encoding, data: data, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
}

// Bytes returns the identity encoding: the exact bytes served uncompressed.
func (b *Body) Bytes() []byte { return b.variants[0].data }

// ETag returns the strong ETag of the identity encoding.
func (b *Body) ETag() string { return b.variants[0].etag }

// Encodings returns the content codings kept besides identity.
func (b *Body) Encodings() []string {
	var out []string
	for _, v := range b.variants[1:] {
		out = append(out, v.encoding)
	}
	return out
}
