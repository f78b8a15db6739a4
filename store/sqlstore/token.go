package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

const tokenCols = "id, tenant_id, hash, prefix, label, created_at, revoked_at, toolset, person, created_by"

// CreateTenantToken stores a tenant bearer token (its hash only). It returns
// ErrConflict when the id or hash exists and ErrNotFound when the tenant does
// not.
func (s *Store) CreateTenantToken(ctx context.Context, t *gtmgate.TenantToken) error {
	if t.ID == "" || t.TenantID == "" || t.Hash == "" {
		return fmt.Errorf("%s: create tenant token: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "token id, tenant id and hash are required"))
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q("INSERT INTO tenant_tokens ("+tokenCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		t.ID, t.TenantID, t.Hash, t.Prefix, t.Label, s.t(t.CreatedAt), s.tp(t.RevokedAt), t.Toolset, t.Person, t.CreatedBy)
	if err != nil {
		return s.fail("create tenant token", err)
	}
	return nil
}

// FindTenantToken returns the unrevoked token whose hash is hash, or
// ErrNotFound.
func (s *Store) FindTenantToken(ctx context.Context, hash string) (*gtmgate.TenantToken, error) {
	row := s.read.QueryRowContext(ctx, s.q("SELECT "+tokenCols+" FROM tenant_tokens WHERE hash = ? AND revoked_at IS NULL"), hash)
	t, err := scanToken(row)
	if err != nil {
		return nil, s.fail("find tenant token", err)
	}
	return t, nil
}

// ListTenantTokens returns a tenant's tokens, revoked ones included, oldest
// first.
func (s *Store) ListTenantTokens(ctx context.Context, tenantID string) ([]*gtmgate.TenantToken, error) {
	rows, err := s.read.QueryContext(ctx, s.q("SELECT "+tokenCols+" FROM tenant_tokens WHERE tenant_id = ? ORDER BY created_at, id"), tenantID)
	if err != nil {
		return nil, s.fail("list tenant tokens", err)
	}
	defer rows.Close()
	ts := []*gtmgate.TenantToken{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, s.fail("list tenant tokens", err)
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list tenant tokens", err)
	}
	return ts, nil
}

// RevokeTenantToken marks a token of tenantID revoked at at. It returns
// ErrNotFound when that tenant has no such token. Revoking twice keeps the
// first revocation time.
func (s *Store) RevokeTenantToken(ctx context.Context, tenantID, tokenID string, at time.Time) error {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE tenant_tokens SET revoked_at = COALESCE(revoked_at, ?)
		WHERE tenant_id = ? AND id = ?`), s.t(at), tenantID, tokenID)
	if err != nil {
		return s.fail("revoke tenant token", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.fail("revoke tenant token", err)
	}
	if n == 0 {
		return s.fail("revoke tenant token", gtmgate.ErrNotFound)
	}
	return nil
}

func scanToken(r scanner) (*gtmgate.TenantToken, error) {
	var t gtmgate.TenantToken
	err := r.Scan(&t.ID, &t.TenantID, &t.Hash, &t.Prefix, &t.Label, timeCol{&t.CreatedAt}, nullTimeCol{&t.RevokedAt}, &t.Toolset, &t.Person, &t.CreatedBy)
	if err != nil {
		return nil, err
	}
	return &t, nil
}
