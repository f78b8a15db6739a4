package idpsandbox

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Lifetimes of what the store keeps.
const (
	requestLifetime     = 10 * time.Minute // from /authorize to the code exchange
	codeLifetime        = time.Minute
	accessTokenLifetime = time.Hour
)

// groupsScope is the scope that names the groups claim; the claim is sent
// whether or not it is asked for.
const groupsScope = "groups"

// store is the in-memory op.Storage of one Provider.
type store struct {
	loginURL    string
	groupsClaim string
	now         func() time.Time
	key         signingKey

	mu       sync.Mutex
	people   map[string]Person // by subject
	order    []string          // subjects in the order given, for the sign-in page
	clients  map[string]Client
	requests map[string]authRequest
	codes    map[string]issuedCode
	tokens   map[string]accessToken
}

type storeOptions struct {
	loginURL    string
	groupsClaim string
	now         func() time.Time
	key         signingKey
	people      []Person
	clients     []Client
}

// issuedCode is an authorization code waiting for its (single) exchange.
type issuedCode struct {
	requestID string
	expires   time.Time
}

var _ op.Storage = (*store)(nil)
var _ op.CanSetUserinfoFromRequest = (*store)(nil)

func newStore(o storeOptions) *store {
	s := &store{
		loginURL:    o.loginURL,
		groupsClaim: o.groupsClaim,
		now:         o.now,
		key:         o.key,
		people:      map[string]Person{},
		clients:     map[string]Client{},
		requests:    map[string]authRequest{},
		codes:       map[string]issuedCode{},
		tokens:      map[string]accessToken{},
	}
	for _, person := range o.people {
		person.Groups = slices.Clone(person.Groups)
		s.people[person.Subject] = person
		s.order = append(s.order, person.Subject)
	}
	for _, c := range o.clients {
		s.addClient(c)
	}
	return s
}

func (s *store) addClient(c Client) {
	c.RedirectURIs = slices.Clone(c.RedirectURIs)
	c.PostLogoutRedirectURIs = slices.Clone(c.PostLogoutRedirectURIs)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[c.ID] = c
}

func (s *store) setGroups(subject string, groups []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	person, ok := s.people[subject]
	if !ok {
		return ErrUnknownSubject
	}
	person.Groups = slices.Clone(groups)
	s.people[subject] = person
	return nil
}

// listPeople returns the people in the order they were given.
func (s *store) listPeople() []Person {
	s.mu.Lock()
	defer s.mu.Unlock()
	people := make([]Person, 0, len(s.order))
	for _, subject := range s.order {
		people = append(people, s.people[subject])
	}
	return people
}

// pendingRequest returns the sign-in request with the id, if it still
// waits for someone to sign in.
func (s *store) pendingRequest(id string) (authRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[id]
	if !ok || req.done || !s.now().Before(req.expires) {
		return authRequest{}, ErrUnknownRequest
	}
	return req, nil
}

// completeLogin signs the person with the subject in for the request.
func (s *store) completeLogin(id, subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[id]
	if !ok || req.done || !s.now().Before(req.expires) {
		return ErrUnknownRequest
	}
	if _, ok := s.people[subject]; !ok {
		return ErrUnknownSubject
	}
	req.subject = subject
	req.done = true
	req.authTime = s.now()
	s.requests[id] = req
	return nil
}

// sweep drops what has expired; the caller holds s.mu.
func (s *store) sweep() {
	now := s.now()
	for id, req := range s.requests {
		if !now.Before(req.expires) {
			delete(s.requests, id)
		}
	}
	for code, c := range s.codes {
		if !now.Before(c.expires) {
			delete(s.codes, code)
		}
	}
	for id, t := range s.tokens {
		if !now.Before(t.expires) {
			delete(s.tokens, id)
		}
	}
}

// CreateAuthRequest stores a validated /authorize request. It insists on
// PKCE with S256: zitadel itself also accepts plain and no PKCE at all.
func (s *store) CreateAuthRequest(_ context.Context, req *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	if slices.Contains(req.Prompt, oidc.PromptNone) {
		// There is no session to sign in silently with.
		return nil, oidc.ErrLoginRequired()
	}
	if req.CodeChallenge == "" {
		return nil, oidc.ErrInvalidRequest().WithDescription("PKCE is required: send a code_challenge with code_challenge_method S256")
	}
	if req.CodeChallengeMethod != oidc.CodeChallengeMethodS256 {
		return nil, oidc.ErrInvalidRequest().WithDescription("code_challenge_method must be S256")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep()
	r := authRequest{
		id:           randomID(),
		expires:      s.now().Add(requestLifetime),
		clientID:     req.ClientID,
		redirectURI:  req.RedirectURI,
		state:        req.State,
		nonce:        req.Nonce,
		scopes:       slices.Clone(req.Scopes),
		responseType: req.ResponseType,
		responseMode: req.ResponseMode,
		challenge:    &oidc.CodeChallenge{Challenge: req.CodeChallenge, Method: req.CodeChallengeMethod},
	}
	s.requests[r.id] = r
	return &r, nil
}

// AuthRequestByID returns a stored request, for zitadel's authorize callback.
func (s *store) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[id]
	if !ok || !s.now().Before(req.expires) {
		return nil, ErrUnknownRequest
	}
	return &req, nil
}

// AuthRequestByCode redeems a code. The first attempt consumes it, even
// one that fails later (wrong verifier or secret), so a code is exchanged
// at most once.
func (s *store) AuthRequestByCode(_ context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.codes[code]
	delete(s.codes, code)
	if !ok || !s.now().Before(c.expires) {
		return nil, errors.New("idpsandbox: unknown, used or expired code")
	}
	req, ok := s.requests[c.requestID]
	if !ok || !req.done {
		return nil, ErrUnknownRequest
	}
	return &req, nil
}

// SaveAuthCode remembers the code zitadel made for a signed-in request.
func (s *store) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.requests[id]; !ok {
		return ErrUnknownRequest
	}
	s.codes[code] = issuedCode{requestID: id, expires: s.now().Add(codeLifetime)}
	return nil
}

// DeleteAuthRequest forgets a request and its codes once tokens are issued.
func (s *store) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for code, c := range s.codes {
		if c.requestID == id {
			delete(s.codes, code)
		}
	}
	return nil
}

// SigningKey returns the key ID tokens are signed with.
func (s *store) SigningKey(context.Context) (op.SigningKey, error) {
	return s.key, nil
}

// SignatureAlgorithms returns RS256.
func (s *store) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{s.key.SignatureAlgorithm()}, nil
}

// KeySet returns the public half of the signing key (the JWKS).
func (s *store) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{publicKey{s.key}}, nil
}

// GetClientByClientID returns a registered client.
func (s *store) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return nil, errors.New("idpsandbox: unknown client")
	}
	return &opClient{Client: c, loginURL: s.loginURL}, nil
}

// AuthorizeClientIDSecret checks a client's secret.
func (s *store) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok || subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) != 1 {
		return errors.New("idpsandbox: unknown client or wrong secret")
	}
	return nil
}

// randomID returns 128 random bits in hex, for request and token IDs.
func randomID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
