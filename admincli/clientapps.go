package admincli

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The OAuth apps and the identity providers are both the operator's
// clients at someone else's authorization server: listed with the
// redirect URI to register there, their secret read from a file.

// clientList describes a list of such clients for listClients.
type clientList struct {
	path, key  string // the admin route and its list's field
	what       string // in the error when the answer is not a list
	wideTenant string // shown for a client of no tenant
	columns    []column
	redirectAt string // where the redirect URI is registered
}

// listClients prints the clients as a table, then the redirect URI.
func (inv *invocation) listClients(l clientList) error {
	b, err := inv.c.do(inv.ctx, "GET", l.path, nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page map[string]json.RawMessage
	var rows []map[string]any
	var redirect string
	if err := json.Unmarshal(b, &page); err == nil {
		err = json.Unmarshal(page[l.key], &rows)
		if err == nil {
			err = json.Unmarshal(page["redirect_uri"], &redirect)
		}
	}
	if err != nil {
		return fmt.Errorf("the gateway's answer is not %s: %w", l.what, err)
	}
	for _, row := range rows {
		if row["tenant_id"] == nil {
			row["tenant_id"] = l.wideTenant
		}
		row["secret"] = "none"
		if row["has_client_secret"] == true {
			row["secret"] = "sealed"
		}
	}
	writeTable(inv.opts.Stdout, l.columns, rows)
	fmt.Fprintf(inv.opts.Stdout, "\nredirect URI to register %s: %s\n", l.redirectAt, redirect)
	return nil
}

// clientSecret reads a client secret for cmd from --client-secret-file
// (file, or "-" for stdin); "" when none was given. A secret passed as
// --client-secret is refused: it would stay in the shell's history and
// show in the process list.
func (inv *invocation) clientSecret(cmd, file, onCommandLine string) (string, error) {
	if onCommandLine != "" {
		return "", usageError(cmd + " reads the secret from --client-secret-file FILE (\"-\": stdin), not --client-secret: " +
			"a secret on the command line stays in the shell's history and shows in the process list")
	}
	if file == "" {
		return "", nil
	}
	b, err := inv.readInput(file)
	if err != nil {
		return "", inputError(cmd + ": --client-secret-file: " + err.Error())
	}
	secret := strings.TrimSpace(string(b))
	if secret == "" {
		return "", inputError(cmd + ": --client-secret-file: it is empty")
	}
	return secret, nil
}
