package storetest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlstore"
)

// KeyOpener opens (and migrates) a store with sealer on one database, the
// same on every call of one KeyOpener.
type KeyOpener func(ctx context.Context, sealer *secret.Sealer) (*sqlstore.Store, error)

// ExerciseKeyCheck runs the behaviours of the encryption key check as
// subtests. fresh returns a KeyOpener on a new, empty database; the stores
// it opens are closed by the suite.
func ExerciseKeyCheck(t *testing.T, fresh func(t *testing.T) KeyOpener) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, open KeyOpener)
	}{
		{"FirstStartRecords", testKeyFirstStart},
		{"ConcurrentFirstStarts", testKeyConcurrentFirstStarts},
		{"UpgradeOpensASecret", testKeyUpgrade},
		{"UnreadableSecretNamesTheKey", testKeyUnreadableSecret},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, fresh(t)) })
	}
}

// testSealer returns a sealer whose key is 32 bytes of b.
func testSealer(t *testing.T, b byte) *secret.Sealer {
	t.Helper()
	s, err := secret.NewSealer([]byte(strings.Repeat(string(rune(b)), secret.KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openKeyed(t *testing.T, open KeyOpener, sealer *secret.Sealer) *sqlstore.Store {
	t.Helper()
	s, err := open(t.Context(), sealer)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func wantWrongKey(t *testing.T, err error, ids ...string) {
	t.Helper()
	if !errors.Is(err, secret.ErrWrongKey) {
		t.Fatalf("err = %v, want secret.ErrWrongKey", err)
	}
	for _, id := range ids {
		if !strings.Contains(err.Error(), id) {
			t.Errorf("err = %v, want it to name key %s", err, id)
		}
	}
}

// testKeyFirstStart: the first start on an empty store records its key's
// check (never the key); the same key matches later, another is refused
// with both keys' fingerprints.
func testKeyFirstStart(t *testing.T, open KeyOpener) {
	a, b := testSealer(t, 'a'), testSealer(t, 'b')
	s := openKeyed(t, open, a)
	got, err := s.CheckEncryptionKey(t.Context())
	if err != nil || got != sqlstore.KeyRecorded {
		t.Fatalf("first check = %q, %v, want %q", got, err, sqlstore.KeyRecorded)
	}
	if id := rawString(t, s, "SELECT key_id FROM encryption_key_check"); id != a.KeyCheck().ID {
		t.Errorf("stored key id %q, want %q", id, a.KeyCheck().ID)
	}
	stored := rawString(t, s, "SELECT check_value FROM encryption_key_check")
	if stored != a.KeyCheck().Value || strings.Contains(stored, "6161616161") {
		t.Errorf("stored check %q, want the key's HMAC check and nothing of the key", stored)
	}
	if got, err := openKeyed(t, open, a).CheckEncryptionKey(t.Context()); err != nil || got != sqlstore.KeyMatched {
		t.Errorf("same key again = %q, %v, want %q", got, err, sqlstore.KeyMatched)
	}
	_, err = openKeyed(t, open, b).CheckEncryptionKey(t.Context())
	wantWrongKey(t, err, a.KeyCheck().ID, b.KeyCheck().ID)
}

// testKeyConcurrentFirstStarts: replicas racing on an empty store with
// different keys agree on one key; only that key's starts pass.
func testKeyConcurrentFirstStarts(t *testing.T, open KeyOpener) {
	sealers := []*secret.Sealer{testSealer(t, 'a'), testSealer(t, 'a'), testSealer(t, 'b'), testSealer(t, 'c')}
	stores := make([]*sqlstore.Store, len(sealers))
	for i, sl := range sealers {
		stores[i] = openKeyed(t, open, sl)
	}
	errs := make([]error, len(sealers))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Go(func() { _, errs[i] = s.CheckEncryptionKey(t.Context()) })
	}
	wg.Wait()
	winners := map[string]bool{}
	for i, err := range errs {
		if err == nil {
			winners[sealers[i].KeyCheck().ID] = true
		} else if !errors.Is(err, secret.ErrWrongKey) {
			t.Errorf("start %d: %v, want success or secret.ErrWrongKey", i, err)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("keys that passed: %v, want exactly one", winners)
	}
	for i, err := range errs {
		if winners[sealers[i].KeyCheck().ID] != (err == nil) {
			t.Errorf("start %d with key %s: %v", i, sealers[i].KeyCheck().ID, err)
		}
	}
}

// testKeyUpgrade: a store written before the check holds secrets and no
// check. A key that cannot open them is refused and records nothing; the
// key that can records its check.
func testKeyUpgrade(t *testing.T, open KeyOpener) {
	ctx := t.Context()
	a, b := testSealer(t, 'a'), testSealer(t, 'b')
	old := openKeyed(t, open, a) // no check: as a version before it did
	putTenant(t, old, "acme")
	must(t, old.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: "acme", Provider: "hubspot", AccountID: "1", AccessToken: "pat-1"}))

	_, err := openKeyed(t, open, b).CheckEncryptionKey(ctx)
	wantWrongKey(t, err, b.KeyCheck().ID)
	if n := rawString(t, old, "SELECT COUNT(*) FROM encryption_key_check"); n != "0" {
		t.Fatalf("a refused key recorded a check (%s rows)", n)
	}
	if got, err := openKeyed(t, open, a).CheckEncryptionKey(ctx); err != nil || got != sqlstore.KeyRecordedAfterOpen {
		t.Fatalf("upgrade with the right key = %q, %v, want %q", got, err, sqlstore.KeyRecordedAfterOpen)
	}
	_, err = openKeyed(t, open, b).CheckEncryptionKey(ctx)
	wantWrongKey(t, err, a.KeyCheck().ID, b.KeyCheck().ID)
}

// testKeyUnreadableSecret: a secret the key cannot open is an UNAVAILABLE
// error that names the encryption key, not a store outage.
func testKeyUnreadableSecret(t *testing.T, open KeyOpener) {
	ctx := t.Context()
	s := openKeyed(t, open, testSealer(t, 'a'))
	putTenant(t, s, "acme")
	must(t, s.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: "acme", Provider: "hubspot", AccountID: "1", AccessToken: "pat-1"}))
	_, err := openKeyed(t, open, testSealer(t, 'b')).GetProviderToken(ctx, "acme", "hubspot", "1")
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUnavailable || !errors.Is(err, secret.ErrOpen) || errors.Is(err, gtmgate.ErrStoreUnavailable) {
		t.Fatalf("err = %v, want UNAVAILABLE wrapping secret.ErrOpen and not a store outage", err)
	}
	if !strings.Contains(e.Message, "encryption key") || !strings.Contains(e.Hint, "GTMGATE_ENCRYPTION_KEY") || strings.Contains(e.Message+e.Hint, "pat-1") {
		t.Errorf("answer %q (hint %q), want it to name the encryption key and hold no secret", e.Message, e.Hint)
	}
}
