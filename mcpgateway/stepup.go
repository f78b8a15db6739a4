package mcpgateway

import (
	"net/http"
	"sync/atomic"
)

// stepUp lets a tool handler, which has the parsed call, ask the transport
// layer to answer the HTTP request with a 403 insufficient_scope challenge
// instead of the tool result (MCP authorization, step-up). In stateless JSON
// mode the SDK writes the response only after every handler has returned,
// so the flag is always set before the first byte is written.
type stepUp struct{ needed atomic.Bool }

// stepUpWriter discards the SDK's response when step-up was requested and
// writes the challenge in its place.
type stepUpWriter struct {
	http.ResponseWriter
	r       *http.Request
	flag    *stepUp
	deny    func(http.ResponseWriter, *http.Request)
	decided bool
	denied  bool
}

func (w *stepUpWriter) decide() {
	if w.decided {
		return
	}
	w.decided = true
	if w.flag.needed.Load() {
		w.denied = true
		for k := range w.ResponseWriter.Header() {
			w.ResponseWriter.Header().Del(k)
		}
		w.deny(w.ResponseWriter, w.r)
	}
}

func (w *stepUpWriter) WriteHeader(status int) {
	w.decide()
	if !w.denied {
		w.ResponseWriter.WriteHeader(status)
	}
}

func (w *stepUpWriter) Write(b []byte) (int, error) {
	w.decide()
	if w.denied {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *stepUpWriter) Flush() {
	w.decide()
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.denied {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *stepUpWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
