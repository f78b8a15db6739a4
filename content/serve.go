package content

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// CacheControl is sent with every body the engine serves.
const CacheControl = "public, max-age=300"

// ServeBody writes b for r: it picks the encoding from Accept-Encoding, answers
// If-None-Match (and, without it, If-Modified-Since) with 304, and sends no
// body for HEAD. The caller sets Vary when the choice of b itself depended on
// the request.
func ServeBody(w http.ResponseWriter, r *http.Request, b *Body) {
	h := w.Header()
	for k, vs := range b.Header {
		h[k] = vs
	}
	v := b.variants[0]
	if len(b.variants) > 1 {
		if enc := chooseEncoding(r.Header.Get("Accept-Encoding"), b.Encodings()); enc != "" {
			for _, cand := range b.variants[1:] {
				if cand.encoding == enc {
					v = cand
				}
			}
		}
		addVary(h, "Accept-Encoding")
	}
	h.Set("Content-Type", b.ContentType)
	h.Set("Cache-Control", CacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	if b.Status == http.StatusOK {
		h.Set("ETag", v.etag)
		if !b.LastModified.IsZero() {
			h.Set("Last-Modified", b.LastModified.Format(http.TimeFormat))
		}
		if notModified(r, b, v) {
			h.Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if v.encoding != "" {
		h.Set("Content-Encoding", v.encoding)
	}
	h.Set("Content-Length", strconv.Itoa(len(v.data)))
	w.WriteHeader(b.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(v.data)
	}
}

// notModified applies RFC 9110 §13.1.2 and §13.1.3: If-None-Match (weak
// comparison, any of the body's encodings matches since they are the same
// representation data) wins over If-Modified-Since.
func notModified(r *http.Request, b *Body, chosen variant) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, tag := range strings.Split(inm, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == chosen.etag {
				return true
			}
			for _, v := range b.variants {
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
