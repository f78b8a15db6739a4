package openapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Published serves an encoded document. The surface that serves it is built
// before its routes can be listed, so the document is Set afterwards, once.
//
// The document is held gzip-compressed: the gateway's is some 750 kB of
// JSON that an idle process would otherwise hold for the odd client. It is
// sent as it is held to clients that accept gzip, and decompressed for the
// others.
type Published struct {
	gz atomic.Pointer[[]byte]
}

// Set publishes body.
func (p *Published) Set(body []byte) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	_, _ = zw.Write(body)                                    // a bytes.Buffer does not fail
	_ = zw.Close()
	gz := bytes.Clone(buf.Bytes()) // drop the buffer's spare capacity
	p.gz.Store(&gz)
}

// Bytes returns the document as Set, or nil before Set.
func (p *Published) Bytes() ([]byte, error) {
	gz := p.gz.Load()
	if gz == nil {
		return nil, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(*gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// ServeHTTP writes the document, or 503 before Set.
func (p *Published) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	gz := p.gz.Load()
	if gz == nil {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EUnavailable, "the API description is not published yet"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Add("Vary", "Accept-Encoding")
	if content.ChooseEncoding(r.Header.Get("Accept-Encoding"), []string{"gzip"}) == "gzip" {
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Length", strconv.Itoa(len(*gz)))
		_, _ = w.Write(*gz)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(*gz))
	if err != nil {
		jsonapi.WriteError(w, r, err) // cannot happen: Set wrote it
		return
	}
	_, _ = io.Copy(w, zr)
}
