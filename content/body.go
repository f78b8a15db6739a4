package content

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
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

// minCompress is the size below which compressed variants are not kept: the
// saving would not pay for the extra header bytes.
const minCompress = 256

// brotliQuality trades load time for size; 11 is ~10x slower than 6 for a
// few percent, and bodies are compressed once per load, including reloads.
const brotliQuality = 6

// Body is one response of a tree: the bytes with their strong ETag and the
// headers to send with them, precomputed. Compressed variants (br, gzip) are
// made the first time a client that accepts one asks for the body, and kept:
// a tree loads without compressing every page, and a process holds only the
// encodings its clients have asked for.
type Body struct {
	Status       int
	ContentType  string
	LastModified time.Time
	// Header holds extra headers (Link, Content-Signal, x-markdown-tokens…).
	// A tree adds its Content-Signal to every body it makes (Tree.newBody).
	Header http.Header
	// identity is the body as it is.
	identity variant
	// compressible says compressed variants may be made: the body is large
	// enough and of a type that compresses.
	compressible bool
	compressOnce sync.Once
	// compressed are the br and gzip variants smaller than identity, set
	// once by compress; read only after compressOnce.Do.
	compressed []variant
	// encodings names compressed, for negotiation on every request.
	encodings []string
	// build, when set, makes the bytes on first use (see newLazyBody);
	// identity, compressible and Header are complete only after buildOnce.
	build     func() ([]byte, error)
	buildOnce sync.Once
	buildErr  error
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

// NewBody makes a body of data with its headers; compressed variants wait
// for the first client that accepts them.
func NewBody(status int, contentType string, data []byte, lastModified time.Time, header http.Header) (*Body, error) {
	if header == nil {
		header = http.Header{}
	}
	b := &Body{Status: status, ContentType: contentType, LastModified: lastModified.UTC().Truncate(time.Second), Header: header}
	b.setData(data)
	return b, nil
}

// newLazyBody makes a body whose bytes build makes the first time they are
// needed, and keeps: a tree then holds only the renditions clients asked
// for. A markdown body gets its x-markdown-tokens header then too.
func newLazyBody(status int, contentType string, lastModified time.Time, header http.Header, build func() ([]byte, error)) *Body {
	if header == nil {
		header = http.Header{}
	}
	return &Body{Status: status, ContentType: contentType, LastModified: lastModified.UTC().Truncate(time.Second), Header: header, build: build}
}

// setData makes data the body's identity encoding.
func (b *Body) setData(data []byte) {
	b.compressible = len(data) >= minCompress && compressible(b.ContentType)
	b.identity = newVariant("", data)
	b.identity.header = b.headerFor(&b.identity)
}

// ready builds a lazy body's bytes once; it reports the build's error.
func (b *Body) ready() error {
	if b.build == nil {
		return nil
	}
	b.buildOnce.Do(func() {
		data, err := b.build()
		if err != nil {
			b.buildErr = err
			return
		}
		if b.ContentType == TypeMarkdown {
			b.Header.Set("X-Markdown-Tokens", strconv.Itoa(tokenEstimate(data)))
		}
		b.setData(data)
	})
	return b.buildErr
}

// variants returns the compressed variants, making them on first use.
func (b *Body) variants() []variant {
	if b.ready() != nil || !b.compressible {
		return nil
	}
	b.compressOnce.Do(b.compress)
	return b.compressed
}

// compress makes the br and gzip variants and keeps those smaller than
// identity. Writing to a bytes.Buffer cannot fail, so neither can this.
func (b *Body) compress() {
	data := b.identity.data
	var gz bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&gz)
	_, _ = zw.Write(data)
	_ = zw.Close()
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
	_, _ = bw.Write(data)
	_ = bw.Close()
	for _, v := range []variant{newVariant("br", br.Bytes()), newVariant("gzip", gz.Bytes())} {
		if len(v.data) < len(data) {
			v.header = b.headerFor(&v)
			b.compressed = append(b.compressed, v)
			b.encodings = append(b.encodings, v.encoding)
		}
	}
}

// compressible is false for formats already compressed (PNG, JPEG, GIF,
// WebP): gzip and brotli would spend time for a few bytes.
func compressible(contentType string) bool {
	return !strings.HasPrefix(contentType, "image/") || strings.HasPrefix(contentType, "image/svg")
}

// headerFor builds the header fields v is sent with. Every body of a tree
// varies on Accept (HTML URLs negotiate markdown), and on Accept-Encoding
// when it may have compressed variants.
func (b *Body) headerFor(v *variant) []headerField {
	vary := "Accept"
	if b.compressible {
		vary += ", Accept-Encoding"
	}
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
		if !b.LastModified.IsZero() {
			h.Set("Last-Modified", b.LastModified.Format(http.TimeFormat))
		}
	}
	fields := make([]headerField, 0, len(h))
	for k, vs := range h {
		fields = append(fields, headerField{k, vs})
	}
	return fields
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
func (b *Body) Bytes() []byte {
	_ = b.ready()
	return b.identity.data
}

// ETag returns the strong ETag of the identity encoding.
func (b *Body) ETag() string {
	_ = b.ready()
	return b.identity.etag
}

// Encodings returns the content codings kept besides identity, making them
// if they were not yet. The slice is the body's own: callers must not
// modify it.
func (b *Body) Encodings() []string {
	b.variants()
	return b.encodings
}
