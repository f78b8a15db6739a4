package main

import (
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
)

// staticFloor serves the regular files of dir from memory, at "/" plus their
// names, with only Content-Type and Content-Length: the least a Go server
// built on net/http does to answer with these bytes.
func staticFloor(dir string) (http.Handler, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	type file struct {
		data              []byte
		contentType, size []string
	}
	files := map[string]file{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("static: %w", err)
		}
		ct := mime.TypeByExtension(filepath.Ext(e.Name()))
		if filepath.Ext(e.Name()) == ".md" {
			ct = "text/markdown; charset=utf-8"
		}
		files["/"+e.Name()] = file{data, []string{ct}, []string{strconv.Itoa(len(data))}}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h["Content-Type"], h["Content-Length"] = f.contentType, f.size
		_, _ = w.Write(f.data)
	}), nil
}
