package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Tenants are stored as their JSON configuration plus the columns that are
// queried or owned by the store (id, status, timestamps); the columns win
// over the JSON on read.

// GetTenant returns the tenant with id, or ErrNotFound.
func (s *Store) GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error) {
	row := s.read.QueryRowContext(ctx, s.q(
		"SELECT id, status, config, created_at, updated_at FROM tenants WHERE id = ?"), id)
	t, err := s.scanTenant(row)
	if err != nil {
		return nil, s.fail("get tenant", err)
	}
	return t, nil
}

// PutTenant creates or replaces a tenant and reports whether it created it.
// It sets t.UpdatedAt to now and t.CreatedAt to the stored creation time
// (now, unless a new tenant already carries one).
func (s *Store) PutTenant(ctx context.Context, t *gtmgate.Tenant) (bool, error) {
	if t.ID == "" {
		return false, fmt.Errorf("%s: put tenant: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "tenant id is required"))
	}
	now := s.now()
	created := false
	err := s.inTx(ctx, "put tenant", func(tx *sql.Tx) error {
		cp := *t
		cp.UpdatedAt = now
		cp.CreatedAt = cp.CreatedAt.UTC().Truncate(time.Microsecond)
		if cp.CreatedAt.IsZero() {
			cp.CreatedAt = now
		}
		config, err := s.encodeTenant(&cp)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO tenants (id, status, config, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
			cp.ID, cp.Status, string(config), s.t(cp.CreatedAt), s.t(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			created = true
			t.CreatedAt, t.UpdatedAt = cp.CreatedAt, cp.UpdatedAt
			return nil
		}
		// Existing tenant: keep its creation time.
		if err := tx.QueryRowContext(ctx, s.q("SELECT created_at FROM tenants WHERE id = ?"+s.d.ForUpdate()),
			cp.ID).Scan(timeCol{&cp.CreatedAt}); err != nil {
			return err
		}
		if config, err = s.encodeTenant(&cp); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE tenants SET status = ?, config = ?, updated_at = ? WHERE id = ?"),
			cp.Status, string(config), s.t(now), cp.ID); err != nil {
			return err
		}
		t.CreatedAt, t.UpdatedAt = cp.CreatedAt, cp.UpdatedAt
		return nil
	})
	return created, err
}

// ListTenants returns every tenant ordered by id.
func (s *Store) ListTenants(ctx context.Context) ([]*gtmgate.Tenant, error) {
	rows, err := s.read.QueryContext(ctx,
		"SELECT id, status, config, created_at, updated_at FROM tenants ORDER BY id")
	if err != nil {
		return nil, s.fail("list tenants", err)
	}
	defer rows.Close()
	ts := []*gtmgate.Tenant{}
	for rows.Next() {
		t, err := s.scanTenant(rows)
		if err != nil {
			return nil, s.fail("list tenants", err)
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list tenants", err)
	}
	return ts, nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

func (s *Store) scanTenant(r scanner) (*gtmgate.Tenant, error) {
	var (
		t      gtmgate.Tenant
		config []byte
		id     string
		status string
	)
	if err := r.Scan(&id, &status, &config, timeCol{&t.CreatedAt}, timeCol{&t.UpdatedAt}); err != nil {
		return nil, err
	}
	created, updated := t.CreatedAt, t.UpdatedAt
	stored := storedTenant{Tenant: &t}
	if err := json.Unmarshal(config, &stored); err != nil {
		return nil, fmt.Errorf("decode tenant %s: %w", id, err)
	}
	if err := s.openWebhooks(&t, stored.Webhooks); err != nil {
		return nil, fmt.Errorf("decode tenant %s: %w", id, err)
	}
	t.ID, t.Status, t.CreatedAt, t.UpdatedAt = id, status, created, updated
	return &t, nil
}

// storedTenant is a tenant's configuration as stored: the tenant, whose
// approval route webhooks encode without their URL and secret, and beside
// it each webhook's URL and secret sealed, by the webhook's id.
type storedTenant struct {
	*gtmgate.Tenant
	Webhooks map[string]string `json:"sealed_webhooks,omitempty"`
}

// webhookSecrets is what is sealed of one route webhook.
type webhookSecrets struct {
	URL    string `json:"url"`
	Secret string `json:"secret,omitempty"`
}

// encodeTenant is t's configuration as stored, its route webhooks' URLs
// and secrets sealed.
func (s *Store) encodeTenant(t *gtmgate.Tenant) ([]byte, error) {
	stored := storedTenant{Tenant: t}
	if t.Approval != nil {
		for _, r := range t.Approval.Routes {
			for _, w := range r.Webhooks {
				if w.ID == "" {
					return nil, gtmgate.Errorf(gtmgate.EValidation, "an approval route webhook needs an id")
				}
				plain, err := json.Marshal(webhookSecrets{URL: w.URL, Secret: w.Secret})
				if err != nil {
					return nil, fmt.Errorf("encode: %w", err)
				}
				sealed, err := s.sealer.Seal(string(plain))
				if err != nil {
					return nil, fmt.Errorf("seal approval route webhook %s: %w", w.ID, err)
				}
				if stored.Webhooks == nil {
					stored.Webhooks = map[string]string{}
				}
				stored.Webhooks[w.ID] = sealed
			}
		}
	}
	config, err := json.Marshal(&stored)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return config, nil
}

// openWebhooks fills in t's route webhooks' URLs and secrets from their
// sealed values; a webhook without one keeps neither (its messages are
// not sent).
func (s *Store) openWebhooks(t *gtmgate.Tenant, sealed map[string]string) error {
	if t.Approval == nil {
		return nil
	}
	for i := range t.Approval.Routes {
		for j := range t.Approval.Routes[i].Webhooks {
			w := &t.Approval.Routes[i].Webhooks[j]
			w.URL, w.Secret = "", "" // as decoded: the redacted URL
			v, ok := sealed[w.ID]
			if !ok {
				continue
			}
			plain, err := s.sealer.Open(v)
			if err != nil {
				return fmt.Errorf("open approval route webhook %s: %w", w.ID, err)
			}
			var ws webhookSecrets
			if err := json.Unmarshal([]byte(plain), &ws); err != nil {
				return fmt.Errorf("open approval route webhook %s: %w", w.ID, err)
			}
			w.URL, w.Secret = ws.URL, ws.Secret
		}
	}
	return nil
}
