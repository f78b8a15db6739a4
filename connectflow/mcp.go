package connectflow

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/mcpoauth"
	"github.com/gtmgate/gtmgate/refresh"
	"golang.org/x/oauth2"
)

// A link whose Provider is "mcp:<server>" grants gtmgate an OAuth
// authorization-code grant (PKCE) at a tenant's upstream MCP server of auth
// kind oauth: the tenant's grant, or a person's own when the link names
// one. Its pages are the provider links' pages; there is no account to
// choose, so the callback completes the link.

// isMCP reports whether a link's target is an upstream MCP server.
func isMCP(provider string) bool { return strings.HasPrefix(provider, gtmgate.MCPGrantPrefix) }

// mcpHeld is what an opened MCP link keeps, sealed in its Secret, between
// the start and the callback: the PKCE verifier and the client it used.
type mcpHeld struct {
	Verifier      string   `json:"verifier"`
	ClientID      string   `json:"client_id"`
	ClientSecret  string   `json:"client_secret,omitempty"`
	TokenEndpoint string   `json:"token_endpoint"`
	AuthEndpoint  string   `json:"authorization_endpoint"`
	Resource      string   `json:"resource"`
	Scopes        []string `json:"scopes,omitempty"`
}

// mcpClient is the HTTP client of discovery, registration and the code
// exchange: every URL comes from the upstream, so it must be egress-checked.
func (f *Flow) mcpClient() *http.Client {
	if f.opts.MCPClient != nil {
		return f.opts.MCPClient
	}
	return &http.Client{Timeout: 10 * time.Second}
}

// mcpServer is the link's server when it still has auth kind oauth.
func (f *Flow) mcpServer(ctx context.Context, tenantID, provider string) (*gtmgate.MCPServer, error) {
	name := strings.TrimPrefix(provider, gtmgate.MCPGrantPrefix)
	s, err := f.opts.Store.GetMCPServer(ctx, tenantID, name)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no upstream MCP server %q", tenantID, name)
	} else if err != nil {
		return nil, err
	}
	if s.Auth.Kind != gtmgate.MCPAuthOAuth {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "upstream MCP server %q has auth kind %s, not oauth: it needs no connect link", name, s.Auth.Kind).
			WithHint("set its auth.kind to oauth to connect it with an authorization-code grant")
	}
	return s, nil
}

// issueMCP creates a link to server "mcp:<name>" of the path's tenant.
func (f *Flow) issueMCP(w http.ResponseWriter, r *http.Request, body CreateBody) {
	tenantID := r.PathValue("tenant_id")
	expiry, err := linkExpiry(body.ExpiresIn)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if len(body.Products) > 0 || body.ReadOnly {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "a link to an upstream MCP server takes no products or read_only"))
		return
	}
	// A re-connect link (reauth's family and account) names the grant's
	// account as its hint: "tenant", or the person's id.
	if body.Person == "" && body.AccountHint != gtmgate.MCPGrantTenant {
		body.Person = body.AccountHint
	}
	if _, err := f.opts.Store.GetTenant(r.Context(), tenantID); errors.Is(err, gtmgate.ErrNotFound) {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenantID))
		return
	} else if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	s, err := f.mcpServer(r.Context(), tenantID, body.Provider)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	// The tenant's grant of a per-person server would never be used.
	if s.Auth.PerPerson() && body.Person == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "upstream MCP server %q uses each person's own grant: a link to it names a person", s.Name).
			WithHint(`name one with "person", or let each person connect their own: POST /admin/tenants/`+tenantID+
				"/connect-links/mine, or Connect your account on the server's console page"))
		return
	}
	person := ""
	if body.Person != "" {
		who, err := gtmgate.PersonOfTenant(r.Context(), f.opts.Store, tenantID, "person", body.Person)
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		person = who.ID
	}
	now := f.now()
	secret := newSecret()
	l := &gtmgate.ConnectLink{ID: gtmgate.NewID("cl_"), TokenHash: hash(secret), TenantID: tenantID, Provider: gtmgate.MCPGrantProvider(s.Name),
		Person: person, Scopes: append([]string{}, s.Auth.Scopes...), Status: gtmgate.ConnectCreated,
		CreatedBy: gtmgate.ActorKeyFromContext(r.Context()), CreatedAt: now, ExpiresAt: now.Add(expiry)}
	f.createLink(w, r, l, secret, "upstream MCP server "+s.Name)
}

