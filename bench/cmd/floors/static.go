package main

import (
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// staticFile is one file's bytes and the header values sent with them.
type staticFile struct {
	data              []byte
	contentType, size []string
}

// staticFloor serves the regular files of dir from memory, at "/" plus their
// names, with only Content-Type and Content-Length: the least a Go server
// built on net/http does to answer with these bytes. A NAME.gz beside NAME
// is sent instead, with Content-Encoding: gzip, to clients that accept gzip
// (what nginx's gzip_static does).
func staticFloor(dir string) (http.Handler, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	files := map[string]staticFile{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("static: %w", err)
		}
		name := strings.TrimSuffix(e.Name(), ".gz")
		ct := mime.TypeByExtension(filepath.Ext(name))
		if filepath.Ext(name) == ".md" {
			ct = "text/markdown; charset=utf-8"
		}
		files["/"+e.Name()] = staticFile{data, []string{ct}, []string{strconv.Itoa(len(data))}}
	}
	gzipped := []string{"gzip"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok || strings.HasSuffix(r.URL.Path, ".gz") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			if gz, ok := files[r.URL.Path+".gz"]; ok {
				f.data, f.size = gz.data, gz.size
				h["Content-Encoding"] = gzipped
			}
		}
		h["Content-Type"], h["Content-Length"] = f.contentType, f.size
		_, _ = w.Write(f.data)
	}), nil
}
