package admin

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/secret"
)

// MinTokenLength is the shortest tenant bearer token accepted (seed 001).
const MinTokenLength = 16

const tokenHint = "generate a random token, for example with: openssl rand -hex 32"

// RegisterTokenBody is POST /admin/auth's body.
type RegisterTokenBody struct {
	TenantID string `json:"tenant_id"`
	Token    string `json:"token"`
	Label    string `json:"label,omitempty"`
	// Toolset limits the token's agent to one of the tenant's toolsets.
	Toolset string `json:"toolset,omitempty"`
	// Person is the person the token's agent acts for (id "p_…" or the
	// email they sign in with): it reaches their own accounts and the
	// shared ones, never another person's. Empty: an agent of the tenant.
	Person string `json:"person,omitempty"`
}

// registerToken serves POST /admin/auth. Only the token's hash is kept.
func (h *Handler) registerToken(w http.ResponseWriter, r *http.Request) {
	var b RegisterTokenBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.TenantID == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "tenant_id is required"))
		return
	}
	if len(b.Token) < MinTokenLength {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "token must be at least %d characters", MinTokenLength).
			WithHint(tokenHint))
		return
	}
	if bits := secret.EntropyBits(b.Token); bits < secret.MinTokenEntropyBits {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation,
			"token is too easy to guess: about %.0f bits of entropy, at least %d needed", bits, secret.MinTokenEntropyBits).
			WithHint(tokenHint))
		return
	}
	tenant, err := h.tenant(r, b.TenantID)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if _, ok := tenant.Toolsets[b.Toolset]; b.Toolset != "" && !ok {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "toolset %q is not one of tenant %q's toolsets", b.Toolset, b.TenantID).
			WithHint("create it first with PUT /admin/tenants/"+b.TenantID+"/toolsets/"+b.Toolset))
		return
	}
	t := &gtmgate.TenantToken{ID: gtmgate.NewID("tok_"), TenantID: b.TenantID, Hash: secret.HashToken(b.Token),
		Prefix: secret.TokenPrefix(b.Token), Label: b.Label, Toolset: b.Toolset, CreatedBy: gtmgate.ActorKeyFromContext(r.Context()), CreatedAt: h.opts.Now().UTC()}
	if b.Person != "" {
		p, err := gtmgate.PersonOfTenant(r.Context(), h.opts.Store, b.TenantID, "person", b.Person)
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		t.Person = p.ID
	}
	if err := h.opts.Store.CreateTenantToken(r.Context(), t); err != nil {
		if errors.Is(err, gtmgate.ErrConflict) {
			err = gtmgate.Errorf(gtmgate.EConflict, "this token is already registered")
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	detail := "token " + t.ID
	if t.Person != "" {
		detail += " acting for person " + t.Person
	}
	setAuditDetail(w, detail)
	jsonapi.Write(w, http.StatusCreated, t)
}

func (h *Handler) listTokens(w http.ResponseWriter, r *http.Request) {
	listOfTenant(h, w, r, "tokens", func(ctx context.Context, id string) ([]*gtmgate.TenantToken, error) {
		ts, err := h.opts.Store.ListTenantTokens(ctx, id)
		if ts == nil {
			ts = []*gtmgate.TenantToken{}
		}
		return ts, err
	})
}

// listOfTenant answers {key: list} for the path's tenant, NOT_FOUND when the
// tenant does not exist.
func listOfTenant[T any](h *Handler, w http.ResponseWriter, r *http.Request, key string, list func(ctx context.Context, tenantID string) ([]T, error)) {
	id := r.PathValue("tenant_id")
	if _, err := h.tenant(r, id); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	items, err := list(r.Context(), id)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{key: items})
}

func (h *Handler) revokeToken(w http.ResponseWriter, r *http.Request) {
	tenant, id := r.PathValue("tenant_id"), r.PathValue("token_id")
	err := h.opts.Store.RevokeTenantToken(r.Context(), tenant, id, h.opts.Now().UTC())
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no token %q", tenant, id)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, "token "+id)
	h.revoked(r.Context(), tenant)
	jsonapi.Write(w, http.StatusOK, map[string]any{"revoked": id})
}

