package admincli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
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
			if v, ok := a["version"].(map[string]any); ok {
				a["api_version"] = v["version"]
				a["sunset"] = v["sunset"]
				if a["sunset"] == nil {
					a["sunset"] = "none announced"
				}
			}
		}
		writeTable(inv.opts.Stdout, []column{col("TENANT", "tenant_id"), col("PROVIDER", "provider"), col("ACCOUNT", "account_id"),
			col("OUTCOME", "outcome"), col("VERSION", "api_version"), col("SUNSET", "sunset"), col("MESSAGE", "message")}, rep.Accounts)
		if len(rep.Accounts) == 0 {
			fmt.Fprintln(inv.opts.Stderr, "no provider accounts to check")
		}
	}
	if !rep.OK {
		return errCheckFailed
	}
	return nil
}
