package storetest

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

// testOAuthApps: apps are created, replaced (keeping their creation time),
// read, listed and deleted; a tenant's app and the gateway-wide app of the
// same provider are independent; the client secret is sealed at rest.
func testOAuthApps(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")

	_, err := s.GetOAuthApp(ctx, "", "google")
	wantErr(t, err, gtmgate.ErrNotFound)
	_, err = s.PutOAuthApp(ctx, &gtmgate.OAuthApp{TenantID: "nobody", Provider: "google", ClientID: "c", ClientSecret: "x"})
	wantErr(t, err, gtmgate.ErrNotFound)

	gw := &gtmgate.OAuthApp{Provider: "google", ClientID: "gw-client", ClientSecret: "gw-secret-plain",
		ExtraScopes: []string{"openid", "email"}}
	created, err := s.PutOAuthApp(ctx, gw)
	must(t, err)
	if !created || gw.CreatedAt.IsZero() || !gw.UpdatedAt.Equal(gw.CreatedAt) {
		t.Errorf("first put: created = %v, times %v/%v; want created with both times set", created, gw.CreatedAt, gw.UpdatedAt)
	}
	hub := &gtmgate.OAuthApp{Provider: "hubspot", ClientID: "hub-client", ClientSecret: "hub-secret-plain"}
	_, err = s.PutOAuthApp(ctx, hub)
	must(t, err)
	own := &gtmgate.OAuthApp{TenantID: "acme", Provider: "google", ClientID: "acme-client", ClientSecret: "acme-secret-plain"}
	created, err = s.PutOAuthApp(ctx, own)
	must(t, err)
	if !created {
		t.Error("a tenant's app beside the gateway-wide one of its provider was not created")
	}

	got, err := s.GetOAuthApp(ctx, "", "google")
	must(t, err)
	if diff := cmp.Diff(gw, got); diff != "" {
		t.Errorf("GetOAuthApp gateway-wide (-want +got):\n%s", diff)
	}
	got, err = s.GetOAuthApp(ctx, "acme", "google")
	must(t, err)
	if diff := cmp.Diff(own, got); diff != "" {
		t.Errorf("GetOAuthApp tenant (-want +got):\n%s", diff)
	}
	_, err = s.GetOAuthApp(ctx, "acme", "hubspot")
	wantErr(t, err, gtmgate.ErrNotFound) // no fallback to the gateway-wide app

	for _, tenant := range []string{"", "acme"} {
		raw := rawString(t, s, "SELECT client_secret FROM oauth_apps WHERE tenant_id = ? AND provider = ?", tenant, "google")
		if strings.Contains(raw, "plain") || !strings.HasPrefix(raw, "v1:") {
			t.Errorf("client secret of %q at rest = %q, want a sealed value", tenant, raw)
		}
	}

	// Replacing keeps the creation time and changes nothing else's.
	replaced := &gtmgate.OAuthApp{Provider: "google", ClientID: "gw-client-2", ClientSecret: "gw-secret-2"}
	created, err = s.PutOAuthApp(ctx, replaced)
	must(t, err)
	if created || !replaced.CreatedAt.Equal(gw.CreatedAt) {
		t.Errorf("replace: created = %v, created at %v; want false, %v", created, replaced.CreatedAt, gw.CreatedAt)
	}
	got, err = s.GetOAuthApp(ctx, "", "google")
	must(t, err)
	if diff := cmp.Diff(replaced, got); diff != "" {
		t.Errorf("GetOAuthApp after replace (-want +got):\n%s", diff)
	}

	all, err := s.ListOAuthApps(ctx)
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.OAuthApp{replaced, hub, own}, all); diff != "" {
		t.Errorf("ListOAuthApps (-want +got):\n%s", diff)
	}

	must(t, s.DeleteOAuthApp(ctx, "acme", "google"))
	wantErr(t, s.DeleteOAuthApp(ctx, "acme", "google"), gtmgate.ErrNotFound)
	_, err = s.GetOAuthApp(ctx, "acme", "google")
	wantErr(t, err, gtmgate.ErrNotFound)
	if _, err := s.GetOAuthApp(ctx, "", "google"); err != nil {
		t.Errorf("deleting the tenant's app touched the gateway-wide one: %v", err)
	}
}

