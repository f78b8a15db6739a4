package openapi

import (
	"log/slog"
	"net/http"
	"sync"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Handler serves the document build returns, built once on first request
// (the routes are all registered by then) and kept.
func Handler(build func() (*Document, error)) http.Handler {
	var (
		once sync.Once
		body []byte
		err  error
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			var d *Document
			if d, err = build(); err == nil {
				body, err = d.JSON()
			}
			if err != nil {
				slog.Error("openapi: cannot build the API description", "err", err)
			}
		})
		if err != nil {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EInternal, "the API description could not be built"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write(body)
	})
}
