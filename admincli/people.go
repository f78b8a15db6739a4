package admincli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// peopleUsage is the sso, people and roles part of Usage.
const peopleUsage = `  sso list                           the identity providers people sign in through, and the
                                     redirect URI to register at each
  sso get NAME
  sso put NAME --issuer URL --client-id ID [--client-secret-file FILE] [--tenant T]
              [--allowed-domain D]... [--groups-claim C] [--display-name N]
                                     the issuer is discovered before it is stored; --tenant
                                     makes it the tenant's own IdP, which only grants that
                                     tenant's roles. The secret is read from FILE ("-":
                                     stdin), never from a flag; without it, a replace keeps
                                     the stored secret
  sso delete NAME                    with its grants, people and their sessions
  people list                        everyone who has signed in
  people delete PERSON_ID            ends their sessions; their subject grants go too
  roles list [--idp NAME] [--tenant T]
  roles grant --idp NAME (--subject S | --email E | --group G) --role ROLE [--tenant T]
              [--category C]... [--tool T]...
                                     ROLE: admin or viewer without --tenant (operator);
                                     owner, approver, member or viewer with it. --category
                                     and --tool limit an approver
  roles revoke GRANT_ID              sessions lose the role on their next request
`

// sso runs `sso list|get|put|delete`: the identity providers people sign in
// through.
func (inv *invocation) sso(verb string, args []string) error {
	switch verb {
	case "list":
		return inv.listIdPs(args)
	case "get", "delete":
		s := newSub("sso "+verb, "NAME")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		method := "GET"
		if verb == "delete" {
			method = "DELETE"
		}
		return inv.send(method, "/admin/sso/idps/"+url.PathEscape(p[0]), nil)
	case "put":
		return inv.putIdP(args)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("sso "+verb)))
}

// listIdPs prints the IdPs as a table, then the redirect URI to register
// at each.
func (inv *invocation) listIdPs(args []string) error {
	if _, err := newSub("sso list").parse(args); err != nil {
		return err
	}
	return inv.listClients(clientList{path: "/admin/sso/idps", key: "idps", what: "an identity provider list", wideTenant: "(operator)",
		columns: []column{col("NAME", "name"), col("TENANT", "tenant_id"), col("SECRET", "secret"),
			col("UPDATED", "updated_at"), col("ISSUER", "issuer")}, redirectAt: "at each identity provider"})
}

// putIdP creates or replaces an IdP. The client secret is read from a file
// or stdin, never taken from the command line, where it would stay in the
// shell's history and show in the process list.
func (inv *invocation) putIdP(args []string) error {
	s := newSub("sso put", "NAME")
	issuer := s.fs.String("issuer", "", "")
	clientID := s.fs.String("client-id", "", "")
	secretFile := s.fs.String("client-secret-file", "", "")
	tenant := s.fs.String("tenant", "", "")
	groupsClaim := s.fs.String("groups-claim", "", "")
	displayName := s.fs.String("display-name", "", "")
	domains := &listFlag{split: true}
	s.fs.Var(domains, "allowed-domain", "")
	// Defined only to explain its refusal, without echoing the value.
	onCommandLine := s.fs.String("client-secret", "", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	secret, err := inv.clientSecret("sso put", *secretFile, *onCommandLine)
	switch {
	case err != nil:
		return err
	case *issuer == "":
		return usageError("sso put needs --issuer")
	case *clientID == "":
		return usageError("sso put needs --client-id")
	}
	body := map[string]any{"issuer": *issuer, "client_id": *clientID}
	if secret != "" {
		body["client_secret"] = secret
	}
	for k, v := range map[string]string{"tenant_id": *tenant, "groups_claim": *groupsClaim, "display_name": *displayName} {
		if v != "" {
			body[k] = v
		}
	}
	if len(domains.items) > 0 {
		body["allowed_domains"] = domains.items
	}
	return inv.send("PUT", "/admin/sso/idps/"+url.PathEscape(p[0]), body)
}

// people runs `people list|delete`: everyone who has signed in.
func (inv *invocation) people(verb string, args []string) error {
	switch verb {
	case "list":
		if _, err := newSub("people list").parse(args); err != nil {
			return err
		}
		return inv.show("/admin/people", "people", []column{col("ID", "id"), col("IDP", "idp"), col("LAST SEEN", "last_seen_at"),
			col("EMAIL", "email"), col("NAME", "name")})
	case "delete":
		s := newSub("people delete", "PERSON_ID")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		return inv.send("DELETE", "/admin/people/"+url.PathEscape(p[0]), nil)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("people "+verb)))
}

