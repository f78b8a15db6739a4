package oauth

import (
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/secret"
)

// maxConnectCodeTTL bounds how long an operator may make a connect code live.
const maxConnectCodeTTL = 24 * time.Hour

// ConnectCodeRequest is POST /admin/oauth/connect-codes's body.
type ConnectCodeRequest struct {
	TenantID   string `json:"tenant_id"`
	TTLSeconds int    `json:"ttl_seconds,omitempty"`
}

// ConnectCodeResponse carries the code, shown once.
type ConnectCodeResponse struct {
	Code      string    `json:"code"`
	TenantID  string    `json:"tenant_id"`
	ExpiresAt time.Time `json:"expires_at"`
}

// handleCreateConnectCode serves POST /admin/oauth/connect-codes: a one-time
// code (default 15 min) that lets a person authorize an MCP client for the
// tenant on the consent page without holding a tenant token. Only its hash is
// stored; the code is shown once.
func (s *Server) handleCreateConnectCode(w http.ResponseWriter, r *http.Request) {
	var b ConnectCodeRequest
	if err := jsonapi.Decode(w, r, maxFormBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.TenantID == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "tenant_id is required"))
		return
	}
	ttl := s.opts.ConnectCodeTTL
	if b.TTLSeconds != 0 {
		ttl = time.Duration(b.TTLSeconds) * time.Second
		if ttl < time.Minute || ttl > maxConnectCodeTTL {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "ttl_seconds must be between 60 and %d", int(maxConnectCodeTTL.Seconds())))
			return
		}
	}
	if _, err := s.opts.Store.GetTenant(r.Context(), b.TenantID); err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) {
			err = gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q does not exist", b.TenantID)
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	code, err := secret.NewToken("gtmcc_")
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	now := s.opts.Now().UTC()
	c := &gtmgate.ConnectCode{Hash: secret.HashToken(code), TenantID: b.TenantID, CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := s.opts.Store.CreateConnectCode(r.Context(), c); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	jsonapi.Write(w, http.StatusCreated, ConnectCodeResponse{Code: code, TenantID: b.TenantID, ExpiresAt: c.ExpiresAt})
}
