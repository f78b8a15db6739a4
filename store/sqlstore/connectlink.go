package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate"
)

const connectLinkCols = `id, token_hash, tenant_id, provider, account_hint, scopes, status, state_hash, secret,
	created_by, created_at, expires_at, opened_at, finished_at, result, products, person`

// CreateConnectLink stores a new link, its secret sealed. Status defaults to
// created and CreatedAt to now. It returns ErrConflict when the id, token
// hash or state hash exists and ErrNotFound when the tenant does not.
func (s *Store) CreateConnectLink(ctx context.Context, l *gtmgate.ConnectLink) error {
	if l.ID == "" || l.TokenHash == "" || l.TenantID == "" || l.Provider == "" || l.ExpiresAt.IsZero() {
		return fmt.Errorf("%s: create connect link: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "link id, token hash, tenant id, provider and expiry are required"))
	}
	if l.Status == "" {
		l.Status = gtmgate.ConnectCreated
	}
	if l.CreatedAt.IsZero() {
		l.CreatedAt = s.now()
	}
	sealed, err := s.sealOptional(l.Secret)
	if err != nil {
		return s.fail("create connect link", err)
	}
	_, err = s.write.ExecContext(ctx, s.q("INSERT INTO connect_links ("+connectLinkCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		l.ID, l.TokenHash, l.TenantID, l.Provider, l.AccountHint, strings.Join(l.Scopes, " "), l.Status, l.StateHash, sealed,
		l.CreatedBy, s.t(l.CreatedAt), s.t(l.ExpiresAt), s.tp(l.OpenedAt), s.tp(l.FinishedAt), l.Result, strings.Join(l.Products, " "), l.Person)
	if err != nil {
		return s.fail("create connect link", err)
	}
	return nil
}

// GetConnectLink returns the link whose token hash is tokenHash, its secret
// opened, or ErrNotFound.
func (s *Store) GetConnectLink(ctx context.Context, tokenHash string) (*gtmgate.ConnectLink, error) {
	return s.findConnectLink(ctx, "get connect link", "token_hash = ?", tokenHash)
}

// GetConnectLinkByState returns the link whose state hash is stateHash, its
// secret opened, or ErrNotFound. No link matches an empty state.
func (s *Store) GetConnectLinkByState(ctx context.Context, stateHash string) (*gtmgate.ConnectLink, error) {
	// The condition repeats the partial unique index's, so both databases use it.
	return s.findConnectLink(ctx, "get connect link by state", "state_hash = ? AND state_hash <> ''", stateHash)
}

// findConnectLink reads the link matching where (a constant condition with
// one placeholder) for v.
func (s *Store) findConnectLink(ctx context.Context, op, where, v string) (*gtmgate.ConnectLink, error) {
	if v == "" {
		return nil, s.fail(op, gtmgate.ErrNotFound)
	}
	row := s.read.QueryRowContext(ctx, s.q("SELECT "+connectLinkCols+" FROM connect_links WHERE "+where), v)
	l, err := s.scanConnectLink(row)
	if err != nil {
		return nil, s.fail(op, err)
	}
	return l, nil
}

// ListConnectLinks returns tenantID's links (every tenant's when it is ""),
// newest first, at most limit (100 when unset, at most 1000), secrets left
// out: a list is for showing.
func (s *Store) ListConnectLinks(ctx context.Context, tenantID string, n int) ([]*gtmgate.ConnectLink, error) {
	query := "SELECT " + connectLinkCols + " FROM connect_links"
	args := []any{}
	if tenantID != "" {
		query += " WHERE tenant_id = ?"
		args = append(args, tenantID)
	}
	query += " ORDER BY created_at DESC, id DESC LIMIT ?"
	args = append(args, limit(n, defaultLimit, maxLimit))
	rows, err := s.read.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, s.fail("list connect links", err)
	}
	defer rows.Close()
	ls := []*gtmgate.ConnectLink{}
	for rows.Next() {
		l, err := s.scanConnectLink(rows)
		if err != nil {
			return nil, s.fail("list connect links", err)
		}
		l.Secret = ""
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list connect links", err)
	}
	return ls, nil
}

// AdvanceConnectLink moves link l.ID from status from to l.Status, storing
// l's StateHash, Secret (sealed; "" clears it), OpenedAt, FinishedAt and
// Result, in one conditional UPDATE: of concurrent advances from the same
// status exactly one succeeds. It returns ErrConflict when the link is not in
// status from (or the state hash is another link's) and ErrNotFound when
// there is no such link.
func (s *Store) AdvanceConnectLink(ctx context.Context, from string, l *gtmgate.ConnectLink) error {
	if l.ID == "" || l.Status == "" || from == "" {
		return fmt.Errorf("%s: advance connect link: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "link id and both statuses are required"))
	}
	sealed, err := s.sealOptional(l.Secret)
	if err != nil {
		return s.fail("advance connect link", err)
	}
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE connect_links SET status = ?, state_hash = ?, secret = ?,
		opened_at = ?, finished_at = ?, result = ? WHERE id = ? AND status = ?`),
		l.Status, l.StateHash, sealed, s.tp(l.OpenedAt), s.tp(l.FinishedAt), l.Result, l.ID, from)
	if err != nil {
		return s.fail("advance connect link", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("advance connect link", err)
	} else if n == 1 {
		return nil
	}
	var status string
	err = s.read.QueryRowContext(ctx, s.q("SELECT status FROM connect_links WHERE id = ?"), l.ID).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return s.fail("advance connect link", gtmgate.ErrNotFound)
	} else if err != nil {
		return s.fail("advance connect link", err)
	}
	return s.fail("advance connect link", fmt.Errorf("%w: link is %s, not %s", gtmgate.ErrConflict, status, from))
}

func (s *Store) scanConnectLink(r scanner) (*gtmgate.ConnectLink, error) {
	var l gtmgate.ConnectLink
	var scopes, sealed, products string
	err := r.Scan(&l.ID, &l.TokenHash, &l.TenantID, &l.Provider, &l.AccountHint, &scopes, &l.Status, &l.StateHash, &sealed,
		&l.CreatedBy, timeCol{&l.CreatedAt}, timeCol{&l.ExpiresAt}, nullTimeCol{&l.OpenedAt}, nullTimeCol{&l.FinishedAt}, &l.Result, &products, &l.Person)
	if err != nil {
		return nil, err
	}
	if l.Secret, err = s.openOptional(sealed); err != nil {
		return nil, fmt.Errorf("secret of connect link %s: %w", l.ID, err)
	}
	l.Scopes = splitScopes(scopes)
	l.Products = splitScopes(products)
	return &l, nil
}
