package connectflow

import (
	"context"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/refresh"
)

// complete stores the chosen accounts and finishes the link (from
// choosing, which the callback has claimed).
func (f *Flow) complete(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink, t *gtmgate.Tenant, app *gtmgate.OAuthApp, h *held, chosen []connect.Account) {
	p, _ := connect.Lookup(l.Provider)
	if err := f.save(r.Context(), t.ID, l.Person, app, h, chosen); err != nil {
		f.opts.Logger.Error("connect flow: store accounts", "err", err, "link", l.ID)
		status := http.StatusInternalServerError
		if gtmgate.ErrorCode(err) == gtmgate.EConflict {
			status = http.StatusConflict
		}
		f.fail(w, r, l, gtmgate.ConnectChoosing, status, "Not connected",
			"the accounts could not be stored: "+gtmgate.AsError(err).Message)
		return
	}
	var lines []string
	for _, a := range chosen {
		s := noun(a.Provider) + " " + a.ID
		if a.Name != "" && a.Name != a.ID {
			s += " (" + a.Name + ")"
		}
		lines = append(lines, s)
	}
	now := f.now()
	l.Status, l.Secret, l.FinishedAt, l.Result = gtmgate.ConnectCompleted, "", &now, "connected "+strings.Join(lines, ", ")
	if !f.claim(w, r, gtmgate.ConnectChoosing, l, http.StatusConflict, alreadyUsed) {
		return
	}
	f.audit(r, l, "connect.completed", gtmgate.OutcomeOK, http.StatusOK, l.Result)
	f.forget(w, l)
	f.render(w, http.StatusOK, "done", page{Title: p.LinkTitle(l.Products) + " connected", Provider: p.LinkTitle(l.Products), TenantID: t.ID, TenantName: t.Name, Connected: lines})
}

// save adds the accounts to the tenant's configuration (one PutTenant),
// stores the access token of each, and seeds the refresher where the grant
// has a refresh token. A link for a person connects that person's own
// accounts: it never takes over an account the tenant shares or another
// person owns (their agents would lose it, or reach this person's token)
// (an operator's calls may default to it; agents of nobody skip it).
func (f *Flow) save(ctx context.Context, tenantID, person string, app *gtmgate.OAuthApp, h *held, chosen []connect.Account) error {
	t, err := f.opts.Store.GetTenant(ctx, tenantID)
	if err != nil {
		return err
	}
	if t.Providers == nil {
		t.Providers = map[string]gtmgate.ProviderAccounts{}
	}
	for _, a := range chosen {
		pa := t.Providers[a.Provider]
		found := false
		for i := range pa.Accounts {
			if pa.Accounts[i].ID == a.ID {
				if owner := pa.Accounts[i].Person; owner != person {
					return ownedElsewhere(a, owner, person)
				}
				found = true
				if a.LoginCustomerID != "" {
					pa.Accounts[i].LoginCustomerID = a.LoginCustomerID
				}
			}
		}
		if !found {
			label := a.Name
			if label == "" {
				label = a.ID
			}
			pa.Accounts = append(pa.Accounts, gtmgate.Account{ID: a.ID, Label: label, LoginCustomerID: a.LoginCustomerID, Person: person})
		}
		if pa.Default == "" {
			pa.Default = a.ID
		}
		t.Providers[a.Provider] = pa
	}
	if _, err := f.opts.Store.PutTenant(ctx, t); err != nil {
		return err
	}
	now := f.now()
	for _, a := range chosen {
		tok := &gtmgate.ProviderToken{TenantID: tenantID, Provider: a.Provider, AccountID: a.ID, AccessToken: h.AccessToken,
			TokenType: "Bearer", ExpiresAt: h.ExpiresAt, UpdatedAt: now}
		if err := f.opts.Store.PutProviderToken(ctx, tok); err != nil {
			return err
		}
		if h.RefreshToken == "" {
			continue
		}
		if _, err := f.opts.Seeder.Seed(ctx, refresh.SeedRecord{TenantID: tenantID, Provider: a.Provider, AccountID: a.ID,
			ClientID: app.ClientID, ClientSecret: app.ClientSecret, TokenEndpoint: h.TokenEndpoint, RefreshToken: h.RefreshToken}); err != nil {
			return err
		}
	}
	return nil
}

// ownedElsewhere refuses to connect account a for person (or, "", for the
// tenant) when it is already the tenant's shared account or owner's own.
func ownedElsewhere(a connect.Account, owner, person string) error {
	var err *gtmgate.Error
	switch {
	case owner == "":
		err = gtmgate.Errorf(gtmgate.EConflict, "%s %s is already the tenant's shared account, so it cannot become one person's own", noun(a.Provider), a.ID)
	case person == "":
		err = gtmgate.Errorf(gtmgate.EConflict, "%s %s is already one person's own account, so it cannot become the tenant's shared one", noun(a.Provider), a.ID)
	default:
		err = gtmgate.Errorf(gtmgate.EConflict, "%s %s is already another person's own account", noun(a.Provider), a.ID)
	}
	return err.WithHint("an operator changes who owns an account in the tenant's configuration (providers." + a.Provider + ".accounts[].person)")
}

// noun names one account of a provider key for a person.
func noun(key string) string {
	if n, ok := nouns[key]; ok {
		return n
	}
	return key + " account"
}

var nouns = map[string]string{
	"google_ads": "Google Ads customer", "ga4": "GA4 property", "search_console": "Search Console site",
	"gmail": "Gmail mailbox", "google_calendar": "Google Calendar", "bigquery": "BigQuery project",
	"sheets": "Google Sheets access", "hubspot": "HubSpot portal", "meta_ads": "Meta ad account",
	"linkedin_ads": "LinkedIn ad account",
}

// plural names several accounts: "GA4 properties".
func plural(n string) string {
	switch {
	case strings.HasSuffix(n, "erty"):
		return strings.TrimSuffix(n, "y") + "ies"
	case strings.HasSuffix(n, "Calendar"), strings.HasSuffix(n, "access"):
		return n
	}
	return n + "s"
}
