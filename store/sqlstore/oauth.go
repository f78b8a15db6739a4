package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

const oauthCols = `tenant_id, provider, account_id, client_id, client_secret, token_endpoint,
	refresh_token, needs_reauth, last_error, last_refresh_at, updated_at, resource`

// PutProviderOAuth creates or replaces an account's seeding record. The
// client secret and refresh token are sealed; a refresh lease in progress is
// kept. It returns ErrNotFound when the tenant does not exist.
func (s *Store) PutProviderOAuth(ctx context.Context, o *gtmgate.ProviderOAuth) error {
	if o.UpdatedAt.IsZero() {
		o.UpdatedAt = s.now()
	}
	secret, err := s.sealOptional(o.ClientSecret)
	if err != nil {
		return s.fail("put provider oauth", err)
	}
	refresh, err := s.sealOptional(o.RefreshToken)
	if err != nil {
		return s.fail("put provider oauth", err)
	}
	_, err = s.write.ExecContext(ctx, s.q(`INSERT INTO provider_oauth (`+oauthCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, provider, account_id) DO UPDATE SET
		client_id = excluded.client_id, client_secret = excluded.client_secret,
		token_endpoint = excluded.token_endpoint, refresh_token = excluded.refresh_token,
		needs_reauth = excluded.needs_reauth, last_error = excluded.last_error,
		last_refresh_at = excluded.last_refresh_at, updated_at = excluded.updated_at, resource = excluded.resource`),
		o.TenantID, o.Provider, o.AccountID, o.ClientID, secret, o.TokenEndpoint,
		refresh, o.NeedsReauth, o.LastError, s.tp(o.LastRefreshAt), s.t(o.UpdatedAt), o.Resource)
	if err != nil {
		return s.fail("put provider oauth", err)
	}
	return nil
}

// GetProviderOAuth returns an account's decrypted seeding record, or
// ErrNotFound.
func (s *Store) GetProviderOAuth(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderOAuth, error) {
	row := s.read.QueryRowContext(ctx, s.q("SELECT "+oauthCols+
		" FROM provider_oauth WHERE tenant_id = ? AND provider = ? AND account_id = ?"), tenantID, provider, accountID)
	o, err := s.scanOAuth(row)
	if err != nil {
		return nil, s.fail("get provider oauth", err)
	}
	return o, nil
}

// ListProviderOAuth returns the seeding records of one tenant, or of all
// tenants when tenantID is empty, ordered by tenant, provider and account.
func (s *Store) ListProviderOAuth(ctx context.Context, tenantID string) ([]*gtmgate.ProviderOAuth, error) {
	rows, err := s.read.QueryContext(ctx, s.q("SELECT "+oauthCols+
		" FROM provider_oauth WHERE (? = '' OR tenant_id = ?) ORDER BY tenant_id, provider, account_id"), tenantID, tenantID)
	if err != nil {
		return nil, s.fail("list provider oauth", err)
	}
	defer rows.Close()
	os := []*gtmgate.ProviderOAuth{}
	for rows.Next() {
		o, err := s.scanOAuth(rows)
		if err != nil {
			return nil, s.fail("list provider oauth", err)
		}
		os = append(os, o)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list provider oauth", err)
	}
	return os, nil
}

// ClaimRefresh takes an account's refresh lease until leaseUntil when no
// other holder's lease is live at now (holder may renew its own). It reports
// whether it got the lease, and returns ErrNotFound when the account has no
// seeding record.
func (s *Store) ClaimRefresh(ctx context.Context, tenantID, provider, accountID, holder string, now, leaseUntil time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE provider_oauth SET refresh_holder = ?, refresh_lease_until = ?
		WHERE tenant_id = ? AND provider = ? AND account_id = ?
		AND (refresh_lease_until IS NULL OR refresh_lease_until < ? OR refresh_holder = ?)`),
		holder, s.t(leaseUntil), tenantID, provider, accountID, s.t(now), holder)
	if err != nil {
		return false, s.fail("claim refresh", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, s.fail("claim refresh", err)
	}
	if n == 1 {
		return true, nil
	}
	var one int
	err = s.read.QueryRowContext(ctx, s.q("SELECT 1 FROM provider_oauth WHERE tenant_id = ? AND provider = ? AND account_id = ?"),
		tenantID, provider, accountID).Scan(&one)
	if err != nil {
		return false, s.fail("claim refresh", err)
	}
	return false, nil
}

// CompleteRefresh stores a refresh's outcome and releases the lease in one
// transaction: on success the new access token (sealed), a rotated refresh
// token when there is one, and last_refresh_at; on failure the error and
// whether the account needs re-authorisation. It returns ErrNotFound when the
// account has no seeding record.
func (s *Store) CompleteRefresh(ctx context.Context, r gtmgate.RefreshResult) error {
	return s.inTx(ctx, "complete refresh", func(tx *sql.Tx) error {
		rotated, err := s.sealOptional(r.RotatedRefreshToken)
		if err != nil {
			return err
		}
		var lastRefresh any
		if r.Token != nil {
			lastRefresh = s.t(r.At)
		}
		res, err := tx.ExecContext(ctx, s.q(`UPDATE provider_oauth SET
			refresh_token = CASE WHEN ? = '' THEN refresh_token ELSE ? END,
			needs_reauth = ?, last_error = ?,
			last_refresh_at = COALESCE(?, last_refresh_at), updated_at = ?,
			refresh_holder = NULL, refresh_lease_until = NULL
			WHERE tenant_id = ? AND provider = ? AND account_id = ?`),
			rotated, rotated, r.NeedsReauth, r.Err, lastRefresh, s.t(r.At),
			r.TenantID, r.Provider, r.AccountID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return gtmgate.ErrNotFound
		}
		if r.Token == nil {
			return nil
		}
		tok := *r.Token
		tok.TenantID, tok.Provider, tok.AccountID = r.TenantID, r.Provider, r.AccountID
		if tok.UpdatedAt.IsZero() {
			tok.UpdatedAt = r.At
		}
		return s.putProviderToken(ctx, tx, &tok)
	})
}

func (s *Store) scanOAuth(r scanner) (*gtmgate.ProviderOAuth, error) {
	var o gtmgate.ProviderOAuth
	var secret, refresh string
	err := r.Scan(&o.TenantID, &o.Provider, &o.AccountID, &o.ClientID, &secret, &o.TokenEndpoint,
		&refresh, &o.NeedsReauth, &o.LastError, nullTimeCol{&o.LastRefreshAt}, timeCol{&o.UpdatedAt}, &o.Resource)
	if err != nil {
		return nil, err
	}
	if o.ClientSecret, err = s.openOptional(secret); err != nil {
		return nil, fmt.Errorf("client secret of %s/%s/%s: %w", o.TenantID, o.Provider, o.AccountID, err)
	}
	if o.RefreshToken, err = s.openOptional(refresh); err != nil {
		return nil, fmt.Errorf("refresh token of %s/%s/%s: %w", o.TenantID, o.Provider, o.AccountID, err)
	}
	return &o, nil
}
