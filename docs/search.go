package docs

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// searchHandler serves GET /api/search?q=…[&section=…][&limit=…]: ranked
// results as JSON {query, total, results: [{title, url, path, snippet,
// highlights, score, section}]}. A snippet is plain text, not HTML; its
// highlights are the matched words as [start, end) offsets in UTF-16 code
// units (content.Hit), what JavaScript's String.slice takes. An empty q, a q
// over 256 bytes or a bad limit is 400 VALIDATION_ERROR.
func searchHandler(src *content.Source) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit := 0
		if s := q.Get("limit"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > content.MaxLimit {
				writeError(w, gtmgate.Errorf(gtmgate.EValidation, "limit must be an integer from 1 to %d", content.MaxLimit))
				return
			}
			limit = n
		}
		idx := src.Tree().Search()
		if idx == nil {
			writeError(w, gtmgate.Errorf(gtmgate.EUnavailable, "search is not enabled"))
			return
		}
		res, err := idx.Search(q.Get("q"), q.Get("section"), limit)
		if errors.Is(err, content.ErrInvalidQuery) {
			writeError(w, gtmgate.Errorf(gtmgate.EValidation, "%s", err.Error()).WithHint("send q, 1 to 256 bytes: words, \"a phrase\" or a prefix*"))
			return
		}
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, res)
	})
}

func writeError(w http.ResponseWriter, err error) {
	e := gtmgate.AsError(err)
	w.Header().Set("Cache-Control", "no-store")
	jsonapi.Write(w, jsonapi.Status(e.Code), jsonapi.NewErrorBody(e, w.Header().Get("X-Request-Id")))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
