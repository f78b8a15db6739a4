package gateway

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/throttle"
)

// TokenVerifier resolves a bearer token that is not a tenant token (an OAuth
// access token). It returns gtmgate.ErrNotFound when the token is unknown.
type TokenVerifier func(ctx context.Context, token string) (*gtmgate.Principal, error)

// errInvalidToken marks a bearer token that was presented but is not valid:
// unknown, expired or revoked.
var errInvalidToken = errors.New("invalid bearer token")

// Authenticator resolves the bearer credential of a gateway request.
type Authenticator struct {
	Tokens gtmgate.TokenStore
	// OAuth, when set, is tried for tokens that are not tenant tokens.
	OAuth TokenVerifier
	// Challenge is the WWW-Authenticate value of a 401 (defaults to Bearer);
	// a bad token's 401 adds error="invalid_token" to it.
	Challenge string
	// Guard throttles wrong bearer tokens per client address.
	Guard *throttle.Guard
	// Limiter, when set, admits each authenticated request under its
	// tenant's rate limits (writing the RateLimit headers).
	Limiter RequestLimiter
}

// RequestLimiter decides whether an authenticated request may go on now;
// a refusal is a RATE_LIMITED error.
type RequestLimiter interface {
	Admit(w http.ResponseWriter, r *http.Request, p *gtmgate.Principal) error
}

// Authenticate returns the caller of r or an UNAUTHORIZED error that says
// how to authenticate. Keys in x-api-key are refused on purpose: the spec
// makes Authorization: Bearer the only accepted header.
func (a *Authenticator) Authenticate(r *http.Request) (*gtmgate.Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		if r.Header.Get("X-Api-Key") != "" {
			return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "x-api-key is not accepted").
				WithHint("send the token as Authorization: Bearer <ACCESS_TOKEN>")
		}
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "missing credential").
			WithHint("send the token as Authorization: Bearer <ACCESS_TOKEN>")
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "the Authorization header is not a bearer token").
			WithHint("send the token as Authorization: Bearer <ACCESS_TOKEN>")
	}
	if err := a.Guard.Check(r); err != nil {
		return nil, err
	}
	t, err := a.Tokens.FindTenantToken(r.Context(), secret.HashToken(token))
	if err == nil {
		return &gtmgate.Principal{TenantID: t.TenantID, KeyID: t.ID, Kind: gtmgate.PrincipalToken, Toolset: t.Toolset, Person: t.Person}, nil
	}
	if !errors.Is(err, gtmgate.ErrNotFound) {
		return nil, err
	}
	if a.OAuth != nil {
		p, err := a.OAuth(r.Context(), token)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, gtmgate.ErrNotFound) {
			return nil, err
		}
	}
	a.Guard.Fail(r)
	return nil, &gtmgate.Error{Code: gtmgate.EUnauthorized, Message: "invalid, expired or revoked token", Err: errInvalidToken}
}

// Require wraps next so that it runs only for authenticated callers, with the
// principal in the request context.
func (a *Authenticator) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.Authenticate(r)
		if err != nil {
			if gtmgate.ErrorCode(err) == gtmgate.EUnauthorized {
				w.Header().Set("WWW-Authenticate", a.challenge(errors.Is(err, errInvalidToken)))
			}
			jsonapi.WriteError(w, r, err)
			return
		}
		if a.Limiter != nil {
			if err := a.Limiter.Admit(w, r, p); err != nil {
				jsonapi.WriteError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(gtmgate.NewContextWithPrincipal(r.Context(), p)))
	})
}

// challenge is the WWW-Authenticate value of a 401 (RFC 6750 §3): a request
// that carried no bearer token gets the bare challenge, with no error code;
// one whose token is not valid gets error="invalid_token".
func (a *Authenticator) challenge(invalidToken bool) string {
	c := a.Challenge
	if c == "" {
		c = "Bearer"
	}
	if !invalidToken {
		return c
	}
	if c == "Bearer" {
		return `Bearer error="invalid_token"`
	}
	return c + `, error="invalid_token"`
}
