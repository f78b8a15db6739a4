package chat

import (
	"net/http"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// codeClientClosed is the audit code of a call whose client went away before
// the answer was complete. It is never sent: there is no one to send it to.
const codeClientClosed = gtmgate.EClientClosed

func errClientClosed(err error) *gtmgate.Error {
	return &gtmgate.Error{Code: codeClientClosed, Message: "client closed the request", Err: err}
}

// statusOf is jsonapi's mapping (CLIENT_CLOSED is 499, recorded only).
func statusOf(code string) int { return jsonapi.Status(code) }

// writeError writes e in gtmgate's error shape; error.message is also where
// the OpenAI SDKs look, so they show the gateway's message.
func writeError(w http.ResponseWriter, requestID string, e *gtmgate.Error) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	jsonapi.Write(w, statusOf(e.Code), jsonapi.NewErrorBody(e, requestID))
}
