package idpsandbox

import (
	"log/slog"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// authRequest is one /authorize request, from its arrival to the code
// exchange. The store keeps values and hands out copies, so zitadel never
// reads one while the sign-in page writes it.
type authRequest struct {
	id           string
	expires      time.Time
	clientID     string
	redirectURI  string
	state        string
	nonce        string
	scopes       []string
	responseType oidc.ResponseType
	responseMode oidc.ResponseMode
	challenge    *oidc.CodeChallenge

	subject  string // set at sign-in
	done     bool
	authTime time.Time
}

var _ op.AuthRequest = (*authRequest)(nil)

func (a *authRequest) GetID() string                         { return a.id }
func (a *authRequest) GetACR() string                        { return "" }
func (a *authRequest) GetAudience() []string                 { return []string{a.clientID} }
func (a *authRequest) GetAuthTime() time.Time                { return a.authTime }
func (a *authRequest) GetClientID() string                   { return a.clientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.challenge }
func (a *authRequest) GetNonce() string                      { return a.nonce }
func (a *authRequest) GetRedirectURI() string                { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.responseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.responseMode }
func (a *authRequest) GetScopes() []string                   { return a.scopes }
func (a *authRequest) GetState() string                      { return a.state }
func (a *authRequest) GetSubject() string                    { return a.subject }
func (a *authRequest) Done() bool                            { return a.done }

// GetAMR says how the person signed in: by choosing themselves, which no
// registered AMR value describes, so none.
func (a *authRequest) GetAMR() []string { return nil }

// LogValue keeps the state, nonce and challenge out of zitadel's logs.
func (a *authRequest) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("id", a.id),
		slog.String("client_id", a.clientID),
		slog.Any("scopes", a.scopes),
	)
}
