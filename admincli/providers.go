package admincli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// errCheckFailed is providers check finding an account that cannot work.
var errCheckFailed = errors.New("providers check: at least one account cannot work")

// checkProviders runs POST /admin/providers/check and prints one row per
// account; it fails (exit 5) when any account cannot work.
func (inv *invocation) checkProviders(args []string) error {
	s := newSub("providers check")
	tenant := s.fs.String("tenant", "", "")
	if _, err := s.parse(args); err != nil {
		return err
	}
	path := "/admin/providers/check"
	if *tenant != "" {
		path += "?tenant=" + url.QueryEscape(*tenant)
	}
	b, err := inv.c.do(inv.ctx, "POST", path, nil)
	if err != nil {
		return err
	}
	var rep struct {
		OK       bool             `json:"ok"`
		Accounts []map[string]any `json:"accounts"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("the gateway's answer is not JSON: %w", err)
	}
	if inv.json {
		if err := inv.printJSON(b); err != nil {
			return err
		}
	} else {
		for _, a := range rep.Accounts {
			a["api_version"], a["sunset"] = "", "-"
			if v, ok := a["version"].(map[string]any); ok {
				a["api_version"] = v["version"]
				if s, ok := v["sunset"].(string); ok && len(s) >= len(time.DateOnly) {
					a["sunset"] = s[:len(time.DateOnly)]
				}
			}
		}
		writeTable(inv.opts.Stdout, []column{col("TENANT", "tenant_id"), col("PROVIDER", "provider"), col("ACCOUNT", "account_id"),
			col("OUTCOME", "outcome"), col("VERSION", "api_version"), col("SUNSET", "sunset")}, rep.Accounts)
		if len(rep.Accounts) == 0 {
			fmt.Fprintln(inv.opts.Stderr, "no provider accounts to check")
		}
		// A table cell would cut them: what failed, and what to do, in full.
		for _, a := range rep.Accounts {
			if a["outcome"] == "ok" {
				continue
			}
			fmt.Fprintf(inv.opts.Stdout, "\n%s %s %s: %s: %s\n", a["tenant_id"], a["provider"], a["account_id"], a["outcome"], a["message"])
			if h, _ := a["hint"].(string); h != "" {
				fmt.Fprintf(inv.opts.Stdout, "  hint: %s\n", h)
			}
		}
	}
	if !rep.OK {
		return errCheckFailed
	}
	return nil
}