// linkExpiry is a link's lifetime from expires_in (seconds, 0: the default).
func linkExpiry(in int64) (time.Duration, error) {
	if in == 0 {
		return DefaultExpiry, nil
	}
	if in < 60 || in > int64(MaxExpiry/time.Second) {
		return 0, gtmgate.Errorf(gtmgate.EValidation, "expires_in must be between 60 and %d seconds (7 days)", int64(MaxExpiry/time.Second))
	}
	return time.Duration(in) * time.Second, nil
}

// showMCP serves the page of a link to an MCP server. Discovery runs here
// already: the page's form ends at the authorization server, which the
// page's form-action must name.
func (f *Flow) showMCP(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink, t *gtmgate.Tenant) {
	s, err := f.mcpServer(r.Context(), l.TenantID, l.Provider)
	if err != nil {
		f.refuse(w, http.StatusGone, "Not available", gtmgate.AsError(err).Message+".")
		return
	}
	d, err := mcpoauth.Discover(r.Context(), f.mcpClient(), s.URL)
	if err != nil {
		f.refuse(w, http.StatusBadGateway, "Server not reachable", "gtmgate could not find how to sign in to the MCP server "+s.Name+": "+err.Error()+".")
		return
	}
	title := s.Name + " MCP server"
	pg := page{Title: "Connect " + title, TenantID: t.ID, TenantName: t.Name, Provider: title, Consent: hostOf(d.Server.AuthorizationEndpoint),
		Scopes: scopeLines(l.Scopes), Expires: l.ExpiresAt.Format(time.RFC1123), CSRF: f.formToken(w, r, l),
		provider: origin(d.Server.AuthorizationEndpoint)}
	f.render(w, http.StatusOK, "link", pg)
}

// hostOf is a URL's host, for people.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}

// startMCP opens a link to an MCP server (the start guard passed), with
// the client chooseClient picks.
func (f *Flow) startMCP(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink) {
	s, err := f.mcpServer(r.Context(), l.TenantID, l.Provider)
	if err != nil {
		f.refuse(w, http.StatusGone, "Not available", gtmgate.AsError(err).Message+".")
		return
	}
	client := f.mcpClient()
	d, err := mcpoauth.Discover(r.Context(), client, s.URL)
	if err != nil {
		f.refuse(w, http.StatusBadGateway, "Server not reachable", "gtmgate could not find how to sign in to the MCP server "+s.Name+": "+err.Error()+".")
		return
	}
	c, err := f.chooseClient(r.Context(), client, l, s, d)
	if err != nil {
		f.refuse(w, http.StatusBadGateway, "Cannot sign in", err.Error()+".")
		return
	}
	state, verifier := newSecret(), newSecret()
	cfg := mcpoauth.Config(d, c, f.redirectURI, l.Scopes)
	h := mcpHeld{Verifier: verifier, ClientID: c.ID, ClientSecret: c.Secret, TokenEndpoint: d.Server.TokenEndpoint,
		AuthEndpoint: d.Server.AuthorizationEndpoint, Resource: d.Resource, Scopes: cfg.Scopes}
	held, _ := json.Marshal(h)
	now := f.now()
	l.Status, l.StateHash, l.Secret, l.OpenedAt = gtmgate.ConnectOpened, hash(state), string(held), &now
	if !f.claim(w, r, gtmgate.ConnectCreated, l, http.StatusGone, "This connect link was already used; each link works once.") {
		return
	}
	f.audit(r, l, "connect.opened", gtmgate.OutcomeOK, http.StatusSeeOther, "sent to "+hostOf(d.Server.AuthorizationEndpoint)+" consent")
	http.SetCookie(w, f.stateCookie(l, state, int(cookieMaxAge/time.Second)))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, mcpoauth.AuthCodeURL(cfg, state, verifier, d.Resource), http.StatusSeeOther)
}

