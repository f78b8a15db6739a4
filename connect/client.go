package connect

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// DefaultTimeout bounds one provider call when Client.Timeout is zero.
const DefaultTimeout = 15 * time.Second

// Client speaks the providers' OAuth endpoints and discovery APIs.
type Client struct {
	// HTTP defaults to a client that follows no redirects.
	HTTP *http.Client
	// Bases overrides endpoints' bases by upstream key (config.Upstreams).
	Bases map[string]string
	// Version returns the configured API version of a provider key
	// (config.APIVersion); nil or "" means the catalogue's default.
	Version func(providerKey string) string
	// Timeout bounds each provider call (DefaultTimeout when zero).
	Timeout time.Duration
	// GoogleAdsDeveloperToken is sent to the Google Ads API when set, as
	// the Google Ads provider's options send it (app googleAdsOptions).
	GoogleAdsDeveloperToken string
	// Now is the clock of expiry times; time.Now when nil.
	Now func() time.Time
}

// Grant is what a code exchange returns. Tokens are secrets: never logged,
// shown or put in an error.
type Grant struct {
	AccessToken  string
	RefreshToken string
	// ExpiresAt is zero when the provider did not say.
	ExpiresAt time.Time
	// Scopes are the scopes the provider says it granted (none when it did not say).
	Scopes []string
	// TokenEndpoint is where the refresher renews it (refresh.SeedRecord).
	TokenEndpoint string
}

