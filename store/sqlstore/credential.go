package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// CredentialRevoked returns when a tenant token or an OAuth grant was
// revoked (see gtmgate.CredentialStore), nil while it stands.
func (s *Store) CredentialRevoked(ctx context.Context, tenantID string, c gtmgate.Credential, at time.Time) (*time.Time, error) {
	switch c.Kind {
	case gtmgate.CredentialToken:
		var revoked *time.Time
		err := s.read.QueryRowContext(ctx, s.q("SELECT revoked_at FROM tenant_tokens WHERE tenant_id = ? AND id = ?"), tenantID, c.ID).
			Scan(nullTimeCol{&revoked})
		if err != nil {
			return nil, s.fail("credential revoked", err)
		}
		return revoked, nil
	case gtmgate.CredentialOAuth:
		// A grant stands while one of its tokens is live; one whose tokens
		// all lapsed unrevoked was not revoked.
		var revoked *time.Time
		var live sql.NullInt64
		err := s.read.QueryRowContext(ctx, s.q(`SELECT MAX(revoked_at),
			SUM(CASE WHEN revoked_at IS NULL AND used_at IS NULL AND expires_at > ? THEN 1 ELSE 0 END)
			FROM oauth_tokens WHERE tenant_id = ? AND family_id = ?`), s.t(at), tenantID, c.ID).Scan(nullTimeCol{&revoked}, &live)
		if err != nil {
			return nil, s.fail("credential revoked", err)
		}
		if live.Int64 > 0 {
			return nil, nil
		}
		return revoked, nil
	}
	return nil, fmt.Errorf("%s: credential revoked: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "a %q credential cannot be revoked", c.Kind))
}