// chooseClient is the grant's client, in the order of the MCP
// specification (mcpoauth/cimd.go): the server's static client; gtmgate's
// client ID metadata document, when the authorization server accepts one
// and can fetch it; the client registered for an earlier grant; one
// registered now (RFC 7591). Else an error naming what the server offers.
// The server's auth.client_registration narrows the last three: "dynamic"
// never offers the document (an authorization server that advertises it
// may still be unable to reach gtmgate's public URL), "metadata_document"
// offers nothing else.
func (f *Flow) chooseClient(ctx context.Context, client *http.Client, l *gtmgate.ConnectLink, s *gtmgate.MCPServer, d *mcpoauth.Discovery) (*mcpoauth.Client, error) {
	if s.Auth.ClientID != "" {
		return &mcpoauth.Client{ID: s.Auth.ClientID, Secret: s.Auth.Secret}, nil
	}
	var whyNot string
	if s.Auth.ClientRegistration != gtmgate.MCPClientRegistrationDynamic {
		var c *mcpoauth.Client
		c, whyNot = mcpoauth.MetadataDocumentClient(d, mcpoauth.ClientMetadataURL(f.opts.GatewayURL), f.opts.AllowLoopbackClientMetadata)
		if c != nil {
			return c, nil
		}
	}
	if s.Auth.ClientRegistration == gtmgate.MCPClientRegistrationMetadataDocument {
		if whyNot == "" {
			whyNot = "it accepts no client ID metadata document (its metadata lacks client_id_metadata_document_supported)"
		}
		return nil, &mcpoauth.Error{Msg: "upstream MCP server " + s.Name + " is set to use gtmgate's client ID metadata document only " +
			"(auth.client_registration metadata_document), but the authorization server " + d.Server.Issuer + " cannot use it: " + whyNot +
			"; set auth.client_registration to auto or dynamic, or configure a static client"}
	}
	if c := f.registeredClient(ctx, l, d); c != nil {
		return c, nil
	}
	if d.Server.RegistrationEndpoint == "" {
		if s.Auth.ClientRegistration == gtmgate.MCPClientRegistrationDynamic {
			whyNot = "auth.client_registration dynamic rules out gtmgate's client ID metadata document"
		}
		if whyNot == "" {
			whyNot = "it accepts no client ID metadata document (client_id_metadata_document_supported)"
		}
		return nil, &mcpoauth.Error{Msg: "the authorization server " + d.Server.Issuer + " offers no dynamic client registration, and " + whyNot +
			": configure a static client (auth.client_id, auth.client_secret) registered there with redirect URI " + f.redirectURI}
	}
	return mcpoauth.Register(ctx, client, d, f.redirectURI, f.clientName())
}

// registeredClient is the client registered for an earlier grant of this
// server at the same token endpoint (kept, sealed, in the grant's refresh
// record), so a re-connect does not register another; nil when none. A
// grant made with the metadata document does not count: that client is
// offered only while the server accepts it.
func (f *Flow) registeredClient(ctx context.Context, l *gtmgate.ConnectLink, d *mcpoauth.Discovery) *mcpoauth.Client {
	for _, account := range []string{grantAccount(l.Person), gtmgate.MCPGrantTenant} {
		o, err := f.opts.Store.GetProviderOAuth(ctx, l.TenantID, l.Provider, account)
		if err == nil && o.ClientID != "" && o.ClientID != mcpoauth.ClientMetadataURL(f.opts.GatewayURL) && o.TokenEndpoint == d.Server.TokenEndpoint {
			return &mcpoauth.Client{ID: o.ClientID, Secret: o.ClientSecret}
		}
	}
	return nil
}

// grantAccount is the account a grant is kept under: the person's id, or
// the tenant's.
func grantAccount(person string) string {
	if person != "" {
		return person
	}
	return gtmgate.MCPGrantTenant
}

