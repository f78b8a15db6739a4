package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.OAuthStore = (*Store)(nil)

const oauthClientCols = "id, secret_hash, name, redirect_uris, auth_method, scope, created_at"

// CreateOAuthClient stores a registered OAuth client. It returns ErrConflict
// when the id exists.
func (s *Store) CreateOAuthClient(ctx context.Context, c *gtmgate.OAuthClient) error {
	if c.ID == "" || c.AuthMethod == "" {
		return fmt.Errorf("%s: create oauth client: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "client id and auth method are required"))
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	uris, err := json.Marshal(c.RedirectURIs)
	if err != nil {
		return fmt.Errorf("%s: create oauth client: %w", s.d.Name(), err)
	}
	_, err = s.write.ExecContext(ctx, s.q("INSERT INTO oauth_clients ("+oauthClientCols+") VALUES (?, ?, ?, ?, ?, ?, ?)"),
		c.ID, c.SecretHash, c.Name, string(uris), c.AuthMethod, c.Scope, s.t(c.CreatedAt))
	if err != nil {
		return s.fail("create oauth client", err)
	}
	return nil
}

// GetOAuthClient returns the client with id, or ErrNotFound.
func (s *Store) GetOAuthClient(ctx context.Context, id string) (*gtmgate.OAuthClient, error) {
	var c gtmgate.OAuthClient
	var uris json.RawMessage
	err := s.read.QueryRowContext(ctx, s.q("SELECT "+oauthClientCols+" FROM oauth_clients WHERE id = ?"), id).
		Scan(&c.ID, &c.SecretHash, &c.Name, jsonCol{&uris}, &c.AuthMethod, &c.Scope, timeCol{&c.CreatedAt})
	if err != nil {
		return nil, s.fail("get oauth client", err)
	}
	if err := json.Unmarshal(uris, &c.RedirectURIs); err != nil {
		return nil, s.fail("get oauth client", fmt.Errorf("redirect uris of %s: %w", id, err))
	}
	return &c, nil
}

// CreateConnectCode stores a connect code (its hash). It returns ErrConflict
// when the hash exists and ErrNotFound when the tenant does not.
func (s *Store) CreateConnectCode(ctx context.Context, c *gtmgate.ConnectCode) error {
	if c.Hash == "" || c.TenantID == "" {
		return fmt.Errorf("%s: create connect code: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "hash and tenant id are required"))
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO oauth_connect_codes (hash, tenant_id, created_at, expires_at, used_at)
		VALUES (?, ?, ?, ?, ?)`), c.Hash, c.TenantID, s.t(c.CreatedAt), s.t(c.ExpiresAt), s.tp(c.UsedAt))
	if err != nil {
		return s.fail("create connect code", err)
	}
	return nil
}

// ConsumeConnectCode marks an unused connect code, live at at, used, with one
// conditional UPDATE so that of concurrent calls exactly one succeeds, and
// returns it. Unknown, used and expired codes all return ErrNotFound: the
// person entering it can do nothing different for each.
func (s *Store) ConsumeConnectCode(ctx context.Context, hash string, at time.Time) (*gtmgate.ConnectCode, error) {
	var c *gtmgate.ConnectCode
	err := s.inTx(ctx, "consume connect code", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE oauth_connect_codes SET used_at = ?
			WHERE hash = ? AND used_at IS NULL AND expires_at > ?`), s.t(at), hash, s.t(at))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return gtmgate.ErrNotFound
		}
		c = &gtmgate.ConnectCode{}
		return tx.QueryRowContext(ctx, s.q(`SELECT hash, tenant_id, created_at, expires_at, used_at
			FROM oauth_connect_codes WHERE hash = ?`), hash).
			Scan(&c.Hash, &c.TenantID, timeCol{&c.CreatedAt}, timeCol{&c.ExpiresAt}, nullTimeCol{&c.UsedAt})
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}