// ProviderTokenBody is the stored provider token of the spec.
type ProviderTokenBody struct {
	AccessToken string `json:"access_token"`
	ExpiresAt   int64  `json:"expires_at"`
	TokenType   string `json:"token_type"`
}

// putProviderToken serves PUT /admin/tokens/{tenant_id}/{provider}/{account_id}.
func (h *Handler) putProviderToken(w http.ResponseWriter, r *http.Request) {
	tenantID, provider, account := r.PathValue("tenant_id"), r.PathValue("provider"), r.PathValue("account_id")
	var b ProviderTokenBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.AccessToken == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "access_token is required"))
		return
	}
	if b.ExpiresAt < 0 {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "expires_at must be Unix seconds"))
		return
	}
	t, err := h.tenant(r, tenantID)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if _, ok := t.Providers[provider].Account(account); !ok || account == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "account %q is not a %s account in tenant %q's configuration", account, provider, tenantID).
			WithHint("add it under providers."+provider+".accounts with PUT /admin/tenants/"+tenantID))
		return
	}
	if b.TokenType == "" {
		b.TokenType = "Bearer"
	}
	pt := &gtmgate.ProviderToken{TenantID: tenantID, Provider: provider, AccountID: account, AccessToken: b.AccessToken,
		TokenType: b.TokenType, UpdatedAt: h.opts.Now().UTC()}
	if b.ExpiresAt > 0 {
		pt.ExpiresAt = time.Unix(b.ExpiresAt, 0).UTC()
	}
	if err := h.opts.Store.PutProviderToken(r.Context(), pt); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"tenant_id": tenantID, "provider": provider, "account_id": account,
		"token_type": pt.TokenType, "expires_at": b.ExpiresAt, "stored": true})
}

// listProviderTokens serves GET /admin/tenants/{tenant_id}/provider-tokens:
// which accounts have a stored token and when it expires, never the token.
func (h *Handler) listProviderTokens(w http.ResponseWriter, r *http.Request) {
	listOfTenant(h, w, r, "provider_tokens", h.opts.Store.ListProviderTokens)
}

// listOAuthGrants serves GET /admin/tenants/{tenant_id}/oauth-grants: the
// OAuth clients holding live tokens for the tenant.
func (h *Handler) listOAuthGrants(w http.ResponseWriter, r *http.Request) {
	listOfTenant(h, w, r, "oauth_grants", func(ctx context.Context, id string) ([]gtmgate.OAuthGrant, error) {
		return h.opts.Store.ListOAuthGrants(ctx, id, h.opts.Now().UTC())
	})
}

// RevokeGrantBody is POST /admin/tenants/{tenant_id}/oauth-grants/revoke's
// body; a client id may be a URL, so it travels in the body, not the path.
type RevokeGrantBody struct {
	ClientID string `json:"client_id"`
}

// revokeOAuthGrant revokes every token an OAuth client holds for a tenant;
// the client must be authorised again.
func (h *Handler) revokeOAuthGrant(w http.ResponseWriter, r *http.Request) {
	tenant := r.PathValue("tenant_id")
	var b RevokeGrantBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.ClientID == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "client_id is required"))
		return
	}
	n, err := h.opts.Store.RevokeOAuthGrant(r.Context(), tenant, b.ClientID, h.opts.Now().UTC())
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "client %q holds no live token for tenant %q", b.ClientID, tenant)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, "client "+b.ClientID)
	h.revoked(r.Context(), tenant)
	jsonapi.Write(w, http.StatusOK, map[string]any{"client_id": b.ClientID, "revoked_tokens": n})
}

// revoked tells the revocation listener that a credential of tenantID was
// revoked, detached from the request so that a hang-up does not cut it short.
// The revocation's answer follows it, so what it disabled shows at once.
func (h *Handler) revoked(ctx context.Context, tenantID string) {
	if h.opts.CredentialsRevoked != nil {
		h.opts.CredentialsRevoked(context.WithoutCancel(ctx), tenantID)
	}
}
