package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// serveStream forwards a streaming request and relays the SSE answer event by
// event. The upstream request lives as long as the client's: a client that
// goes away cancels it. An idle timer cancels it when the upstream is silent
// for longer than StreamIdleTimeout, headers included.
func (h *Handler) serveStream(w http.ResponseWriter, r *http.Request, c *call, req *chatRequest, body []byte) {
	release, err := h.streams.acquire(c.principal.TenantID)
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	defer release()
	strip := !req.wantsUsage()
	if strip {
		if body, err = withIncludeUsage(body, req.StreamOptions); err != nil {
			h.fail(w, r, c, gtmgate.AsError(err))
			return
		}
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	idle := time.AfterFunc(h.idle, func() { cancel(errIdleTimeout) })
	defer idle.Stop()

	ureq, err := h.newUpstreamRequest(ctx, http.MethodPost, h.completionsURL, body, r)
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	c.upstreamStart = time.Now()
	resp, err := h.hc.Do(ureq)
	if err != nil {
		h.fail(w, r, c, upstreamError(ctx, r.Context(), err))
		return
	}
	defer resp.Body.Close()
	idle.Reset(h.idle)
	resp.Body = &idleReader{ReadCloser: resp.Body, timer: idle, idle: h.idle}
	if resp.StatusCode != http.StatusOK || !isEventStream(resp.Header) {
		// An error, or an upstream that ignored "stream": relay it whole.
		h.relayBuffered(ctx, w, r, c, resp, parseUsage)
		return
	}
	h.relayEvents(ctx, w, r, c, resp, strip)
	h.record(r.Context(), c)
}

// eventReaderPool reuses stream buffers across requests.
var eventReaderPool = sync.Pool{New: func() any {
	return &eventReader{br: bufio.NewReaderSize(nil, 16<<10), ev: make([]byte, 0, 1024)}
}}

func isEventStream(h http.Header) bool {
	ct := h.Get("Content-Type")
	return len(ct) >= 17 && ct[:17] == "text/event-stream"
}

// idleReader re-arms the idle timer whenever upstream bytes arrive.
type idleReader struct {
	io.ReadCloser
	timer *time.Timer
	idle  time.Duration
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.ReadCloser.Read(p)
	if n > 0 {
		ir.timer.Reset(ir.idle)
	}
	return n, err
}

// relayEvents copies the SSE stream to the client. It flushes whenever no
// further upstream bytes are already waiting, so each event leaves as soon as
// it arrived and a burst costs one flush. A read failure or idle time-out ends
// the stream with an error event; it never hangs.
func (h *Handler) relayEvents(ctx context.Context, w http.ResponseWriter, r *http.Request, c *call, resp *http.Response, strip bool) {
	hdr := w.Header()
	copyResponseHeaders(hdr, resp.Header)
	hdr["X-Accel-Buffering"] = []string{"no"} // ask reverse proxies not to buffer
	c.status = resp.StatusCode
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	defer rc.SetWriteDeadline(time.Time{})
	flush := func() error {
		rc.SetWriteDeadline(time.Now().Add(h.idle)) // a stalled client must not pin us
		return rc.Flush()
	}
	if err := flush(); err != nil {
		c.code = gtmgate.EClientClosed
		return
	}
	er := eventReaderPool.Get().(*eventReader)
	er.br.Reset(resp.Body)
	defer func() { er.br.Reset(nil); eventReaderPool.Put(er) }()
	var sf streamFilter
	sf.strip = strip
	for {
		ev, err := er.next()
		if err != nil {
			c.upstreamEnd = time.Now()
			if errors.Is(err, io.EOF) && len(ev) > 0 {
				ev = sf.filter(ev) // last event without its blank line
				if _, werr := w.Write(ev); werr == nil {
					flush()
				}
			}
			h.endStream(ctx, w, r, c, &sf, err, flush)
			return
		}
		if ev = sf.filter(ev); len(ev) == 0 {
			continue
		}
		if _, err := w.Write(ev); err != nil {
			c.code = gtmgate.EClientClosed
			return
		}
		if er.br.Buffered() == 0 {
			if err := flush(); err != nil {
				c.code = gtmgate.EClientClosed
				return
			}
		}
	}
}

// endStream settles the outcome when the upstream stream ends with err.
func (h *Handler) endStream(ctx context.Context, w http.ResponseWriter, r *http.Request, c *call, sf *streamFilter, err error, flush func() error) {
	c.usage = sf.usage
	switch {
	case errors.Is(err, io.EOF):
		if sf.upstreamFailed {
			c.code = gtmgate.EUpstream
		}
		return
	case r.Context().Err() != nil:
		c.code = gtmgate.EClientClosed
		return
	}
	e := upstreamError(ctx, r.Context(), err)
	c.code = e.Code
	if e.Code == gtmgate.EUpstreamTimeout {
		e.Message = fmt.Sprintf("the model gateway sent nothing for %s", h.idle)
	} else {
		e.Message = "the model gateway's stream broke off"
	}
	h.log.WarnContext(r.Context(), "chat: stream ended by upstream failure",
		"request_id", c.requestID, "code", e.Code, "err", err)
	w.Write(errorEvent(e))
	flush()
}

// errorEvent is the SSE event that ends a failed stream; the OpenAI SDKs raise
// an API error on a data event carrying "error".
func errorEvent(e *gtmgate.Error) []byte {
	var v struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    string `json:"code"`
		} `json:"error"`
	}
	v.Error.Message, v.Error.Type, v.Error.Code = e.Message, "upstream_error", e.Code
	b, _ := json.Marshal(v)
	return fmt.Appendf(nil, "data: %s\n\n", b)
}
