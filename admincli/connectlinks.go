package admincli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"
)

// connectLink runs `connect-link TENANT PROVIDER`: it creates a connect
// link and prints its URL (the whole answer with --output json). The URL
// holds the link's secret and is shown only this once.
func (inv *invocation) connectLink(args []string) error {
	s := newSub("connect-link", "TENANT", "PROVIDER")
	hint := s.fs.String("hint", "", "")
	expires := s.fs.Duration("expires", 0, "")
	readOnly := s.fs.Bool("read-only", false, "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	body := map[string]any{"provider": p[1]}
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
	b, err := inv.c.do(inv.ctx, "POST", "/admin/tenants/"+url.PathEscape(p[0])+"/connect-links", body)
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
