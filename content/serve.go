package content

import (
	"net/http"
	"strings"
	"time"
)

// CacheControl is sent with every body the engine serves.
const CacheControl = "public, max-age=300"

// ServeBody writes b for r: it picks the encoding from Accept-Encoding, answers
// If-None-Match (and, without it, If-Modified-Since) with 304, and sends no
// body for HEAD. Its Vary names Accept and, when b has compressed variants,
// Accept-Encoding, merged with any Vary already set.
func ServeBody(w http.ResponseWriter, r *http.Request, b *Body) {
	if err := b.ready(); err != nil {
		// Only a lazy page or resource gets here: its rendering failed.
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	v := &b.identity
	// A client that sends no Accept-Encoding never makes a body compress.
	if ae := r.Header.Get("Accept-Encoding"); ae != "" && b.compressible {
		compressed := b.variants()
		if enc := ChooseEncoding(ae, b.encodings); enc != "" {
			for i := range compressed {
				if compressed[i].encoding == enc {
					v = &compressed[i]
				}
			}
		}
	}
	h := w.Header()
	earlierVary := h["Vary"]
	for _, f := range v.header {
		h[f.key] = f.value
	}
	if len(earlierVary) > 0 {
		ours := h.Get("Vary")
		h["Vary"] = earlierVary
		for _, field := range strings.Split(ours, ", ") {
			addVary(h, field)
		}
	}
	if b.Status == http.StatusOK && notModified(r, b, v) {
		for _, k := range bodyHeaderKeys {
			delete(h, k)
		}
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.WriteHeader(b.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(v.data)
	}
}

// notModified applies RFC 9110 §13.1.2 and §13.1.3: If-None-Match (weak
// comparison, any of the body's encodings matches since they are the same
// representation data) wins over If-Modified-Since.
func notModified(r *http.Request, b *Body, chosen *variant) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, tag := range strings.Split(inm, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == chosen.etag || tag == b.identity.etag {
				return true
			}
			for _, v := range b.variants() {
				if tag == v.etag {
					return true
				}
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || b.LastModified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !b.LastModified.After(t.Truncate(time.Second))
}

// addVary adds a field to the single Vary header unless present.
func addVary(h http.Header, field string) {
	var fields []string
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				if strings.EqualFold(f, field) {
					return
				}
				fields = append(fields, f)
			}
		}
	}
	h.Set("Vary", strings.Join(append(fields, field), ", "))
}
