package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/gtmgate/gtmgate"
)

var _ gtmgate.MCPServerStore = (*Store)(nil)

// A tenant's upstream MCP server is stored as its key and URL, the JSON of
// the rest of its configuration but the secret (config), the secret sealed
// (secret, '' when none), and the JSON of what discovery last found (state),
// which only SaveMCPServerState writes.

const mcpServerCols = "tenant_id, name, url, config, secret, state, created_at, updated_at, accepted"

// mcpServerConfig is the config column: an MCPServer's configuration but
// its key, URL, times, state and secret (MCPServerAuth.Secret is never
// encoded).
type mcpServerConfig struct {
	Auth      gtmgate.MCPServerAuth              `json:"auth"`
	Tools     []string                           `json:"tools,omitempty"`
	Overrides map[string]gtmgate.MCPToolOverride `json:"overrides,omitempty"`
	// AutoAcceptChanges is MCPServer.AutoAcceptChanges.
	AutoAcceptChanges bool `json:"auto_accept_changes,omitempty"`
}

// PutMCPServer creates or replaces the configuration of (m.TenantID,
// m.Name), its secret sealed, and reports whether it created it. It never
// writes the state: a new server has none, a replaced one keeps what
// discovery found. It sets m.UpdatedAt to now, m.CreatedAt to the stored
// creation time and m.State to the stored state, so that m reads back as
// GetMCPServer returns it. It returns ErrNotFound when m.TenantID names a
// tenant that does not exist.
func (s *Store) PutMCPServer(ctx context.Context, m *gtmgate.MCPServer) (bool, error) {
	if m.TenantID == "" || m.Name == "" {
		return false, fmt.Errorf("%s: put mcp server: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "tenant id and name are required"))
	}
	config, err := json.Marshal(mcpServerConfig{Auth: m.Auth, Tools: m.Tools, Overrides: m.Overrides, AutoAcceptChanges: m.AutoAcceptChanges})
	if err != nil {
		return false, fmt.Errorf("%s: put mcp server: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "mcp server configuration cannot be encoded: %v", err))
	}
	now := s.now()
	created := false
	err = s.inTx(ctx, "put mcp server", func(tx *sql.Tx) error {
		sealed, err := s.sealOptional(m.Auth.Secret)
		if err != nil {
			return err
		}
		// The tenant's foreign key makes an unknown tenant ErrNotFound.
		// A new server starts pinned with nothing accepted ('{}').
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO mcp_servers (tenant_id, name, url, config, secret, created_at, updated_at, accepted)
			VALUES (?, ?, ?, ?, ?, ?, ?, '{}') ON CONFLICT (tenant_id, name) DO NOTHING`),
			m.TenantID, m.Name, m.URL, string(config), sealed, s.t(now), s.t(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			created = true
			m.CreatedAt, m.UpdatedAt, m.State, m.Accepted = now, now, gtmgate.MCPServerState{}, map[string]gtmgate.MCPAcceptedTool{}
			return nil
		}
		var (
			cp              = *m
			state, accepted []byte
		)
		err = tx.QueryRowContext(ctx, s.q(`UPDATE mcp_servers SET url = ?, config = ?, secret = ?, updated_at = ?
			WHERE tenant_id = ? AND name = ? RETURNING created_at, state, accepted`),
			m.URL, string(config), sealed, s.t(now), m.TenantID, m.Name).Scan(timeCol{&cp.CreatedAt}, &state, &accepted)
		if err != nil {
			return err
		}
		if cp.State, err = decodeMCPServerState(state); err != nil {
			return fmt.Errorf("state of mcp server %q/%s: %w", m.TenantID, m.Name, err)
		}
		if m.Accepted, err = decodeMCPAccepted(accepted); err != nil {
			return fmt.Errorf("accepted tools of mcp server %q/%s: %w", m.TenantID, m.Name, err)
		}
		m.CreatedAt, m.UpdatedAt, m.State = cp.CreatedAt, now, cp.State
		return nil
	})
	return created, err
}

// GetMCPServer returns the server of (tenantID, name), its secret opened and
// its state decoded, or ErrNotFound.
func (s *Store) GetMCPServer(ctx context.Context, tenantID, name string) (*gtmgate.MCPServer, error) {
	row := s.read.QueryRowContext(ctx, s.q("SELECT "+mcpServerCols+" FROM mcp_servers WHERE tenant_id = ? AND name = ?"),
		tenantID, name)
	m, err := s.scanMCPServer(row)
	if err != nil {
		return nil, s.fail("get mcp server", err)
	}
	return m, nil
}

// ListMCPServers returns a tenant's servers by name, or every tenant's by
// tenant and name when tenantID is "", secrets opened. A tenant without
// servers (or an unknown one) has an empty list.
func (s *Store) ListMCPServers(ctx context.Context, tenantID string) ([]*gtmgate.MCPServer, error) {
	var (
		rows *sql.Rows
		err  error
	)
	if tenantID == "" {
		rows, err = s.read.QueryContext(ctx, s.q("SELECT "+mcpServerCols+" FROM mcp_servers ORDER BY tenant_id, name"))
	} else {
		rows, err = s.read.QueryContext(ctx, s.q("SELECT "+mcpServerCols+" FROM mcp_servers WHERE tenant_id = ? ORDER BY name"), tenantID)
	}
	if err != nil {
		return nil, s.fail("list mcp servers", err)
	}
	defer rows.Close()
	ms := []*gtmgate.MCPServer{}
	for rows.Next() {
		m, err := s.scanMCPServer(rows)
		if err != nil {
			return nil, s.fail("list mcp servers", err)
		}
		ms = append(ms, m)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list mcp servers", err)
	}
	return ms, nil
}

// DeleteMCPServer deletes the server of (tenantID, name), its state with
// it; ErrNotFound when there is none.
func (s *Store) DeleteMCPServer(ctx context.Context, tenantID, name string) error {
	return s.execExisting(ctx, "delete mcp server", "DELETE FROM mcp_servers WHERE tenant_id = ? AND name = ?", tenantID, name)
}

// SaveMCPServerState replaces the state of (tenantID, name), touching
// nothing else (not even updated_at, which dates the configuration);
// ErrNotFound when there is no such server.
func (s *Store) SaveMCPServerState(ctx context.Context, tenantID, name string, st gtmgate.MCPServerState) error {
	state, err := json.Marshal(st)
	if err != nil {
		// Tools that are not JSON: the caller's mistake, not the store's.
		return fmt.Errorf("%s: save mcp server state: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "mcp server state cannot be encoded: %v", err))
	}
	return s.execExisting(ctx, "save mcp server state", "UPDATE mcp_servers SET state = ? WHERE tenant_id = ? AND name = ?",
		string(state), tenantID, name)
}

func (s *Store) scanMCPServer(r scanner) (*gtmgate.MCPServer, error) {
	var (
		m                       gtmgate.MCPServer
		config, state, accepted []byte
		sealed                  string
	)
	err := r.Scan(&m.TenantID, &m.Name, &m.URL, &config, &sealed, &state, timeCol{&m.CreatedAt}, timeCol{&m.UpdatedAt}, &accepted)
	if err != nil {
		return nil, err
	}
	var c mcpServerConfig
	if err := json.Unmarshal(config, &c); err != nil {
		return nil, fmt.Errorf("config of mcp server %q/%s: %w", m.TenantID, m.Name, err)
	}
	m.Auth, m.Tools, m.Overrides, m.AutoAcceptChanges = c.Auth, c.Tools, c.Overrides, c.AutoAcceptChanges
	if m.Auth.Secret, err = s.openOptional(sealed); err != nil {
		return nil, fmt.Errorf("secret of mcp server %q/%s: %w", m.TenantID, m.Name, err)
	}
	if m.State, err = decodeMCPServerState(state); err != nil {
		return nil, fmt.Errorf("state of mcp server %q/%s: %w", m.TenantID, m.Name, err)
	}
	if m.Accepted, err = decodeMCPAccepted(accepted); err != nil {
		return nil, fmt.Errorf("accepted tools of mcp server %q/%s: %w", m.TenantID, m.Name, err)
	}
	return &m, nil
}

// decodeMCPServerState reads the state column; empty is no state.
func decodeMCPServerState(v []byte) (gtmgate.MCPServerState, error) {
	var st gtmgate.MCPServerState
	if len(v) == 0 {
		return st, nil
	}
	err := json.Unmarshal(v, &st)
	return st, err
}

// AcceptMCPTools merges tools into the accepted definitions of (tenantID,
// name) under the row's lock: an entry replaces that tool's (By set to by,
// At to now), a nil entry removes it. The configuration, its updated_at and
// the state are untouched. ErrNotFound when there is no such server.
func (s *Store) AcceptMCPTools(ctx context.Context, tenantID, name string, tools map[string]*gtmgate.MCPAcceptedTool, by string) error {
	now := s.now()
	return s.inTx(ctx, "accept mcp tools", func(tx *sql.Tx) error {
		var raw []byte
		err := tx.QueryRowContext(ctx, s.q("SELECT accepted FROM mcp_servers WHERE tenant_id = ? AND name = ?"+s.d.ForUpdate()),
			tenantID, name).Scan(&raw)
		if err != nil {
			return err
		}
		accepted, err := decodeMCPAccepted(raw)
		if err != nil {
			return fmt.Errorf("accepted tools of mcp server %q/%s: %w", tenantID, name, err)
		}
		if accepted == nil {
			accepted = map[string]gtmgate.MCPAcceptedTool{}
		}
		for tool, a := range tools {
			if a == nil {
				delete(accepted, tool)
				continue
			}
			e := *a
			e.By, e.At = by, now
			accepted[tool] = e
		}
		body, err := json.Marshal(accepted)
		if err != nil {
			return gtmgate.Errorf(gtmgate.EValidation, "accepted tools cannot be encoded: %v", err)
		}
		_, err = tx.ExecContext(ctx, s.q("UPDATE mcp_servers SET accepted = ? WHERE tenant_id = ? AND name = ?"),
			string(body), tenantID, name)
		return err
	})
}

// decodeMCPAccepted reads the accepted column: NULL (a server that predates
// pinning) is nil, '{}' an empty map.
func decodeMCPAccepted(v []byte) (map[string]gtmgate.MCPAcceptedTool, error) {
	if len(v) == 0 {
		return nil, nil
	}
	accepted := map[string]gtmgate.MCPAcceptedTool{}
	err := json.Unmarshal(v, &accepted)
	return accepted, err
}