// Challenge is the PKCE S256 code challenge of verifier (RFC 7636 §4.2).
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func (c *Client) version(key string) string {
	if key == "" {
		return ""
	}
	if c.Version != nil {
		if v := c.Version(key); v != "" {
			return v
		}
	}
	return defaultVersion(key)
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// NewHTTPClient is the client for Client.HTTP that reaches provider
// endpoints through the outbound address policy p (egress), as web_fetch
// and OAuth client metadata fetches do: an endpoint override to a private
// or loopback address is refused unless p allows it. Like the default, it
// follows no redirects.
func NewHTTPClient(p egress.Policy) *http.Client {
	return &http.Client{Transport: egress.NewTransport(p, 10*time.Second),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TokenURL is p's token endpoint with c's overrides and versions.
func (c *Client) TokenURL(p Provider) string {
	return p.Token.URL(c.Bases, c.version(p.VersionKey))
}

// AuthorizeURL is the consent page to send the account owner to:
// response_type=code, the app's client id, the exact redirect URI, scopes,
// state, and the PKCE S256 challenge where p takes PKCE. For Google it asks
// for offline access and incremental consent, and forces the consent
// prompt only when no refresh token is held (Google returns one on the
// first consent only).
func (c *Client) AuthorizeURL(p Provider, app *gtmgate.OAuthApp, redirectURI, state, codeChallenge string, scopes []string, haveRefreshToken bool) (string, error) {
	switch {
	case app == nil || app.ClientID == "":
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s: no OAuth app is registered", p.Name).
			WithHint("register it with PUT /admin/oauth-apps/" + p.Name)
	case redirectURI == "" || state == "":
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s: a redirect URI and a state are required", p.Name)
	case p.PKCE && codeChallenge == "":
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s takes PKCE: a code challenge is required", p.Name)
	}
	u, err := url.Parse(p.Authorize.URL(c.Bases, c.version(p.VersionKey)))
	if err != nil {
		return "", gtmgate.Errorf(gtmgate.EInternal, "%s: authorization endpoint is not a URL", p.Name)
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", app.ClientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("state", state)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, p.ScopeSeparator))
	}
	if p.PKCE {
		q.Set("code_challenge", codeChallenge)
		q.Set("code_challenge_method", "S256")
	}
	if p.Name == Google {
		q.Set("access_type", "offline")
		q.Set("include_granted_scopes", "true")
		if !haveRefreshToken {
			q.Set("prompt", "consent")
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Exchange trades an authorization code for tokens at p's token endpoint
// (authorization_code grant, client credentials in the form body as each
// provider documents), with the PKCE verifier where p takes PKCE. Meta's
// short-lived token is then exchanged for its long-lived one. A refusal is
// UPSTREAM_ERROR naming the provider and its OAuth error code; a call that
// does not answer in time is UPSTREAM_TIMEOUT.
func (c *Client) Exchange(ctx context.Context, p Provider, app *gtmgate.OAuthApp, code, codeVerifier, redirectURI string) (*Grant, error) {
	if app == nil || app.ClientID == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "%s: no OAuth app is registered", p.Name)
	}
	if code == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "%s: the callback carried no authorization code", p.Name)
	}
	endpoint := c.TokenURL(p)
	form := url.Values{
		"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI},
		"client_id": {app.ClientID}, "client_secret": {app.ClientSecret},
	}
	if p.PKCE && codeVerifier != "" {
		form.Set("code_verifier", codeVerifier)
	}
	secrets := []string{code, codeVerifier, app.ClientSecret}
	tr, err := c.tokenCall(ctx, p, endpoint, form, secrets, "the authorization code")
	if err != nil {
		return nil, err
	}
	if p.Name == Meta {
		// Long-lived exchange: the code's token lasts about two hours.
		long := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {app.ClientID},
			"client_secret": {app.ClientSecret}, "fb_exchange_token": {tr.AccessToken}}
		lt, err := c.tokenCall(ctx, p, endpoint, long, append(secrets, tr.AccessToken), "the long-lived token exchange")
		if err != nil {
			return nil, err
		}
		if len(lt.scopes()) == 0 {
			lt.Scope = tr.Scope
		}
		tr = lt
	}
	g := &Grant{AccessToken: tr.AccessToken, RefreshToken: tr.RefreshToken, Scopes: tr.scopes(), TokenEndpoint: endpoint}
	if tr.ExpiresIn > 0 {
		g.ExpiresAt = c.now().Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	return g, nil
}

// tokenCall sends one token request: a form POST, except Meta's, whose
// documented shape is a GET with the parameters in the query (Meta's URL
// never reaches an error or a log here).
func (c *Client) tokenCall(ctx context.Context, p Provider, endpoint string, form url.Values, secrets []string, what string) (*tokenResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var req *http.Request
	var err error
	if p.Name == Meta {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"?"+form.Encode(), nil)
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		if req != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if err != nil {
		return nil, gtmgate.Errorf(gtmgate.EInternal, "%s: token endpoint is not a URL", p.Name)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, transportError(ctx, p.Name, "token endpoint", err)
	}
	defer resp.Body.Close()
	body, err := readLimited(resp.Body)
	if err != nil {
		return nil, transportError(ctx, p.Name, "token endpoint", err)
	}
	tr, oerr := parseTokenResponse(resp.StatusCode, body)
	if oerr != nil {
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream,
			Message: p.Title + " refused " + what + ": " + upstream.Redact([]byte(oerr.Code), secrets...).String(),
			Hint:    oauthHint(oerr.Code),
			Err:     errors.New(upstream.Excerpt(upstream.Redact([]byte(oerr.Description), secrets...)))}
	}
	return tr, nil
}

// oauthHint says what to do about an RFC 6749 §5.2 error code.
func oauthHint(code string) string {
	switch code {
	case "invalid_client", "unauthorized_client":
		return "check the OAuth app's client id and secret"
	case "invalid_grant":
		return "the code was used, expired or was issued for another redirect URI: open a new connect link"
	case "redirect_uri_mismatch":
		return "the redirect URI must be registered in the provider's app settings exactly as gtmgate shows it"
	}
	return ""
}

// transportError is a call that got no answer: the URL, which may carry
// secrets in its query, is left out.
func transportError(ctx context.Context, provider, what string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &gtmgate.Error{Code: gtmgate.EUpstreamTimeout, Message: provider + ": the " + what + " did not answer in time", Err: err}
	}
	return &gtmgate.Error{Code: gtmgate.EUpstream, Message: provider + ": the " + what + " could not be reached", Err: err}
}