// callbackMCP finishes a link to an MCP server: the code is exchanged, the
// tokens stored sealed and the refresher seeded.
func (f *Flow) callbackMCP(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink, q callbackParams) {
	name := strings.TrimPrefix(l.Provider, gtmgate.MCPGrantPrefix)
	if q.Error != "" {
		why := "consent was refused at the authorization server: " + clip(q.Error, 80)
		if q.ErrorDescription != "" {
			why += " (" + q.ErrorDescription + ")"
		}
		f.fail(w, r, l, gtmgate.ConnectOpened, http.StatusForbidden, "Not connected", why)
		return
	}
	var h mcpHeld
	if err := json.Unmarshal([]byte(l.Secret), &h); err != nil {
		f.internal(w, r, errors.New("connect link "+l.ID+": held client unreadable"))
		return
	}
	l.Status = gtmgate.ConnectExchanging
	if !f.claim(w, r, gtmgate.ConnectOpened, l, http.StatusConflict, alreadyUsed) {
		return
	}
	d := &mcpoauth.Discovery{Server: mcpoauth.ServerMetadata{AuthorizationEndpoint: h.AuthEndpoint, TokenEndpoint: h.TokenEndpoint}}
	cfg := mcpoauth.Config(d, &mcpoauth.Client{ID: h.ClientID, Secret: h.ClientSecret}, f.redirectURI, h.Scopes)
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, f.mcpClient())
	tok, err := mcpoauth.Exchange(ctx, cfg, q.Code, h.Verifier, h.Resource)
	if err != nil {
		f.opts.Logger.Warn("connect flow: MCP code exchange", "err", err, "link", l.ID)
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusBadGateway, "Not connected", "the authorization server refused the code exchange")
		return
	}
	t, err := f.opts.Store.GetTenant(r.Context(), l.TenantID)
	if err != nil {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusGone, "Not connected", "the tenant could not be read")
		return
	}
	account := grantAccount(l.Person)
	now := f.now()
	pt := &gtmgate.ProviderToken{TenantID: l.TenantID, Provider: l.Provider, AccountID: account, AccessToken: tok.AccessToken,
		TokenType: "Bearer", ExpiresAt: tok.Expiry, UpdatedAt: now}
	if err := f.opts.Store.PutProviderToken(r.Context(), pt); err != nil {
		f.fail(w, r, l, gtmgate.ConnectExchanging, http.StatusInternalServerError, "Not connected", "the grant could not be stored")
		return
	}
	if tok.RefreshToken != "" {
		if _, err := f.opts.Seeder.Seed(r.Context(), refresh.SeedRecord{TenantID: l.TenantID, Provider: l.Provider, AccountID: account,
			ClientID: h.ClientID, ClientSecret: h.ClientSecret, TokenEndpoint: h.TokenEndpoint, RefreshToken: tok.RefreshToken,
			Resource: h.Resource}); err != nil {
			f.opts.Logger.Warn("connect flow: seed MCP grant refresh", "err", err, "link", l.ID)
		}
	}
	whose := "the tenant"
	if l.Person != "" {
		whose = "person " + l.Person
	}
	l.Status, l.Secret, l.FinishedAt, l.Result = gtmgate.ConnectCompleted, "", &now, "connected upstream MCP server "+name+" for "+whose
	if !f.claim(w, r, gtmgate.ConnectExchanging, l, http.StatusConflict, alreadyUsed) {
		return
	}
	f.audit(r, l, "connect.completed", gtmgate.OutcomeOK, http.StatusOK, l.Result)
	f.forget(w, l)
	if f.opts.OnMCPConnected != nil {
		go f.opts.OnMCPConnected(l.TenantID, name, l.CreatedBy)
	}
	title := name + " MCP server"
	f.render(w, http.StatusOK, "done", page{Title: "MCP server " + name + " connected", Provider: title, TenantID: t.ID, TenantName: t.Name,
		Connected: []string{title + " (for " + whose + ")"}})
}
