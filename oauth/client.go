package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// errUnknownClient is returned by client when no client has the id.
var errUnknownClient = errors.New("unknown client")

// client returns the registered client with id, or the one its metadata
// document describes when id is an https URL.
func (s *Server) client(ctx context.Context, id string) (*gtmgate.OAuthClient, error) {
	if id == "" {
		return nil, errUnknownClient
	}
	if isMetadataClientID(id) {
		c, err := s.clients.get(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, u := range c.RedirectURIs {
			if err := validateRedirectURI(u, s.opts.RedirectSchemes); err != nil {
				return nil, fmt.Errorf("client metadata %s: %w", id, err)
			}
		}
		return c, nil
	}
	c, err := s.opts.Store.GetOAuthClient(ctx, id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, errUnknownClient
	}
	return c, err
}

// allowsRedirect reports whether uri is one of the client's redirect URIs,
// compared exactly (OAuth 2.1 §4.1.1.3).
func allowsRedirect(c *gtmgate.OAuthClient, uri string) bool {
	return slices.Contains(c.RedirectURIs, uri)
}

// authenticateClient identifies the client of a token or revocation request
// (RFC 6749 §2.3): HTTP Basic or client_secret in the form for confidential
// clients, client_id alone for public ones. The form must be parsed.
func (s *Server) authenticateClient(r *http.Request) (*gtmgate.OAuthClient, *protocolError) {
	id, secretValue, basic := r.BasicAuth()
	if basic {
		// RFC 6749 §2.3.1: Basic credentials are form-encoded.
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secretValue, err2 = url.QueryUnescape(secretValue)
		if err1 != nil || err2 != nil {
			return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "malformed client credentials")
		}
		if form := r.PostForm.Get("client_id"); form != "" && form != id {
			return nil, oauthErr(http.StatusBadRequest, errInvalidRequest, "client_id differs from the authenticated client")
		}
	} else {
		id, secretValue = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id == "" {
		return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "client authentication is required")
	}
	c, err := s.client(r.Context(), id)
	if errors.Is(err, errUnknownClient) {
		return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "unknown client")
	}
	if err != nil {
		s.opts.Logger.Warn("oauth: resolve client", "client_id", id, "err", err)
		return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "the client could not be resolved")
	}
	if c.AuthMethod == authNone {
		if secretValue != "" {
			return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "public client must not send a secret")
		}
		return c, nil
	}
	if secretValue == "" || !secret.EqualHash(secret.HashToken(secretValue), c.SecretHash) {
		return nil, oauthErr(http.StatusUnauthorized, errInvalidClient, "client authentication failed")
	}
	return c, nil
}
