package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.ConnectStore = (*Store)(nil)

const oauthAppCols = "tenant_id, provider, client_id, client_secret, extra_scopes, created_at, updated_at"

// PutOAuthApp creates or replaces the app of (a.TenantID, a.Provider), its
// client secret sealed, and reports whether it created it. It sets
// a.UpdatedAt to now and a.CreatedAt to the stored creation time. It returns
// ErrNotFound when a.TenantID names a tenant that does not exist.
func (s *Store) PutOAuthApp(ctx context.Context, a *gtmgate.OAuthApp) (bool, error) {
	if a.Provider == "" || a.ClientID == "" {
		return false, fmt.Errorf("%s: put oauth app: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "provider and client id are required"))
	}
	now := s.now()
	created := false
	err := s.inTx(ctx, "put oauth app", func(tx *sql.Tx) error {
		if a.TenantID != "" {
			// No foreign key: '' (gateway-wide) is not a tenant.
			var one int
			if err := tx.QueryRowContext(ctx, s.q("SELECT 1 FROM tenants WHERE id = ?"), a.TenantID).Scan(&one); err != nil {
				return err
			}
		}
		sealed, err := s.sealOptional(a.ClientSecret)
		if err != nil {
			return err
		}
		scopes := strings.Join(a.ExtraScopes, " ")
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO oauth_apps (`+oauthAppCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, provider) DO NOTHING`),
			a.TenantID, a.Provider, a.ClientID, sealed, scopes, s.t(now), s.t(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			created = true
			a.CreatedAt, a.UpdatedAt = now, now
			return nil
		}
		var createdAt time.Time
		err = tx.QueryRowContext(ctx, s.q(`UPDATE oauth_apps SET client_id = ?, client_secret = ?, extra_scopes = ?, updated_at = ?
			WHERE tenant_id = ? AND provider = ? RETURNING created_at`),
			a.ClientID, sealed, scopes, s.t(now), a.TenantID, a.Provider).Scan(timeCol{&createdAt})
		if err != nil {
			return err
		}
		a.CreatedAt, a.UpdatedAt = createdAt, now
		return nil
	})
	return created, err
}

// GetOAuthApp returns the app of (tenantID, provider), its secret opened, or
// ErrNotFound; a tenant without its own app does not get the gateway-wide one.
func (s *Store) GetOAuthApp(ctx context.Context, tenantID, provider string) (*gtmgate.OAuthApp, error) {
	row := s.read.QueryRowContext(ctx, s.q("SELECT "+oauthAppCols+" FROM oauth_apps WHERE tenant_id = ? AND provider = ?"),
		tenantID, provider)
	a, err := s.scanOAuthApp(row)
	if err != nil {
		return nil, s.fail("get oauth app", err)
	}
	return a, nil
}

// ListOAuthApps returns every app, the gateway-wide ones first, then by
// tenant and provider, secrets opened.
func (s *Store) ListOAuthApps(ctx context.Context) ([]*gtmgate.OAuthApp, error) {
	rows, err := s.read.QueryContext(ctx, s.q("SELECT "+oauthAppCols+" FROM oauth_apps ORDER BY tenant_id, provider"))
	if err != nil {
		return nil, s.fail("list oauth apps", err)
	}
	defer rows.Close()
	as := []*gtmgate.OAuthApp{}
	for rows.Next() {
		a, err := s.scanOAuthApp(rows)
		if err != nil {
			return nil, s.fail("list oauth apps", err)
		}
		as = append(as, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list oauth apps", err)
	}
	return as, nil
}

// DeleteOAuthApp deletes the app of (tenantID, provider); ErrNotFound when
// there is none.
func (s *Store) DeleteOAuthApp(ctx context.Context, tenantID, provider string) error {
	return s.execExisting(ctx, "delete oauth app", "DELETE FROM oauth_apps WHERE tenant_id = ? AND provider = ?", tenantID, provider)
}

func (s *Store) scanOAuthApp(r scanner) (*gtmgate.OAuthApp, error) {
	var a gtmgate.OAuthApp
	var sealed, scopes string
	err := r.Scan(&a.TenantID, &a.Provider, &a.ClientID, &sealed, &scopes, timeCol{&a.CreatedAt}, timeCol{&a.UpdatedAt})
	if err != nil {
		return nil, err
	}
	if a.ClientSecret, err = s.openOptional(sealed); err != nil {
		return nil, fmt.Errorf("client secret of oauth app %q/%s: %w", a.TenantID, a.Provider, err)
	}
	a.ExtraScopes = splitScopes(scopes)
	return &a, nil
}

// splitScopes reads a space-separated scope list; none is nil.
func splitScopes(v string) []string {
	if f := strings.Fields(v); len(f) > 0 {
		return f
	}
	return nil
}
