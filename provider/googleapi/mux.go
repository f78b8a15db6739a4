package googleapi

import "net/http"

// NewMux returns a ServeMux whose unmatched requests get Google's 404 body
// instead of the standard library's plain-text one.
func NewMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, http.StatusNotFound, "Method not found: "+r.Method+" "+r.URL.Path)
	})
	return mux
}
