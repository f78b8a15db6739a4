package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/gtmgate/gtmgate"
)

// Provider access tokens are sealed with the Store's Sealer before they are
// written; the plaintext exists only in memory.

// PutProviderToken creates or replaces the token of one provider account. It
// returns ErrNotFound when the tenant does not exist.
func (s *Store) PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error {
	return s.inTx(ctx, "put provider token", func(tx *sql.Tx) error {
		return s.putProviderToken(ctx, tx, t)
	})
}

func (s *Store) putProviderToken(ctx context.Context, tx *sql.Tx, t *gtmgate.ProviderToken) error {
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = s.now()
	}
	sealed, err := s.sealer.Seal(t.AccessToken)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO provider_tokens
		(tenant_id, provider, account_id, access_token, token_type, expires_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, provider, account_id) DO UPDATE SET
		access_token = excluded.access_token, token_type = excluded.token_type,
		expires_at = excluded.expires_at, updated_at = excluded.updated_at`),
		t.TenantID, t.Provider, t.AccountID, sealed, t.TokenType, s.tz(t.ExpiresAt), s.t(t.UpdatedAt))
	return err
}

// GetProviderToken returns the decrypted token of one account, or
// ErrNotFound.
func (s *Store) GetProviderToken(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderToken, error) {
	t := gtmgate.ProviderToken{TenantID: tenantID, Provider: provider, AccountID: accountID}
	var sealed string
	err := s.read.QueryRowContext(ctx, s.q(`SELECT access_token, token_type, expires_at, updated_at
		FROM provider_tokens WHERE tenant_id = ? AND provider = ? AND account_id = ?`), tenantID, provider, accountID).
		Scan(&sealed, &t.TokenType, timeCol{&t.ExpiresAt}, timeCol{&t.UpdatedAt})
	if err != nil {
		return nil, s.fail("get provider token", err)
	}
	if t.AccessToken, err = s.sealer.Open(sealed); err != nil {
		return nil, s.fail("get provider token", fmt.Errorf("%s/%s/%s: %w", tenantID, provider, accountID, err))
	}
	return &t, nil
}

// sealOptional seals v, keeping "" as "" (no secret stored).
func (s *Store) sealOptional(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	return s.sealer.Seal(v)
}

// openOptional opens a value written by sealOptional.
func (s *Store) openOptional(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	return s.sealer.Open(v)
}
