package admincli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/gtmgate/gtmgate/connect"
)

// connectLink runs `connect-link TENANT PROVIDER`: it creates a connect
// link and prints its URL (the whole answer with --output json). The URL
// holds the link's secret and is shown only this once. PROVIDER is a
// family (google) or one product (google_ads); --product narrows a family
// to some of its products.
func (inv *invocation) connectLink(args []string) error {
	s := newSub("connect-link", "TENANT", "PROVIDER")
	hint := s.fs.String("hint", "", "")
	expires := s.fs.Duration("expires", 0, "")
	readOnly := s.fs.Bool("read-only", false, "")
	person := s.fs.String("person", "", "")
	products := &listFlag{split: true}
	s.fs.Var(products, "product", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	body := map[string]any{"provider": p[1]}
	if len(products.items) > 0 {
		body["products"] = products.items
	}
	if *hint != "" {
		body["account_hint"] = *hint
	}
	if *expires != 0 {
		if *expires < time.Second {
			return usageError("connect-link: --expires must be a duration such as 15m or 24h")
		}
		body["expires_in"] = int64(*expires / time.Second)
	}
	if *readOnly {
		body["read_only"] = true
	}
	if *person != "" {
		body["person"] = *person
	}
	return inv.createConnectLink(p[0], body)
}

// reauth runs `reauth [--tenant T]`: the accounts to connect again.
func (inv *invocation) reauth(args []string) error {
	s := newSub("reauth")
	q := queryFlags(s, "tenant")
	if _, err := s.parse(args); err != nil {
		return err
	}
	return inv.show("/admin/reauth"+q(), "accounts", []column{col("TENANT", "tenant_id"), col("PROVIDER", "provider"),
		col("ACCOUNT", "account_id"), col("KIND", "kind"), col("REASON", "reason")})
}

// reconnect runs `reconnect TENANT PROVIDER_KEY ACCOUNT`: a connect link
// for the account's connect family (google_ads → google, meta_ads → meta)
// hinted at the account, so that its owner connects it again.
func (inv *invocation) reconnect(args []string) error {
	s := newSub("reconnect", "TENANT", "PROVIDER_KEY", "ACCOUNT")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	family, ok := connect.Family(p[1])
	if !ok {
		return usageError(fmt.Sprintf("reconnect: no connect flow covers provider %q", p[1]))
	}
	return inv.createConnectLink(p[0], map[string]any{"provider": family.Name, "account_hint": p[2]})
}

// createConnectLink creates a tenant's connect link and prints its URL.
func (inv *invocation) createConnectLink(tenant string, body map[string]any) error {
	b, err := inv.c.do(inv.ctx, "POST", "/admin/tenants/"+url.PathEscape(tenant)+"/connect-links", body)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var link struct {
		URL       string `json:"url"`
		ExpiresAt string `json:"expires_at"`
	}
	if err := json.Unmarshal(b, &link); err != nil || link.URL == "" {
		return fmt.Errorf("the gateway's answer is not a connect link")
	}
	fmt.Fprintln(inv.opts.Stdout, link.URL)
	fmt.Fprintf(inv.opts.Stderr, "single use; expires %s; send it to the account's owner\n", link.ExpiresAt)
	return nil
}
