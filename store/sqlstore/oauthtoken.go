package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

const (
	oauthCodeCols = `hash, family_id, client_id, redirect_uri, code_challenge, scopes, tenant_id, resource,
		created_at, expires_at, used_at, consented_by, toolset`
	oauthTokenCols = `id, hash, kind, family_id, tenant_id, client_id, scopes, resource,
		created_at, expires_at, used_at, revoked_at, consented_by, toolset`
)

// CreateOAuthCode stores an authorization code (its hash). It returns
// ErrConflict when the hash exists and ErrNotFound when the tenant does not.
func (s *Store) CreateOAuthCode(ctx context.Context, c *gtmgate.OAuthCode) error {
	if c.Hash == "" || c.FamilyID == "" || c.TenantID == "" || c.ClientID == "" {
		return fmt.Errorf("%s: create oauth code: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "hash, family, tenant and client are required"))
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q("INSERT INTO oauth_codes ("+oauthCodeCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		c.Hash, c.FamilyID, c.ClientID, c.RedirectURI, c.CodeChallenge, strings.Join(c.Scopes, " "), c.TenantID,
		c.Resource, s.t(c.CreatedAt), s.t(c.ExpiresAt), s.tp(c.UsedAt), c.ConsentedBy, c.Toolset)
	if err != nil {
		return s.fail("create oauth code", err)
	}
	return nil
}

// ConsumeOAuthCode marks the code used at at with one conditional UPDATE (so
// of concurrent exchanges exactly one wins) and returns it. A code already
// used returns ErrConflict after revoking its family's tokens in the same
// transaction (RFC 6749 §4.1.2: a replayed code should revoke what it
// issued); that revocation is committed even though an error is returned.
func (s *Store) ConsumeOAuthCode(ctx context.Context, hash string, at time.Time) (*gtmgate.OAuthCode, error) {
	var c *gtmgate.OAuthCode
	var replayed bool
	err := s.inTx(ctx, "consume oauth code", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q("UPDATE oauth_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL"), s.t(at), hash)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if c, err = scanOAuthCode(tx.QueryRowContext(ctx, s.q("SELECT "+oauthCodeCols+" FROM oauth_codes WHERE hash = ?"), hash)); err != nil {
			return err
		}
		if n == 0 {
			replayed = true
			_, err = s.revokeFamily(ctx, tx, c.FamilyID, at)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if replayed {
		return c, s.fail("consume oauth code", fmt.Errorf("%w: authorization code already used", gtmgate.ErrConflict))
	}
	return c, nil
}

// CreateOAuthTokens stores tokens in one transaction. It returns ErrConflict
// when an id or hash exists and ErrNotFound when the tenant does not.
func (s *Store) CreateOAuthTokens(ctx context.Context, ts ...*gtmgate.OAuthToken) error {
	return s.inTx(ctx, "create oauth tokens", func(tx *sql.Tx) error { return s.insertTokens(ctx, tx, ts) })
}

// FindOAuthToken returns the token whose hash is hash, whatever its state,
// or ErrNotFound.
func (s *Store) FindOAuthToken(ctx context.Context, hash string) (*gtmgate.OAuthToken, error) {
	t, err := scanOAuthToken(s.read.QueryRowContext(ctx, s.q("SELECT "+oauthTokenCols+" FROM oauth_tokens WHERE hash = ?"), hash))
	if err != nil {
		return nil, s.fail("find oauth token", err)
	}
	return t, nil
}

// RotateRefreshToken marks the live refresh token with oldHash used and
// stores next in one transaction. The conditional UPDATE decides between
// concurrent rotations: the loser, like any reuse of a rotated or revoked
// token, revokes the family (committed) and gets ErrConflict.
func (s *Store) RotateRefreshToken(ctx context.Context, oldHash string, at time.Time, next ...*gtmgate.OAuthToken) error {
	var reused bool
	err := s.inTx(ctx, "rotate refresh token", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE oauth_tokens SET used_at = ?
			WHERE hash = ? AND kind = 'refresh' AND used_at IS NULL AND revoked_at IS NULL`), s.t(at), oldHash)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 1 {
			return s.insertTokens(ctx, tx, next)
		}
		var family string
		if err := tx.QueryRowContext(ctx, s.q("SELECT family_id FROM oauth_tokens WHERE hash = ? AND kind = 'refresh'"), oldHash).
			Scan(&family); err != nil {
			return err
		}
		reused = true
		_, err = s.revokeFamily(ctx, tx, family, at)
		return err
	})
	if err != nil {
		return err
	}
	if reused {
		return s.fail("rotate refresh token", fmt.Errorf("%w: refresh token already used or revoked", gtmgate.ErrConflict))
	}
	return nil
}

// RevokeOAuthToken revokes one token, keeping the first revocation time. It
// returns ErrNotFound for an unknown id.
func (s *Store) RevokeOAuthToken(ctx context.Context, id string, at time.Time) error {
	return s.execExisting(ctx, "revoke oauth token", "UPDATE oauth_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", s.t(at), id)
}

// RevokeOAuthFamily revokes every live token of a family and reports how many.
func (s *Store) RevokeOAuthFamily(ctx context.Context, familyID string, at time.Time) (int64, error) {
	var n int64
	err := s.inTx(ctx, "revoke oauth family", func(tx *sql.Tx) error {
		var err error
		n, err = s.revokeFamily(ctx, tx, familyID, at)
		return err
	})
	return n, err
}

func (s *Store) revokeFamily(ctx context.Context, tx *sql.Tx, familyID string, at time.Time) (int64, error) {
	res, err := tx.ExecContext(ctx, s.q("UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL"),
		s.t(at), familyID)
	if err != nil {
		return 0, fmt.Errorf("revoke family: %w", err)
	}
	return res.RowsAffected()
}

func (s *Store) insertTokens(ctx context.Context, tx *sql.Tx, ts []*gtmgate.OAuthToken) error {
	for _, t := range ts {
		if t.ID == "" || t.Hash == "" || t.FamilyID == "" || t.TenantID == "" ||
			(t.Kind != gtmgate.OAuthAccessToken && t.Kind != gtmgate.OAuthRefreshToken) {
			return gtmgate.Errorf(gtmgate.EValidation, "token id, hash, kind, family and tenant are required")
		}
		if t.CreatedAt.IsZero() {
			t.CreatedAt = s.now()
		}
		_, err := tx.ExecContext(ctx, s.q("INSERT INTO oauth_tokens ("+oauthTokenCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
			t.ID, t.Hash, t.Kind, t.FamilyID, t.TenantID, t.ClientID, strings.Join(t.Scopes, " "), t.Resource,
			s.t(t.CreatedAt), s.t(t.ExpiresAt), s.tp(t.UsedAt), s.tp(t.RevokedAt), t.ConsentedBy, t.Toolset)
		if err != nil {
			return err
		}
	}
	return nil
}

func scanOAuthCode(r scanner) (*gtmgate.OAuthCode, error) {
	var c gtmgate.OAuthCode
	var scopes string
	err := r.Scan(&c.Hash, &c.FamilyID, &c.ClientID, &c.RedirectURI, &c.CodeChallenge, &scopes, &c.TenantID, &c.Resource,
		timeCol{&c.CreatedAt}, timeCol{&c.ExpiresAt}, nullTimeCol{&c.UsedAt}, &c.ConsentedBy, &c.Toolset)
	if err != nil {
		return nil, err
	}
	c.Scopes = strings.Fields(scopes)
	return &c, nil
}

func scanOAuthToken(r scanner) (*gtmgate.OAuthToken, error) {
	var t gtmgate.OAuthToken
	var scopes string
	err := r.Scan(&t.ID, &t.Hash, &t.Kind, &t.FamilyID, &t.TenantID, &t.ClientID, &scopes, &t.Resource,
		timeCol{&t.CreatedAt}, timeCol{&t.ExpiresAt}, nullTimeCol{&t.UsedAt}, nullTimeCol{&t.RevokedAt}, &t.ConsentedBy, &t.Toolset)
	if err != nil {
		return nil, err
	}
	t.Scopes = strings.Fields(scopes)
	return &t, nil
}
