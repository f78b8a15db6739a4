package admincli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// adminKeysUsage is the admin-keys part of Usage.
const adminKeysUsage = `  admin-keys list                    named admin keys: status, expiry, scopes, tenants
  admin-keys create --name N --scope S [--scope S]... [--tenant T]... [--expires-in 720h]
                    [--owner O]      S: read, approve or write; --tenant limits the key to
                                     those tenants; no --expires-in: until revoked. Prints
                                     the key once: only its hash is kept
  admin-keys revoke KEY_ID           refused from its next request on
`

// adminKeys runs `admin-keys list|create|revoke`: the named admin API keys
// of people and automations.
func (inv *invocation) adminKeys(verb string, args []string) error {
	switch verb {
	case "list":
		return inv.listAdminKeys(args)
	case "create":
		return inv.createAdminKey(args)
	case "revoke":
		s := newSub("admin-keys revoke", "KEY_ID")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		return inv.send("DELETE", "/admin/admin-keys/"+url.PathEscape(p[0]), nil)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("admin-keys "+verb)))
}

// adminKeyOut is a key as the gateway answers it, what the CLI prints of it.
type adminKeyOut struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Prefix    string   `json:"prefix"`
	Status    string   `json:"status"`
	Scopes    []string `json:"scopes"`
	Tenants   []string `json:"tenants"`
	ExpiresAt string   `json:"expires_at"`
	Key       string   `json:"key"`
}

// tenantsOf shows a key's tenants, "(all)" for a key limited to none.
func (k adminKeyOut) tenantsOf() string {
	if len(k.Tenants) == 0 {
		return "(all)"
	}
	return strings.Join(k.Tenants, ",")
}

// expiresOn is the day (UTC) the key expires, "" for never.
func (k adminKeyOut) expiresOn() string {
	if t, err := time.Parse(time.RFC3339Nano, k.ExpiresAt); err == nil {
		return t.UTC().Format("2006-01-02")
	}
	return ""
}

// listAdminKeys prints the keys as a table: ids and expiries whole, scopes
// and tenants each in one column.
func (inv *invocation) listAdminKeys(args []string) error {
	if _, err := newSub("admin-keys list").parse(args); err != nil {
		return err
	}
	b, err := inv.c.do(inv.ctx, "GET", "/admin/admin-keys", nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page struct {
		AdminKeys []adminKeyOut `json:"admin_keys"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not an admin key list: %w", err)
	}
	items := make([]map[string]any, 0, len(page.AdminKeys))
	for _, k := range page.AdminKeys {
		items = append(items, map[string]any{"id": k.ID, "status": k.Status, "expires": k.expiresOn(),
			"scopes": strings.Join(k.Scopes, ","), "tenants": k.tenantsOf(), "name": k.Name})
	}
	// The expiry's day leaves the line room for the scopes; --output json
	// has the time.
	writeTable(inv.opts.Stdout, []column{col("ID", "id"), col("STATUS", "status"), {"EXPIRES", "expires", len("2006-01-02")},
		col("SCOPES", "scopes"), col("TENANTS", "tenants"), col("NAME", "name")}, items)
	return nil
}

// createAdminKey creates a key and prints it, the one time it can be read.
func (inv *invocation) createAdminKey(args []string) error {
	s := newSub("admin-keys create")
	name := s.fs.String("name", "", "")
	owner := s.fs.String("owner", "", "")
	expiresIn := s.fs.String("expires-in", "", "")
	scopes, tenants := &listFlag{split: true}, &listFlag{split: true}
	s.fs.Var(scopes, "scope", "")
	s.fs.Var(tenants, "tenant", "")
	if _, err := s.parse(args); err != nil {
		return err
	}
	switch {
	case *name == "":
		return usageError("admin-keys create needs --name")
	case len(scopes.items) == 0:
		return usageError("admin-keys create needs --scope (read, approve or write; repeat it for more)")
	}
	body := map[string]any{"name": *name, "scopes": scopes.items}
	if len(tenants.items) > 0 {
		body["tenants"] = tenants.items
	}
	for k, v := range map[string]string{"owner": *owner, "expires_in": *expiresIn} {
		if v != "" {
			body[k] = v
		}
	}
	b, err := inv.c.do(inv.ctx, "POST", "/admin/admin-keys", body)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var k adminKeyOut
	if err := json.Unmarshal(b, &k); err != nil || k.Key == "" {
		return fmt.Errorf("the gateway's answer holds no admin key: %v", errOrEmpty(err))
	}
	expires := "never (until revoked)"
	if k.ExpiresAt != "" {
		expires = cell(k.ExpiresAt) + " UTC"
	}
	fmt.Fprintf(inv.opts.Stdout, "admin key %s\nid %s, name %s, scopes %s, tenants %s, expires %s\n"+
		"It is shown once; only its hash is kept. Store it now; if it is lost, revoke it and create another.\n",
		k.Key, k.ID, k.Name, strings.Join(k.Scopes, ","), k.tenantsOf(), expires)
	return nil
}
