package openapi

import (
	"net/http"
	"sync/atomic"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Published serves an encoded document. The surface that serves it is built
// before its routes can be listed, so the document is Set afterwards, once.
type Published struct {
	body atomic.Pointer[[]byte]
}

// Set publishes body.
func (p *Published) Set(body []byte) { p.body.Store(&body) }

// ServeHTTP writes the document, or 503 before Set.
func (p *Published) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := p.body.Load()
	if body == nil {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EUnavailable, "the API description is not published yet"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_, _ = w.Write(*body)
}