// roles runs `roles list|grant|revoke`: the grants that give people roles.
func (inv *invocation) roles(verb string, args []string) error {
	switch verb {
	case "list":
		return inv.listGrants(args)
	case "grant":
		return inv.grantRole(args)
	case "revoke":
		s := newSub("roles revoke", "GRANT_ID")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		return inv.send("DELETE", "/admin/role-grants/"+url.PathEscape(p[0]), nil)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("roles "+verb)))
}

// listGrants prints the grants as a table: an operator role's tenant as
// "(operator)", an approver's limits in one column.
func (inv *invocation) listGrants(args []string) error {
	s := newSub("roles list")
	q := queryFlags(s, "idp", "tenant")
	if _, err := s.parse(args); err != nil {
		return err
	}
	b, err := inv.c.do(inv.ctx, "GET", "/admin/role-grants"+q(), nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page struct {
		Grants []struct {
			ID         string   `json:"id"`
			IdP        string   `json:"idp"`
			Kind       string   `json:"kind"`
			Match      string   `json:"match"`
			Role       string   `json:"role"`
			TenantID   string   `json:"tenant_id"`
			Categories []string `json:"categories"`
			Tools      []string `json:"tools"`
		} `json:"grants"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not a role grant list: %w", err)
	}
	items := make([]map[string]any, 0, len(page.Grants))
	for _, g := range page.Grants {
		tenant := g.TenantID
		if tenant == "" {
			tenant = "(operator)"
		}
		items = append(items, map[string]any{"id": g.ID, "idp": g.IdP, "role": g.Role, "tenant": tenant,
			"who": g.Kind + " " + g.Match, "limits": strings.Join(append(g.Categories, g.Tools...), " ")})
	}
	writeTable(inv.opts.Stdout, []column{col("ID", "id"), col("IDP", "idp"), col("ROLE", "role"), col("TENANT", "tenant"),
		col("MATCHES", "who"), col("LIMITS", "limits")}, items)
	return nil
}

// grantRole creates a grant matching exactly one of a subject, an email
// or a group.
func (inv *invocation) grantRole(args []string) error {
	s := newSub("roles grant")
	idp := s.fs.String("idp", "", "")
	role := s.fs.String("role", "", "")
	tenant := s.fs.String("tenant", "", "")
	matches := map[string]*string{}
	for _, kind := range []string{"subject", "email", "group"} {
		matches[kind] = s.fs.String(kind, "", "")
	}
	cats, tools := &listFlag{split: true}, &listFlag{split: true}
	s.fs.Var(cats, "category", "")
	s.fs.Var(tools, "tool", "")
	if _, err := s.parse(args); err != nil {
		return err
	}
	var kind, match string
	for k, v := range matches {
		if *v == "" {
			continue
		}
		if kind != "" {
			return usageError("roles grant takes one of --subject, --email or --group")
		}
		kind, match = k, *v
	}
	switch {
	case *idp == "":
		return usageError("roles grant needs --idp")
	case kind == "":
		return usageError("roles grant needs one of --subject, --email or --group")
	case *role == "":
		return usageError("roles grant needs --role")
	}
	body := map[string]any{"idp": *idp, "kind": kind, "match": match, "role": *role}
	if *tenant != "" {
		body["tenant_id"] = *tenant
	}
	if len(cats.items) > 0 {
		body["categories"] = cats.items
	}
	if len(tools.items) > 0 {
		body["tools"] = tools.items
	}
	return inv.send("POST", "/admin/role-grants", body)
}
