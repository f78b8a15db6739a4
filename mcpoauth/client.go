package mcpoauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
)

// Client is the OAuth client gtmgate uses at an authorization server: the
// operator's static one, or one registered dynamically. Secret is empty
// for a public client.
type Client struct {
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"`
}

// Register registers gtmgate as a client of d's authorization server
// (RFC 7591) for redirectURI. It fails when the server offers no
// registration endpoint: the operator then configures a static client.
func Register(ctx context.Context, client *http.Client, d *Discovery, redirectURI, clientName string) (*Client, error) {
	if d.Server.RegistrationEndpoint == "" {
		return nil, &Error{Msg: "the authorization server " + d.Server.Issuer + " offers no dynamic client registration: " +
			"configure a static client (auth.client_id, auth.client_secret) registered there with redirect URI " + redirectURI}
	}
	body, _ := json.Marshal(map[string]any{
		"client_name":                clientName,
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Server.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fail("registering at %s: %v", d.Server.RegistrationEndpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		_ = decode(resp.Body, d.Server.RegistrationEndpoint, &e)
		return nil, fail("the authorization server refused the registration (HTTP %d %s %s)", resp.StatusCode, e.Error, e.Description)
	}
	var c Client
	if err := decode(resp.Body, d.Server.RegistrationEndpoint, &c); err != nil {
		return nil, fail("registering: %v", err)
	}
	if c.ID == "" {
		return nil, fail("the authorization server's registration answer has no client_id")
	}
	return &c, nil
}

// Config is the oauth2 configuration of c at d's authorization server.
func Config(d *Discovery, c *Client, redirectURI string, scopes []string) *oauth2.Config {
	if len(scopes) == 0 && d.Scope != "" {
		scopes = strings.Fields(d.Scope)
	}
	if len(scopes) == 0 {
		scopes = d.ResourceMetadata.ScopesSupported
	}
	style := oauth2.AuthStyleInParams
	if c.Secret != "" {
		style = oauth2.AuthStyleInHeader
	}
	return &oauth2.Config{ClientID: c.ID, ClientSecret: c.Secret, RedirectURL: redirectURI, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: d.Server.AuthorizationEndpoint, TokenURL: d.Server.TokenEndpoint, AuthStyle: style}}
}

// AuthCodeURL is the consent page's address: state, the PKCE S256
// challenge of verifier, and the resource (RFC 8707).
func AuthCodeURL(cfg *oauth2.Config, state, verifier, resource string) string {
	return cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource))
}

// Exchange trades the code for tokens, proving verifier and naming the
// resource. ctx carries the egress-checked client (oauth2.HTTPClient).
func Exchange(ctx context.Context, cfg *oauth2.Config, code, verifier, resource string) (*oauth2.Token, error) {
	return cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
}

// Refused reports whether err is the authorization server refusing a
// grant (invalid_grant: revoked or expired), so a person must connect again.
func Refused(err error) bool {
	var re *oauth2.RetrieveError
	return errors.As(err, &re) && (re.ErrorCode == "invalid_grant" || re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized)
}