func connectLink(id, tenant string, at time.Time) *gtmgate.ConnectLink {
	return &gtmgate.ConnectLink{ID: id, TokenHash: "hash-" + id, TenantID: tenant, Provider: "google",
		AccountHint: "ops@" + tenant + ".example", Scopes: []string{"openid", "https://www.googleapis.com/auth/gmail.readonly"},
		Status: gtmgate.ConnectCreated, CreatedBy: "admin", CreatedAt: at, ExpiresAt: at.Add(15 * time.Minute)}
}

// testConnectLinks: links are created, found by token hash and by state
// hash, listed newest first per tenant, and advanced created → opened →
// completed, each step a compare-and-set on the status; the secret kept
// between steps is sealed at rest.
func testConnectLinks(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "beta")

	wantErr(t, s.CreateConnectLink(ctx, connectLink("l0", "nobody", t0)), gtmgate.ErrNotFound)
	l1, l2, l3 := connectLink("l1", "acme", t0), connectLink("l2", "acme", t0.Add(timeStep(1))), connectLink("l3", "beta", t0.Add(timeStep(2)))
	l1.Person = "p_0a1b" // a link for a person keeps whose accounts it connects
	for _, l := range []*gtmgate.ConnectLink{l1, l2, l3} {
		must(t, s.CreateConnectLink(ctx, l))
	}
	dup := connectLink("l1", "acme", t0)
	dup.TokenHash = "other"
	wantErr(t, s.CreateConnectLink(ctx, dup), gtmgate.ErrConflict)
	dup = connectLink("l9", "acme", t0)
	dup.TokenHash = l1.TokenHash
	wantErr(t, s.CreateConnectLink(ctx, dup), gtmgate.ErrConflict)

	got, err := s.GetConnectLink(ctx, "hash-l1")
	must(t, err)
	if diff := cmp.Diff(l1, got); diff != "" {
		t.Errorf("GetConnectLink (-want +got):\n%s", diff)
	}
	_, err = s.GetConnectLink(ctx, "hash-none")
	wantErr(t, err, gtmgate.ErrNotFound)
	_, err = s.GetConnectLinkByState(ctx, "")
	wantErr(t, err, gtmgate.ErrNotFound) // unopened links have no state

	acme, err := s.ListConnectLinks(ctx, "acme", 0)
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.ConnectLink{l2, l1}, acme); diff != "" {
		t.Errorf("ListConnectLinks acme (-want +got):\n%s", diff)
	}
	all, err := s.ListConnectLinks(ctx, "", 2)
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.ConnectLink{l3, l2}, all); diff != "" {
		t.Errorf("ListConnectLinks all, limit 2 (-want +got):\n%s", diff)
	}

	// Opened: the state and the PKCE verifier are kept.
	opened := *l1
	openedAt := t0.Add(timeStep(3))
	opened.Status, opened.StateHash, opened.Secret, opened.OpenedAt = gtmgate.ConnectOpened, "state-l1", "verifier-plain", &openedAt
	must(t, s.AdvanceConnectLink(ctx, gtmgate.ConnectCreated, &opened))
	got, err = s.GetConnectLinkByState(ctx, "state-l1")
	must(t, err)
	if diff := cmp.Diff(&opened, got); diff != "" {
		t.Errorf("GetConnectLinkByState after open (-want +got):\n%s", diff)
	}
	raw := rawString(t, s, "SELECT secret FROM connect_links WHERE id = ?", "l1")
	if strings.Contains(raw, "plain") || !strings.HasPrefix(raw, "v1:") {
		t.Errorf("link secret at rest = %q, want a sealed value", raw)
	}
	listed, err := s.ListConnectLinks(ctx, "acme", 0)
	must(t, err)
	if len(listed) != 2 || listed[1].ID != "l1" || listed[1].Secret != "" || listed[1].Status != gtmgate.ConnectOpened {
		t.Errorf("ListConnectLinks after open = %+v, want l1 opened with no secret", listed)
	}

	// A second link cannot take the same state.
	clash := *l2
	clash.Status, clash.StateHash = gtmgate.ConnectOpened, "state-l1"
	wantErr(t, s.AdvanceConnectLink(ctx, gtmgate.ConnectCreated, &clash), gtmgate.ErrConflict)

	// Completed: the secret is cleared.
	done := opened
	finishedAt := t0.Add(timeStep(4))
	done.Status, done.Secret, done.FinishedAt, done.Result = gtmgate.ConnectCompleted, "", &finishedAt, "connected google account 123"
	must(t, s.AdvanceConnectLink(ctx, gtmgate.ConnectOpened, &done))
	got, err = s.GetConnectLink(ctx, "hash-l1")
	must(t, err)
	if diff := cmp.Diff(&done, got); diff != "" {
		t.Errorf("GetConnectLink after completion (-want +got):\n%s", diff)
	}
	if raw := rawString(t, s, "SELECT secret FROM connect_links WHERE id = ?", "l1"); raw != "" {
		t.Errorf("link secret after completion = %q, want cleared", raw)
	}

	// A replayed callback finds the link no longer opened.
	replay := opened
	replay.Status, replay.Result = gtmgate.ConnectFailed, "replayed"
	wantErr(t, s.AdvanceConnectLink(ctx, gtmgate.ConnectOpened, &replay), gtmgate.ErrConflict)
	got, err = s.GetConnectLink(ctx, "hash-l1")
	must(t, err)
	if got.Status != gtmgate.ConnectCompleted || got.Result != done.Result {
		t.Errorf("after a refused advance the link is %s (%q), want it completed as before", got.Status, got.Result)
	}
	missing := connectLink("l-none", "acme", t0)
	missing.Status = gtmgate.ConnectOpened
	wantErr(t, s.AdvanceConnectLink(ctx, gtmgate.ConnectCreated, missing), gtmgate.ErrNotFound)

	// OAuth retention takes links, however they ended, once expired for
	// longer than it keeps: l1 and l2 expired before the cut, l3 after.
	n, err := s.PruneRecords(ctx, gtmgate.RecordOAuth, l3.ExpiresAt.Add(-timeStep(1)/2), 100)
	must(t, err)
	if n != 2 {
		t.Errorf("pruned %d links, want 2", n)
	}
	for hash, want := range map[string]error{"hash-l1": gtmgate.ErrNotFound, "hash-l2": gtmgate.ErrNotFound, "hash-l3": nil} {
		if _, err := s.GetConnectLink(ctx, hash); !errors.Is(err, want) {
			t.Errorf("after pruning, %s: %v, want %v", hash, err, want)
		}
	}
}

// testConnectLinkConcurrent: of concurrent advances of one link from the
// same status, exactly one wins, as two callbacks racing with one code would.
func testConnectLinkConcurrent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	must(t, s.CreateConnectLink(ctx, connectLink("l1", "acme", t0)))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			l := connectLink("l1", "acme", t0)
			at := t0.Add(timeStep(i + 1))
			l.Status, l.OpenedAt, l.Result = gtmgate.ConnectOpened, &at, string(rune('a'+i))
			errs[i] = s.AdvanceConnectLink(ctx, gtmgate.ConnectCreated, l)
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("advances %d and %d both succeeded", winner, i)
			}
			winner = i
			continue
		}
		wantErr(t, err, gtmgate.ErrConflict)
	}
	if winner < 0 {
		t.Fatal("no advance succeeded")
	}
	got, err := s.GetConnectLink(ctx, "hash-l1")
	must(t, err)
	if got.Result != string(rune('a'+winner)) {
		t.Errorf("stored advance %q, winner was %q", got.Result, string(rune('a'+winner)))
	}
}
