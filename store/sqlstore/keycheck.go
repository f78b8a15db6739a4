package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/gtmgate/gtmgate/secret"
)

// KeyCheckOutcome says what CheckEncryptionKey found.
type KeyCheckOutcome string

// Outcomes of CheckEncryptionKey.
const (
	// KeyMatched: the store's check is this key's.
	KeyMatched KeyCheckOutcome = "matched"
	// KeyRecorded: the store had no secrets and no check; this key's check
	// is now the store's.
	KeyRecorded KeyCheckOutcome = "recorded"
	// KeyRecordedAfterOpen: the store had secrets but no check (written by
	// a version before the check); one opened with this key, so its check
	// is now the store's.
	KeyRecordedAfterOpen KeyCheckOutcome = "recorded after opening a stored secret"
)

// CheckEncryptionKey makes sure the Sealer's key is the one that seals the
// store's secrets, so a replica started with another key refuses to start
// instead of failing every call that needs a secret. The store keeps the
// key's check (secret.KeyCheck, never the key); the first start on a store
// without one records it, after opening an existing secret with the key when
// there is one. Concurrent first starts with different keys record one check
// and all but its key's starts fail. A mismatch returns an error wrapping
// secret.ErrWrongKey that names both keys' fingerprints; a store failure an
// UNAVAILABLE error.
func (s *Store) CheckEncryptionKey(ctx context.Context) (KeyCheckOutcome, error) {
	mine := s.sealer.KeyCheck()
	stored, err := s.storedKeyCheck(ctx)
	if err == nil {
		return KeyMatched, s.compareKeyCheck(stored, mine)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", s.fail("check encryption key", err)
	}
	outcome := KeyRecorded
	sealed, err := s.anySealedSecret(ctx)
	switch {
	case err == nil:
		if _, oerr := s.sealer.Open(sealed); oerr != nil {
			return "", fmt.Errorf("%s: check encryption key: %w: the store holds secrets this key (%s) cannot open (%w)",
				s.d.Name(), secret.ErrWrongKey, mine.ID, oerr)
		}
		outcome = KeyRecordedAfterOpen
	case !errors.Is(err, sql.ErrNoRows):
		return "", s.fail("check encryption key", err)
	}
	// Insert if absent, then read back: of replicas racing on an empty
	// store, the first insert wins and the others compare against it.
	if _, err := s.write.ExecContext(ctx, s.q(`INSERT INTO encryption_key_check (id, key_id, check_value, created_at)
		VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`), mine.ID, mine.Value, s.t(s.now())); err != nil {
		return "", s.fail("record encryption key check", err)
	}
	if stored, err = s.storedKeyCheck(ctx); err != nil {
		return "", s.fail("check encryption key", err)
	}
	if err := s.compareKeyCheck(stored, mine); err != nil {
		return "", err
	}
	return outcome, nil
}

func (s *Store) storedKeyCheck(ctx context.Context) (secret.KeyCheck, error) {
	var c secret.KeyCheck
	err := s.write.QueryRowContext(ctx, `SELECT key_id, check_value FROM encryption_key_check WHERE id = 1`).Scan(&c.ID, &c.Value)
	return c, err
}

func (s *Store) compareKeyCheck(stored, mine secret.KeyCheck) error {
	if stored.Matches(mine) {
		return nil
	}
	return fmt.Errorf("%s: check encryption key: %w: the store's secrets are sealed with key %s, this key is %s",
		s.d.Name(), secret.ErrWrongKey, stored.ID, mine.ID)
}

// anySealedSecret returns one sealed value the store holds, or sql.ErrNoRows.
func (s *Store) anySealedSecret(ctx context.Context) (string, error) {
	var v string
	err := s.write.QueryRowContext(ctx, `SELECT v FROM (
		SELECT access_token AS v FROM provider_tokens
		UNION ALL SELECT client_secret FROM provider_oauth
		UNION ALL SELECT refresh_token FROM provider_oauth
		UNION ALL SELECT client_secret FROM oauth_apps
		UNION ALL SELECT secret FROM connect_links) AS sealed
		WHERE v <> '' LIMIT 1`).Scan(&v)
	return v, err
}
