package sso_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/idpsandbox"
	"github.com/gtmgate/gtmgate/sso"
	"github.com/gtmgate/gtmgate/store/storetest"
)

const gatewayURL = "https://gw.example"

// rig is an IdP under httptest and a Flow over a real SQLite store.
type rig struct {
	t     *testing.T
	store gtmgate.Store
	idp   *idpsandbox.Provider
	srv   *httptest.Server
	flow  *sso.Flow
}

var people = []idpsandbox.Person{
	{Subject: "u-ada", Email: "ada@acme.example", EmailVerified: true, Name: "Ada", Groups: []string{"acme-approvers"}},
	{Subject: "u-olga", Email: "olga@agency.example", EmailVerified: true, Name: "Olga", Groups: []string{"ops"}},
	{Subject: "u-nina", Email: "nina@acme.example", EmailVerified: true, Name: "Nina"},
	{Subject: "u-unverified", Email: "eve@acme.example", Name: "Eve", Groups: []string{"acme-approvers"}},
	{Subject: "u-gmail", Email: "someone@gmail.example", EmailVerified: true, Groups: []string{"acme-approvers"}},
}

func newRig(t *testing.T, idpOpts func(*gtmgate.IdP)) *rig {
	t.Helper()
	r := &rig{t: t, store: storetest.TenantWithToken(t)}
	mux := http.NewServeMux()
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	var err error
	r.idp, err = idpsandbox.New(idpsandbox.Options{Issuer: r.srv.URL + "/idp", People: people,
		Clients: []idpsandbox.Client{{ID: "gtmgate", Secret: "idp-client-secret", RedirectURIs: []string{sso.RedirectURI(gatewayURL)}}}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/idp/", r.idp)
	ctx := t.Context()
	p := &gtmgate.IdP{Name: "corp", Issuer: r.srv.URL + "/idp", ClientID: "gtmgate", ClientSecret: "idp-client-secret", GroupsClaim: "groups"}
	if idpOpts != nil {
		idpOpts(p)
	}
	if _, err := r.store.PutIdP(ctx, p); err != nil {
		t.Fatal(err)
	}
	for _, g := range []gtmgate.RoleGrant{
		{IdP: "corp", Kind: gtmgate.GrantGroup, Match: "acme-approvers", Role: gtmgate.RoleApprover, TenantID: "acme"},
		{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "u-olga", Role: gtmgate.RoleAdmin},
	} {
		if err := r.store.PutRoleGrant(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	r.flow = sso.New(sso.Options{Store: r.store, GatewayURL: gatewayURL, Timeout: 5 * time.Second})
	return r
}

var loginID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// signIn starts a sign-in and plays the person at the IdP choosing
// subject; it returns the callback query the IdP sent back and the state.
func (r *rig) signIn(subject string) (url.Values, string) {
	r.t.Helper()
	authURL, state, err := r.flow.Start(r.t.Context(), "corp", "/console/approvals")
	if err != nil {
		r.t.Fatal(err)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	next := authURL
	var body []byte
	for i := 0; i < 5 && next != ""; i++ { // authorize → the sign-in page
		resp, err := c.Get(next)
		if err != nil {
			r.t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		next = resp.Header.Get("Location")
		if next != "" && !strings.HasPrefix(next, "http") {
			next = r.srv.URL + next
		}
	}
	m := loginID.FindSubmatch(body)
	if m == nil {
		r.t.Fatalf("no sign-in page: %s", body)
	}
	resp, err := c.PostForm(r.srv.URL+"/idp/login", url.Values{"id": {string(m[1])}, "subject": {subject}})
	if err != nil {
		r.t.Fatal(err)
	}
	resp.Body.Close()
	for i := 0; i < 5; i++ { // the IdP's own hops, then to the gateway's callback
		loc := resp.Header.Get("Location")
		if strings.HasPrefix(loc, sso.RedirectURI(gatewayURL)) {
			u, _ := url.Parse(loc)
			return u.Query(), state
		}
		if !strings.HasPrefix(loc, "http") {
			loc = r.srv.URL + loc
		}
		if resp, err = c.Get(loc); err != nil {
			r.t.Fatal(err)
		}
		resp.Body.Close()
	}
	r.t.Fatalf("the IdP never sent the person back (last status %d)", resp.StatusCode)
	return nil, ""
}

func code(err error) string { return gtmgate.AsError(err).Code }

func TestSignIn(t *testing.T) {
	r := newRig(t, nil)
	q, state := r.signIn("u-ada")
	res, err := r.flow.Finish(t.Context(), sso.ParseCallback(q, state))
	if err != nil {
		t.Fatal(err)
	}
	if res.Identity.Subject != "u-ada" || res.Identity.Email != "ada@acme.example" || !res.Identity.EmailVerified ||
		res.Identity.Issuer != r.srv.URL+"/idp" || res.Next != "/console/approvals" {
		t.Errorf("identity %+v next %q", res.Identity, res.Next)
	}
	if len(res.Grants) != 1 || res.Grants[0].Role != gtmgate.RoleApprover || res.Grants[0].TenantID != "acme" {
		t.Errorf("grants %+v", res.Grants)
	}
	if res.Person.ID == "" || res.Person.Email != "ada@acme.example" {
		t.Errorf("person %+v", res.Person)
	}

	// The callback is good once.
	_, err = r.flow.Finish(t.Context(), sso.ParseCallback(q, state))
	if code(err) != gtmgate.EUnauthorized || !strings.Contains(err.Error(), "already used") {
		t.Errorf("replayed callback: %v", err)
	}

	// The session's actor follows the grants: removing the group mapping ends it.
	cs := &gtmgate.ConsoleSession{PersonID: res.Person.ID, IdP: "corp", Identity: res.Identity}
	a, err := r.flow.Actor(t.Context(), cs)
	if err != nil || a.Name != "ada@acme.example" || a.Via != "sso:corp" || !a.Allows(gtmgate.AccessApprove, "acme") {
		t.Fatalf("actor %+v, %v", a, err)
	}
	// While the IdP is down, the signed-in session goes on: it never calls the IdP.
	r.srv.Close()
	if a, err := r.flow.Actor(t.Context(), cs); err != nil || !a.Allows(gtmgate.AccessApprove, "acme") {
		t.Errorf("actor with the IdP down: %+v, %v", a, err)
	}
	if _, _, err := sso.New(sso.Options{Store: r.store, GatewayURL: gatewayURL, Timeout: time.Second}).Start(t.Context(), "corp", "/console/"); code(err) != gtmgate.EUpstream {
		t.Errorf("a new sign-in with the IdP down: %v, want UPSTREAM_ERROR", err)
	}
	grants, _ := r.store.ListRoleGrants(t.Context(), "corp")
	for _, g := range grants {
		if g.Kind == gtmgate.GrantGroup {
			if err := r.store.DeleteRoleGrant(t.Context(), g.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := r.flow.Actor(t.Context(), cs); !errors.Is(err, sso.ErrNoRole) {
		t.Errorf("actor after the group grant went: %v, want ErrNoRole", err)
	}
}

func TestSignInRefused(t *testing.T) {
	for _, tc := range []struct {
		name     string
		idp      func(*gtmgate.IdP)
		subject  string
		tamper   func(q url.Values, state string) (url.Values, string)
		wantCode string
		wantText string
	}{
		{name: "no role", subject: "u-nina", wantCode: gtmgate.EForbidden, wantText: "--email nina@acme.example"},
		{name: "unverified email with allowed domains", idp: func(p *gtmgate.IdP) { p.AllowedDomains = []string{"acme.example"} },
			subject: "u-unverified", wantCode: gtmgate.EForbidden, wantText: "only verified addresses at acme.example"},
		{name: "domain not allowed", idp: func(p *gtmgate.IdP) { p.AllowedDomains = []string{"acme.example"} },
			subject: "u-gmail", wantCode: gtmgate.EForbidden, wantText: "someone@gmail.example may not sign in"},
		{name: "another browser's callback", subject: "u-ada", wantCode: gtmgate.EUnauthorized, wantText: "not started in this browser",
			tamper: func(q url.Values, _ string) (url.Values, string) { return q, "someone-elses-state" }},
		{name: "no browser state", subject: "u-ada", wantCode: gtmgate.EUnauthorized, wantText: "not started in this browser",
			tamper: func(q url.Values, _ string) (url.Values, string) { return q, "" }},
		{name: "a forged code", subject: "u-ada", wantCode: gtmgate.EUpstream, wantText: "did not accept",
			tamper: func(q url.Values, s string) (url.Values, string) { q.Set("code", "forged"); return q, s }},
		{name: "the IdP refused", subject: "u-ada", wantCode: gtmgate.EUnauthorized, wantText: "access_denied",
			tamper: func(q url.Values, s string) (url.Values, string) {
				q.Del("code")
				q.Set("error", "access_denied")
				return q, s
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.idp)
			q, state := r.signIn(tc.subject)
			if tc.tamper != nil {
				q, state = tc.tamper(q, state)
			}
			res, err := r.flow.Finish(t.Context(), sso.ParseCallback(q, state))
			if err == nil || code(err) != tc.wantCode || !strings.Contains(gtmgate.AsError(err).Message+gtmgate.AsError(err).Hint, tc.wantText) {
				t.Fatalf("Finish = %+v, %v (hint %q); want %s mentioning %q", res, err, gtmgate.AsError(err).Hint, tc.wantCode, tc.wantText)
			}
			if people, _ := r.store.ListPeople(t.Context()); len(people) != 0 {
				t.Errorf("a refused sign-in stored %+v", people)
			}
		})
	}
}

// nonceSwap hands Finish a sign-in whose nonce is not the one the IdP put
// in the ID token, as if the token had been issued for another sign-in.
type nonceSwap struct{ gtmgate.Store }

func (s nonceSwap) TakeSignIn(ctx context.Context, h string, at time.Time) (*gtmgate.SignIn, error) {
	in, err := s.Store.TakeSignIn(ctx, h, at)
	if in != nil {
		in.Nonce = "another-sign-in's-nonce"
	}
	return in, err
}

func TestNonceMismatch(t *testing.T) {
	r := newRig(t, nil)
	q, state := r.signIn("u-olga")
	flow := sso.New(sso.Options{Store: nonceSwap{r.store}, GatewayURL: gatewayURL})
	_, err := flow.Finish(t.Context(), sso.ParseCallback(q, state))
	if code(err) != gtmgate.EUnauthorized || !strings.Contains(err.Error(), "nonce") {
		t.Errorf("Finish = %v, want a nonce mismatch", err)
	}
}

func TestExpiredSignIn(t *testing.T) {
	r := newRig(t, nil)
	q, state := r.signIn("u-olga")
	later := sso.New(sso.Options{Store: r.store, GatewayURL: gatewayURL, Now: func() time.Time { return time.Now().Add(sso.SignInLifetime + time.Second) }})
	if _, err := later.Finish(t.Context(), sso.ParseCallback(q, state)); code(err) != gtmgate.EUnauthorized {
		t.Errorf("Finish after the sign-in's lifetime = %v", err)
	}
}

func TestUnreachableIdP(t *testing.T) {
	r := newRig(t, nil)
	if _, err := r.store.PutIdP(t.Context(), &gtmgate.IdP{Name: "down", Issuer: "http://127.0.0.1:1/idp", ClientID: "c"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := r.flow.Start(t.Context(), "down", "/console/")
	if code(err) != gtmgate.EUpstream || !strings.Contains(gtmgate.AsError(err).Hint, "break-glass") {
		t.Errorf("Start at an unreachable IdP = %v (hint %q)", err, gtmgate.AsError(err).Hint)
	}
	if _, _, err := r.flow.Start(t.Context(), "nobody", "/console/"); code(err) != gtmgate.ENotFound {
		t.Errorf("Start at an unknown IdP = %v", err)
	}
}

// FuzzCallback: whatever a callback carries, Finish refuses it without a
// panic, a person or a session, unless it is a real sign-in's.
func FuzzCallback(f *testing.F) {
	f.Add("state=abc&code=xyz", "abc")
	f.Add("error=access_denied&error_description=%3Cscript%3E&state=s", "s")
	f.Add("state=&code=", "")
	f.Add("state=a&state=b&code=c", "a")
	flow := sso.New(sso.Options{Store: storetest.TenantWithToken(f), GatewayURL: gatewayURL, Timeout: time.Second})
	f.Fuzz(func(t *testing.T, rawQuery, browserState string) {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return
		}
		res, err := flow.Finish(context.Background(), sso.ParseCallback(q, browserState))
		if err == nil || res != nil {
			t.Fatalf("Finish(%q, %q) = %+v, %v", rawQuery, browserState, res, err)
		}
		if len(gtmgate.AsError(err).Message) > 600 {
			t.Errorf("message of %d bytes: what the callback sent is not bounded", len(gtmgate.AsError(err).Message))
		}
	})
}
