package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/telemetry"
)

// ServeChatCompletions handles POST /v1/chat/completions: decode (size-limited
// body, model, stream), authorize the model for the tenant, then forward the
// original bytes and relay the answer, buffered or streamed.
func (h *Handler) ServeChatCompletions(w http.ResponseWriter, r *http.Request) {
	ctx, span := telemetry.Start(r.Context(), "chat", "", telemetry.GenAIOperationName.String("chat"))
	defer span.End()
	r = r.WithContext(ctx)
	c := newCall(r, actionCompletions)
	body, err := readBody(w, r, h.maxBody)
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	req, err := parseChatRequest(body)
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	c.model = req.Model
	span.SetName("chat " + req.Model)
	allowed, err := allowedModels(r.Context(), h.tenants, c.principal)
	if err == nil {
		err = checkModel(req.Model, allowed)
	}
	if err == nil {
		// A completion costs money: do not run one whose record cannot be kept.
		err = h.recorder.Check()
	}
	if err == nil && h.quota != nil {
		c.quota, err = h.quota.ReserveQuota(r.Context(), gtmgate.QuotaUse{TenantID: c.principal.TenantID, Use: gtmgate.UseChat,
			Model: req.Model, MaxTokens: req.tokenCap()})
		if err == nil {
			// Counting the usage event settles the place; otherwise it is given back.
			defer c.quota.Release()
			if warning := c.quota.Warning(); warning != "" {
				w.Header().Set(gtmgate.QuotaWarningHeader, warning)
			}
		}
	}
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	if req.Stream {
		h.serveStream(w, r, c, req, body)
		return
	}
	h.serveComplete(w, r, c, body)
}

// serveComplete forwards a non-streaming request within the handler's time-out.
func (h *Handler) serveComplete(w http.ResponseWriter, r *http.Request, c *call, body []byte) {
	ctx, cancel := context.WithTimeoutCause(r.Context(), h.timeout, errUpstreamTimeout)
	defer cancel()
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
	h.relayBuffered(ctx, w, r, c, resp, parseUsage)
}

// relayBuffered reads the whole upstream answer, records the call, then
// writes status, headers and body back untouched: an acknowledged call is
// always recorded first. Upstream 4xx and 5xx keep their status and body.
func (h *Handler) relayBuffered(ctx context.Context, w http.ResponseWriter, r *http.Request, c *call,
	resp *http.Response, inspect func(c *call, body []byte) []byte) {
	body, err := readAll(io.LimitReader(resp.Body, maxResponseBytes+1), resp.ContentLength)
	c.upstreamEnd = time.Now()
	if err == nil && len(body) > maxResponseBytes {
		err = fmt.Errorf("chat: upstream response exceeds %d bytes", maxResponseBytes)
	}
	if err != nil {
		h.fail(w, r, c, upstreamError(ctx, r.Context(), err))
		return
	}
	c.status = resp.StatusCode
	if resp.StatusCode >= 300 {
		c.code = gtmgate.EUpstream
		if resp.StatusCode == http.StatusTooManyRequests {
			c.code = gtmgate.ERateLimited
		}
	} else if inspect != nil {
		body = inspect(c, body)
	}
	if err := h.record(r.Context(), c); err != nil {
		writeError(w, c.requestID, &gtmgate.Error{Code: gtmgate.EInternal, Message: "internal error"})
		return
	}
	hdr := w.Header()
	copyResponseHeaders(hdr, resp.Header)
	hdr["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(resp.StatusCode)
	w.Write(body)
}

// parseUsage takes the token counts of a completion body; the body is unchanged.
func parseUsage(c *call, body []byte) []byte {
	var v struct {
		Usage *usage `json:"usage"`
	}
	if json.Unmarshal(body, &v) == nil && v.Usage != nil {
		c.usage = *v.Usage
	}
	return body
}
