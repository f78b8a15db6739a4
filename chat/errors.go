package chat

import (
	"net/http"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// errClientClosed records a call whose client went away before the answer
// was complete; no one receives it.
func errClientClosed(err error) *gtmgate.Error {
	return &gtmgate.Error{Code: gtmgate.EClientClosed, Message: "client closed the request", Err: err}
}

// writeError writes e in gtmgate's error shape; error.message is also where
// the OpenAI SDKs look, so they show the gateway's message.
func writeError(w http.ResponseWriter, requestID string, e *gtmgate.Error) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	jsonapi.Write(w, jsonapi.Status(e.Code), jsonapi.NewErrorBody(e, requestID))
}
