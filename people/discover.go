package people

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// DiscoveryTimeout bounds the discovery of an issuer before it is stored.
const DiscoveryTimeout = 10 * time.Second

// discoveryPath is where an issuer serves its OpenID configuration.
const discoveryPath = "/.well-known/openid-configuration"

// checkAgainst is the advice every refused discovery ends with.
const checkAgainst = "check the issuer URL against the IdP's " + discoveryPath

// discover fetches issuer's OpenID configuration with go-oidc, as sign-in
// will, and refuses an issuer that cannot be reached (UPSTREAM_ERROR) or
// whose configuration names another issuer (VALIDATION_ERROR): either way
// nobody could sign in through it.
func discover(ctx context.Context, issuer string) error {
	ctx, cancel := context.WithTimeout(ctx, DiscoveryTimeout)
	defer cancel()
	status := &statusRecorder{next: http.DefaultTransport}
	ctx = oidc.ClientContext(ctx, &http.Client{Timeout: DiscoveryTimeout, Transport: status})
	_, err := oidc.NewProvider(ctx, issuer)
	if err == nil {
		return nil
	}
	var mismatch *oidc.IssuerMismatchError
	var urlErr *url.Error
	var e *gtmgate.Error
	switch {
	case errors.As(err, &mismatch):
		e = gtmgate.Errorf(gtmgate.EValidation, "issuer %s is not the issuer its OpenID configuration names (%s); %s: its \"issuer\" must match byte for byte",
			issuer, jsonapi.Quote(mismatch.Discovered), checkAgainst)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &urlErr) && urlErr.Timeout()):
		e = gtmgate.Errorf(gtmgate.EUpstream, "issuer %s did not answer its discovery request within %s; %s", issuer, DiscoveryTimeout, checkAgainst)
	case errors.As(err, &urlErr):
		e = gtmgate.Errorf(gtmgate.EUpstream, "issuer %s could not be reached (%v); %s", issuer, urlErr.Err, checkAgainst)
	case status.code != 0 && status.code != http.StatusOK:
		e = gtmgate.Errorf(gtmgate.EUpstream, "issuer %s answered its discovery request with HTTP %d; %s", issuer, status.code, checkAgainst)
	default:
		e = gtmgate.Errorf(gtmgate.EUpstream, "issuer %s did not serve an OpenID configuration; %s", issuer, checkAgainst)
	}
	e.Hint = "the gateway fetched " + strings.TrimSuffix(issuer, "/") + discoveryPath + "; nothing was stored"
	e.Err = fmt.Errorf("discover %s: %w", issuer, err)
	return e
}

// discoveryError makes a Discover override's refusal a coded error.
func discoveryError(issuer string, err error) error {
	var e *gtmgate.Error
	if errors.As(err, &e) {
		return err
	}
	return &gtmgate.Error{Code: gtmgate.EUpstream, Message: fmt.Sprintf("issuer %s could not be discovered; %s", issuer, checkAgainst),
		Hint: "nothing was stored", Err: err}
}

// statusRecorder keeps the status of the discovery response, which go-oidc
// only puts in its error's text.
type statusRecorder struct {
	next http.RoundTripper
	code int
}

func (s *statusRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := s.next.RoundTrip(r)
	if err == nil {
		s.code = resp.StatusCode
	}
	return resp, err
}
