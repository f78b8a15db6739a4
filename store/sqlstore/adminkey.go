package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.AdminKeyStore = (*Store)(nil)

const adminKeyCols = "id, name, owner, prefix, hash, scopes, tenants, created_at, created_by, expires_at, revoked_at, last_used_at"

// CreateAdminKey stores a named admin key (its hash only). The unique
// index on the names of keys not revoked makes a second live key of the
// same name an ErrConflict, as the unique hash does a second key.
func (s *Store) CreateAdminKey(ctx context.Context, k *gtmgate.AdminKey) error {
	if err := k.Validate(); err != nil {
		return fmt.Errorf("%s: create admin key: %w", s.d.Name(), err)
	}
	if k.Hash == "" || k.Prefix == "" {
		return fmt.Errorf("%s: create admin key: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "hash and prefix are required"))
	}
	if k.ID == "" {
		k.ID = gtmgate.NewID("ak_")
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q("INSERT INTO admin_keys ("+adminKeyCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		k.ID, k.Name, k.Owner, k.Prefix, k.Hash, strings.Join(k.Scopes, " "), strings.Join(k.Tenants, " "), s.t(k.CreatedAt), k.CreatedBy,
		s.tp(k.ExpiresAt), s.tp(k.RevokedAt), s.tp(k.LastUsedAt))
	if err != nil {
		return s.fail("create admin key", err)
	}
	return nil
}

// FindAdminKey returns the key whose hash is hash, revoked or not.
func (s *Store) FindAdminKey(ctx context.Context, hash string) (*gtmgate.AdminKey, error) {
	k, err := scanAdminKey(s.read.QueryRowContext(ctx, s.q("SELECT "+adminKeyCols+" FROM admin_keys WHERE hash = ?"), hash))
	if err != nil {
		return nil, s.fail("find admin key", err)
	}
	return k, nil
}

// ListAdminKeys returns every key, oldest first.
func (s *Store) ListAdminKeys(ctx context.Context) ([]*gtmgate.AdminKey, error) {
	return listRows(ctx, s, "list admin keys", "SELECT "+adminKeyCols+" FROM admin_keys ORDER BY created_at, id", nil, scanAdminKey)
}

// RevokeAdminKey marks a key not yet revoked revoked at at.
func (s *Store) RevokeAdminKey(ctx context.Context, id string, at time.Time) error {
	return s.execExisting(ctx, "revoke admin key", "UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", s.t(at), id)
}

// TouchAdminKey moves last_used_at to at when it is older than
// gtmgate.AdminKeyTouchInterval: a key in use costs one write a minute.
func (s *Store) TouchAdminKey(ctx context.Context, id string, at time.Time) error {
	_, err := s.write.ExecContext(ctx, s.q(`UPDATE admin_keys SET last_used_at = ?
		WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`), s.t(at), id, s.t(at.Add(-gtmgate.AdminKeyTouchInterval)))
	if err != nil {
		return s.fail("touch admin key", err)
	}
	return nil
}

func scanAdminKey(r scanner) (*gtmgate.AdminKey, error) {
	var k gtmgate.AdminKey
	var scopes, tenants string
	err := r.Scan(&k.ID, &k.Name, &k.Owner, &k.Prefix, &k.Hash, &scopes, &tenants, timeCol{&k.CreatedAt}, &k.CreatedBy,
		nullTimeCol{&k.ExpiresAt}, nullTimeCol{&k.RevokedAt}, nullTimeCol{&k.LastUsedAt})
	if err != nil {
		return nil, err
	}
	k.Scopes, k.Tenants = splitScopes(scopes), splitScopes(tenants)
	return &k, nil
}
