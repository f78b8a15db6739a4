package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.PeopleStore = (*Store)(nil)

const idpCols = "name, display_name, issuer, client_id, client_secret, tenant_id, allowed_domains, groups_claim, created_at, updated_at"

// PutIdP creates or replaces the IdP of p.Name, its client secret sealed.
func (s *Store) PutIdP(ctx context.Context, p *gtmgate.IdP) (bool, error) {
	if p.Name == "" || p.Issuer == "" || p.ClientID == "" {
		return false, fmt.Errorf("%s: put idp: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "name, issuer and client id are required"))
	}
	now := s.now()
	created := false
	err := s.inTx(ctx, "put idp", func(tx *sql.Tx) error {
		if p.TenantID != "" {
			var one int
			if err := tx.QueryRowContext(ctx, s.q("SELECT 1 FROM tenants WHERE id = ?"), p.TenantID).Scan(&one); err != nil {
				return err
			}
		}
		sealed, err := s.sealOptional(p.ClientSecret)
		if err != nil {
			return err
		}
		domains := strings.Join(p.AllowedDomains, " ")
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO sso_idps (`+idpCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (name) DO NOTHING`), p.Name, p.DisplayName, p.Issuer, p.ClientID, sealed, p.TenantID, domains, p.GroupsClaim, s.t(now), s.t(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			created = true
			p.CreatedAt, p.UpdatedAt = now, now
			return nil
		}
		var createdAt time.Time
		err = tx.QueryRowContext(ctx, s.q(`UPDATE sso_idps SET display_name = ?, issuer = ?, client_id = ?, client_secret = ?, tenant_id = ?,
			allowed_domains = ?, groups_claim = ?, updated_at = ? WHERE name = ? RETURNING created_at`),
			p.DisplayName, p.Issuer, p.ClientID, sealed, p.TenantID, domains, p.GroupsClaim, s.t(now), p.Name).Scan(timeCol{&createdAt})
		if err != nil {
			return err
		}
		p.CreatedAt, p.UpdatedAt = createdAt, now
		return nil
	})
	return created, err
}

// GetIdP returns the IdP of name, its secret opened.
func (s *Store) GetIdP(ctx context.Context, name string) (*gtmgate.IdP, error) {
	p, err := s.scanIdP(s.read.QueryRowContext(ctx, s.q("SELECT "+idpCols+" FROM sso_idps WHERE name = ?"), name))
	if err != nil {
		return nil, s.fail("get idp", err)
	}
	return p, nil
}

// ListIdPs returns every IdP by name, secrets opened.
func (s *Store) ListIdPs(ctx context.Context) ([]*gtmgate.IdP, error) {
	return listRows(ctx, s, "list idps", "SELECT "+idpCols+" FROM sso_idps ORDER BY name", nil, s.scanIdP)
}

// DeleteIdP removes an IdP with its grants, people and their sessions.
func (s *Store) DeleteIdP(ctx context.Context, name string) error {
	return s.inTx(ctx, "delete idp", func(tx *sql.Tx) error {
		if err := touchedOne(tx.ExecContext(ctx, s.q("DELETE FROM sso_idps WHERE name = ?"), name)); err != nil {
			return err
		}
		for _, q := range []string{
			"DELETE FROM console_sessions WHERE idp = ?",
			"DELETE FROM role_grants WHERE idp = ?",
			"DELETE FROM people WHERE idp = ?",
		} {
			if _, err := tx.ExecContext(ctx, s.q(q), name); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Store) scanIdP(r scanner) (*gtmgate.IdP, error) {
	var p gtmgate.IdP
	var sealed, domains string
	err := r.Scan(&p.Name, &p.DisplayName, &p.Issuer, &p.ClientID, &sealed, &p.TenantID, &domains, &p.GroupsClaim,
		timeCol{&p.CreatedAt}, timeCol{&p.UpdatedAt})
	if err != nil {
		return nil, err
	}
	if p.ClientSecret, err = s.openOptional(sealed); err != nil {
		return nil, fmt.Errorf("client secret of idp %q: %w", p.Name, err)
	}
	p.AllowedDomains = splitScopes(domains)
	return &p, nil
}

const grantCols = "id, idp, kind, match, role, tenant_id, categories, tools, created_at, created_by"

// PutRoleGrant stores a new grant.
func (s *Store) PutRoleGrant(ctx context.Context, g *gtmgate.RoleGrant) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("%s: put role grant: %w", s.d.Name(), err)
	}
	if g.ID == "" {
		g.ID = gtmgate.NewID("rg_")
	}
	if g.CreatedAt.IsZero() {
		g.CreatedAt = s.now()
	}
	if g.Kind == gtmgate.GrantEmail {
		g.Match = strings.ToLower(g.Match)
	}
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO role_grants (`+grantCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		g.ID, g.IdP, g.Kind, g.Match, g.Role, g.TenantID, strings.Join(g.Categories, " "), strings.Join(g.Tools, " "), s.t(g.CreatedAt), g.CreatedBy)
	if err != nil {
		return s.fail("put role grant", err)
	}
	return nil
}

// ListRoleGrants returns the grants of idp, or every grant for "".
func (s *Store) ListRoleGrants(ctx context.Context, idp string) ([]*gtmgate.RoleGrant, error) {
	q, args := "SELECT "+grantCols+" FROM role_grants", []any{}
	if idp != "" {
		q, args = q+" WHERE idp = ?", append(args, idp)
	}
	return listRows(ctx, s, "list role grants", q+" ORDER BY idp, tenant_id, role, kind, match", args, scanGrant)
}

// DeleteRoleGrant removes a grant.
func (s *Store) DeleteRoleGrant(ctx context.Context, id string) error {
	return s.execExisting(ctx, "delete role grant", "DELETE FROM role_grants WHERE id = ?", id)
}

func scanGrant(r scanner) (*gtmgate.RoleGrant, error) {
	var g gtmgate.RoleGrant
	var cats, tools string
	if err := r.Scan(&g.ID, &g.IdP, &g.Kind, &g.Match, &g.Role, &g.TenantID, &cats, &tools, timeCol{&g.CreatedAt}, &g.CreatedBy); err != nil {
		return nil, err
	}
	g.Categories, g.Tools = splitScopes(cats), splitScopes(tools)
	return &g, nil
}

const personCols = "id, idp, issuer, subject, email, name, created_at, last_seen_at"

// SignedIn creates the person of (issuer, subject) on their first sign-in
// and refreshes their email, name and last sign-in on every other.
func (s *Store) SignedIn(ctx context.Context, idp string, id gtmgate.Identity, at time.Time) (*gtmgate.Person, error) {
	if id.Issuer == "" || id.Subject == "" {
		return nil, fmt.Errorf("%s: signed in: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "issuer and subject are required"))
	}
	var p *gtmgate.Person
	err := s.inTx(ctx, "signed in", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO people (`+personCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, name = excluded.name, idp = excluded.idp,
			last_seen_at = excluded.last_seen_at`),
			gtmgate.NewID("p_"), idp, id.Issuer, id.Subject, id.Email, id.Name, s.t(at), s.t(at))
		if err != nil {
			return err
		}
		p, err = scanPerson(tx.QueryRowContext(ctx, s.q("SELECT "+personCols+" FROM people WHERE issuer = ? AND subject = ?"), id.Issuer, id.Subject))
		return err
	})
	return p, err
}

// GetPerson returns the person of id.
func (s *Store) GetPerson(ctx context.Context, id string) (*gtmgate.Person, error) {
	p, err := scanPerson(s.read.QueryRowContext(ctx, s.q("SELECT "+personCols+" FROM people WHERE id = ?"), id))
	if err != nil {
		return nil, s.fail("get person", err)
	}
	return p, nil
}

// ListPeople returns everyone who has signed in, by email.
func (s *Store) ListPeople(ctx context.Context) ([]*gtmgate.Person, error) {
	return listRows(ctx, s, "list people", "SELECT "+personCols+" FROM people ORDER BY email, id", nil, scanPerson)
}

// DeletePerson removes a person, their subject grants, their sessions and
// their own grants of upstream MCP servers (kept under their id, in every
// tenant): a removed person's tokens are neither kept nor used to list a
// server's tools.
func (s *Store) DeletePerson(ctx context.Context, id string) error {
	return s.inTx(ctx, "delete person", func(tx *sql.Tx) error {
		var idp, subject string
		err := tx.QueryRowContext(ctx, s.q("DELETE FROM people WHERE id = ? RETURNING idp, subject"), id).Scan(&idp, &subject)
		if err != nil {
			return err
		}
		for _, q := range []string{
			"DELETE FROM console_sessions WHERE person_id = ?",
			"DELETE FROM provider_tokens WHERE account_id = ? AND provider LIKE '" + gtmgate.MCPGrantPrefix + "%'",
			"DELETE FROM provider_oauth WHERE account_id = ? AND provider LIKE '" + gtmgate.MCPGrantPrefix + "%'",
		} {
			if _, err := tx.ExecContext(ctx, s.q(q), id); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, s.q("DELETE FROM role_grants WHERE idp = ? AND kind = ? AND match = ?"), idp, gtmgate.GrantSubject, subject)
		return err
	})
}

func scanPerson(r scanner) (*gtmgate.Person, error) {
	var p gtmgate.Person
	if err := r.Scan(&p.ID, &p.IdP, &p.Issuer, &p.Subject, &p.Email, &p.Name, timeCol{&p.CreatedAt}, timeCol{&p.LastSeenAt}); err != nil {
		return nil, err
	}
	return &p, nil
}

// CreateSignIn stores a sign-in under way, its PKCE verifier sealed.
func (s *Store) CreateSignIn(ctx context.Context, in *gtmgate.SignIn) error {
	if in.StateHash == "" || in.IdP == "" || in.ExpiresAt.IsZero() {
		return fmt.Errorf("%s: create sign-in: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "state hash, idp and expiry are required"))
	}
	sealed, err := s.sealer.Seal(in.Verifier)
	if err != nil {
		return s.fail("create sign-in", err)
	}
	_, err = s.write.ExecContext(ctx, s.q(`INSERT INTO sso_signins (state_hash, idp, nonce, verifier, next, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), in.StateHash, in.IdP, in.Nonce, sealed, in.Next, s.t(in.CreatedAt), s.t(in.ExpiresAt))
	if err != nil {
		return s.fail("create sign-in", err)
	}
	return nil
}

// TakeSignIn deletes and returns the sign-in of stateHash: one callback
// uses it, a replay finds nothing.
func (s *Store) TakeSignIn(ctx context.Context, stateHash string, at time.Time) (*gtmgate.SignIn, error) {
	in := gtmgate.SignIn{StateHash: stateHash}
	var sealed string
	err := s.write.QueryRowContext(ctx, s.q(`DELETE FROM sso_signins WHERE state_hash = ?
		RETURNING idp, nonce, verifier, next, created_at, expires_at`), stateHash).
		Scan(&in.IdP, &in.Nonce, &sealed, &in.Next, timeCol{&in.CreatedAt}, timeCol{&in.ExpiresAt})
	if err != nil {
		return nil, s.fail("take sign-in", err)
	}
	if !at.Before(in.ExpiresAt) {
		return nil, s.fail("take sign-in", fmt.Errorf("expired at %s: %w", in.ExpiresAt.Format(time.RFC3339), sql.ErrNoRows))
	}
	if in.Verifier, err = s.sealer.Open(sealed); err != nil {
		return nil, s.fail("take sign-in", err)
	}
	return &in, nil
}
