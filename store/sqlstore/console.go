package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.ConsoleStore = (*Store)(nil)

// CreateConsoleSession stores a console session by its hash.
func (s *Store) CreateConsoleSession(ctx context.Context, cs *gtmgate.ConsoleSession) error {
	if cs.Hash == "" || (cs.KeyHash == "") == (cs.PersonID == "") || cs.ExpiresAt.IsZero() {
		return fmt.Errorf("%s: create console session: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "hash, expiry and one of key hash and person are required"))
	}
	identity, err := json.Marshal(cs.Identity)
	if err != nil {
		return fmt.Errorf("%s: create console session: %w", s.d.Name(), err)
	}
	if cs.CreatedAt.IsZero() {
		cs.CreatedAt = s.now()
	}
	_, err = s.write.ExecContext(ctx, s.q(`INSERT INTO console_sessions (hash, key_hash, person_id, idp, identity, address, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), cs.Hash, cs.KeyHash, cs.PersonID, cs.IdP, string(identity), cs.Address, s.t(cs.CreatedAt), s.t(cs.ExpiresAt))
	if err != nil {
		return s.fail("create console session", err)
	}
	return nil
}

// GetConsoleSession returns the session with hash unless it has expired by at.
func (s *Store) GetConsoleSession(ctx context.Context, hash string, at time.Time) (*gtmgate.ConsoleSession, error) {
	cs := gtmgate.ConsoleSession{Hash: hash}
	var identity string
	err := s.read.QueryRowContext(ctx, s.q(`SELECT key_hash, person_id, idp, identity, address, created_at, expires_at
		FROM console_sessions WHERE hash = ? AND expires_at > ?`), hash, s.t(at)).
		Scan(&cs.KeyHash, &cs.PersonID, &cs.IdP, &identity, &cs.Address, timeCol{&cs.CreatedAt}, timeCol{&cs.ExpiresAt})
	if err != nil {
		return nil, s.fail("get console session", err)
	}
	if identity != "" {
		if err := json.Unmarshal([]byte(identity), &cs.Identity); err != nil {
			return nil, s.fail("get console session", fmt.Errorf("identity: %w", err))
		}
	}
	return &cs, nil
}

// DeleteConsoleSession ends a session.
func (s *Store) DeleteConsoleSession(ctx context.Context, hash string) error {
	if _, err := s.write.ExecContext(ctx, s.q("DELETE FROM console_sessions WHERE hash = ?"), hash); err != nil {
		return s.fail("delete console session", err)
	}
	return nil
}

// ListProviderTokens describes a tenant's provider tokens without opening
// their sealed values.
func (s *Store) ListProviderTokens(ctx context.Context, tenantID string) ([]gtmgate.ProviderTokenInfo, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT provider, account_id, token_type, expires_at, updated_at
		FROM provider_tokens WHERE tenant_id = ? ORDER BY provider, account_id`), tenantID)
	if err != nil {
		return nil, s.fail("list provider tokens", err)
	}
	defer rows.Close()
	out := []gtmgate.ProviderTokenInfo{}
	for rows.Next() {
		var t gtmgate.ProviderTokenInfo
		if err := rows.Scan(&t.Provider, &t.AccountID, &t.TokenType, nullTimeCol{&t.ExpiresAt}, timeCol{&t.UpdatedAt}); err != nil {
			return nil, s.fail("list provider tokens", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list provider tokens", err)
	}
	return out, nil
}

// ListOAuthGrants folds a tenant's live OAuth tokens into one grant per
// client: a rotated refresh token (used) or a revoked or expired one is not
// live.
func (s *Store) ListOAuthGrants(ctx context.Context, tenantID string, at time.Time) ([]gtmgate.OAuthGrant, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT t.client_id, COALESCE(c.name, ''), t.scopes, t.created_at, t.expires_at, t.consented_by, t.family_id, t.toolset
		FROM oauth_tokens t LEFT JOIN oauth_clients c ON c.id = t.client_id
		WHERE t.tenant_id = ? AND t.revoked_at IS NULL AND t.used_at IS NULL AND t.expires_at > ?
		ORDER BY t.client_id, t.created_at, t.id`), tenantID, s.t(at))
	if err != nil {
		return nil, s.fail("list oauth grants", err)
	}
	defer rows.Close()
	out := []gtmgate.OAuthGrant{}
	for rows.Next() {
		var clientID, name, scopes, consentedBy, family, toolset string
		var created, expires time.Time
		if err := rows.Scan(&clientID, &name, &scopes, timeCol{&created}, timeCol{&expires}, &consentedBy, &family, &toolset); err != nil {
			return nil, s.fail("list oauth grants", err)
		}
		if len(out) == 0 || out[len(out)-1].ClientID != clientID {
			out = append(out, gtmgate.OAuthGrant{ClientID: clientID, ClientName: name, Scopes: []string{}, FirstIssued: created, Agents: []gtmgate.OAuthAgent{}})
		}
		g := &out[len(out)-1]
		g.ActiveTokens++
		g.LastIssued = created
		if expires.After(g.ExpiresAt) {
			g.ExpiresAt = expires
		}
		for _, sc := range strings.Fields(scopes) {
			if !slices.Contains(g.Scopes, sc) {
				g.Scopes = append(g.Scopes, sc)
			}
		}
		key := gtmgate.OAuthAgentKey(family)
		if !slices.ContainsFunc(g.Agents, func(a gtmgate.OAuthAgent) bool { return a.Key == key }) {
			g.Agents = append(g.Agents, gtmgate.OAuthAgent{Key: key, ConsentedBy: consentedBy, Toolset: toolset})
		}
		if consentedBy != "" && !slices.Contains(g.ConsentedBy, consentedBy) {
			g.ConsentedBy = append(g.ConsentedBy, consentedBy)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list oauth grants", err)
	}
	for i := range out {
		slices.Sort(out[i].Scopes)
	}
	return out, nil
}

// RevokeOAuthGrant revokes every unrevoked token of clientID for tenantID,
// refresh tokens included, so the client must be authorised again.
func (s *Store) RevokeOAuthGrant(ctx context.Context, tenantID, clientID string, at time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE oauth_tokens SET revoked_at = ?
		WHERE tenant_id = ? AND client_id = ? AND revoked_at IS NULL AND expires_at > ?`), s.t(at), tenantID, clientID, s.t(at))
	if err != nil {
		return 0, s.fail("revoke oauth grant", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, s.fail("revoke oauth grant", err)
	}
	if n == 0 {
		return 0, fmt.Errorf("%s: revoke oauth grant: %w", s.d.Name(), gtmgate.ErrNotFound)
	}
	return n, nil
}
