package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
)

// ServeModels handles GET /v1/models: the upstream's model list, limited to
// the tenant's allowed models when it has any.
func (h *Handler) ServeModels(w http.ResponseWriter, r *http.Request) {
	c := newCall(r, actionModels)
	allowed, err := allowedModels(r.Context(), h.tenants, c.principal)
	if err != nil {
		h.fail(w, r, c, gtmgate.AsError(err))
		return
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), h.timeout, errUpstreamTimeout)
	defer cancel()
	ureq, err := h.newUpstreamRequest(ctx, http.MethodGet, h.modelsURL, nil, r)
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
	var inspect func(*call, []byte) []byte
	if len(allowed) > 0 {
		inspect = func(c *call, body []byte) []byte {
			out, err := filterModels(body, allowed)
			if err != nil {
				h.log.WarnContext(r.Context(), "chat: model list not filtered", "request_id", c.requestID, "err", err)
				c.code = gtmgate.EUpstream
				return []byte(`{"object":"list","data":[]}`)
			}
			return out
		}
	}
	h.relayBuffered(ctx, w, r, c, resp, inspect)
}

// filterModels keeps the entries of an OpenAI model list whose id is allowed.
// Other members and each kept entry are preserved verbatim.
func filterModels(body []byte, allowed []string) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, fmt.Errorf("chat: decode model list: %w", err)
	}
	var data []json.RawMessage
	if err := json.Unmarshal(top["data"], &data); err != nil {
		return nil, fmt.Errorf("chat: decode model list data: %w", err)
	}
	kept := make([]json.RawMessage, 0, len(allowed))
	for _, m := range data {
		var id struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(m, &id) == nil && slices.Contains(allowed, id.ID) {
			kept = append(kept, m)
		}
	}
	var err error
	if top["data"], err = marshalVerbatim(kept); err != nil {
		return nil, err
	}
	return marshalVerbatim(top)
}
