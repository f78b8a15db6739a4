package connect

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/bigquery"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/searchconsole"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// userinfoFinder: Gmail and Calendar accounts are the signed-in address
// (the mailbox's userId and the primary calendar's id), from OpenID
// Connect's userinfo endpoint (userinfo_endpoint of
// accounts.google.com/.well-known/openid-configuration), which the
// openid and email scopes admit.
func userinfoFinder(key string) func(context.Context, *run) ([]Account, error) {
	return func(ctx context.Context, r *run) ([]Account, error) {
		if !r.emailRead {
			r.emailRead = true
			r.email, r.emailErr = r.signedIn(ctx)
		}
		if r.emailErr != nil {
			return nil, r.emailErr
		}
		if r.email == "" {
			return nil, nil
		}
		return []Account{{Provider: key, ID: r.email, Name: r.email}}, nil
	}
}

func (r *run) signedIn(ctx context.Context) (string, error) {
	uc, err := r.c.upstreamClient(upstream.Options{Provider: KeyGoogleOpenID, BaseURL: googleOpenIDBase})
	if err != nil {
		return "", err
	}
	var info struct {
		Email    string `json:"email"`
		Verified *bool  `json:"email_verified"`
	}
	if err := get(ctx, uc, "/v1/userinfo", nil, r.token, &info); err != nil {
		return "", fmt.Errorf("google: userinfo: %w", err)
	}
	if info.Verified != nil && !*info.Verified {
		return "", nil
	}
	return info.Email, nil
}

// findGoogleAds lists the customers the signed-in user reaches directly
// (CustomerService.ListAccessibleCustomers), then, for each, its
// customer_client rows one level down (GoogleAdsService.Search with
// login-customer-id set to it): a manager's enabled client accounts come
// with the manager as LoginCustomerID. The query is the one of Google's
// "Get Account Hierarchy" guide
// (developers.google.com/google-ads/api/docs/account-management/get-account-hierarchy).
// A customer directly reachable keeps no LoginCustomerID.
func findGoogleAds(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(googleads.Options(googleads.DefaultBaseURL, r.c.GoogleAdsDeveloperToken, r.c.version(googleads.Provider)))
	if err != nil {
		return nil, err
	}
	version := uc.APIVersion()
	var list struct {
		ResourceNames []string `json:"resourceNames"`
	}
	if err := get(ctx, uc, "/"+version+"/customers:listAccessibleCustomers", nil, r.token, &list); err != nil {
		return nil, fmt.Errorf("google ads: list accessible customers: %w", err)
	}
	var direct, managed []Account
	var firstErr error
	for i, name := range list.ResourceNames {
		id := strings.TrimPrefix(name, "customers/")
		if id == "" || contains(direct, id) {
			continue
		}
		if i >= maxCustomers {
			direct = append(direct, Account{Provider: googleads.Provider, ID: id})
			continue
		}
		rows, err := customerClients(ctx, uc, version, id, r.token)
		if err != nil {
			// A cancelled or suspended customer refuses the search; it is
			// still listed, unnamed, and the others are kept.
			if firstErr == nil {
				firstErr = err
			}
			direct = append(direct, Account{Provider: googleads.Provider, ID: id})
			continue
		}
		self := Account{Provider: googleads.Provider, ID: id}
		isManager := false
		for _, row := range rows {
			cc := row.CustomerClient
			if cc.ID == id || cc.Level == "0" {
				self.Name, isManager = cc.DescriptiveName, cc.Manager
				continue
			}
			if !cc.Manager && cc.ID != "" {
				managed = append(managed, Account{Provider: googleads.Provider, ID: cc.ID, Name: cc.DescriptiveName, LoginCustomerID: id})
			}
		}
		if !isManager {
			direct = append(direct, self)
		}
	}
	out := direct
	for _, a := range managed {
		if !contains(out, a.ID) {
			out = append(out, a)
		}
	}
	if len(out) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// maxCustomers bounds the searches of one discovery; customers past it are
// listed unnamed.
const maxCustomers = 50

// customerClientRow is a googleAds:search result row of the query below
// (int64 fields come as JSON strings, as in every Google Ads REST answer).
type customerClientRow struct {
	CustomerClient struct {
		ID              string `json:"id"`
		DescriptiveName string `json:"descriptiveName"`
		Manager         bool   `json:"manager"`
		Level           string `json:"level"`
	} `json:"customerClient"`
}

const customerClientQuery = "SELECT customer_client.id, customer_client.descriptive_name, customer_client.manager, customer_client.level " +
	"FROM customer_client WHERE customer_client.level <= 1 AND customer_client.status = 'ENABLED'"

func customerClients(ctx context.Context, uc *upstream.Client, version, id string, token gtmgate.TokenSource) ([]customerClientRow, error) {
	h := http.Header{}
	h.Set("login-customer-id", id)
	var out struct {
		Results []customerClientRow `json:"results"`
	}
	req := &upstream.Request{Method: http.MethodPost, Path: "/" + version + "/customers/" + id + "/googleAds:search",
		JSON: map[string]string{"query": customerClientQuery}, Header: h, Token: token}
	if err := uc.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("google ads: customer %s: %w", id, err)
	}
	return out.Results, nil
}

// findGA4 lists the properties of the user's Analytics accounts with the
// Analytics Admin API's accountSummaries.list
// (developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list),
// which analytics.readonly admits. The account id is the property's number.
func findGA4(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(upstream.Options{Provider: KeyGoogleAnalyticsAdmin, BaseURL: analyticsAdminBase})
	if err != nil {
		return nil, err
	}
	var out []Account
	page := ""
	for range maxPages {
		q := map[string][]string{"pageSize": {"200"}}
		if page != "" {
			q["pageToken"] = []string{page}
		}
		var resp struct {
			AccountSummaries []struct {
				DisplayName       string `json:"displayName"`
				PropertySummaries []struct {
					Property    string `json:"property"`
					DisplayName string `json:"displayName"`
				} `json:"propertySummaries"`
			} `json:"accountSummaries"`
			NextPageToken string `json:"nextPageToken"`
		}
		if err := get(ctx, uc, "/v1beta/accountSummaries", q, r.token, &resp); err != nil {
			return nil, fmt.Errorf("ga4: account summaries: %w", err)
		}
		for _, a := range resp.AccountSummaries {
			for _, p := range a.PropertySummaries {
				id := strings.TrimPrefix(p.Property, "properties/")
				if id == "" {
					continue
				}
				name := p.DisplayName
				if a.DisplayName != "" {
					name = a.DisplayName + " / " + name
				}
				out = append(out, Account{Provider: "ga4", ID: id, Name: name})
			}
		}
		if page = resp.NextPageToken; page == "" {
			break
		}
	}
	return out, nil
}

// findSearchConsole lists the sites of sites.list
// (developers.google.com/webmaster-tools/v1/sites/list) the user may read:
// an unverified user's entries are left out.
func findSearchConsole(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(upstream.Options{Provider: searchconsole.Provider, BaseURL: searchconsole.DefaultBaseURL})
	if err != nil {
		return nil, err
	}
	var resp struct {
		SiteEntry []struct {
			SiteURL         string `json:"siteUrl"`
			PermissionLevel string `json:"permissionLevel"`
		} `json:"siteEntry"`
	}
	if err := get(ctx, uc, "/webmasters/"+r.c.version(searchconsole.Provider)+"/sites", nil, r.token, &resp); err != nil {
		return nil, fmt.Errorf("search console: sites: %w", err)
	}
	var out []Account
	for _, s := range resp.SiteEntry {
		if s.PermissionLevel != "siteUnverifiedUser" && s.SiteURL != "" {
			out = append(out, Account{Provider: searchconsole.Provider, ID: s.SiteURL, Name: s.SiteURL})
		}
	}
	return out, nil
}

// findBigQuery lists the projects of projects.list
// (cloud.google.com/bigquery/docs/reference/rest/v2/projects/list).
func findBigQuery(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(bigquery.Options(bigquery.DefaultBaseURL))
	if err != nil {
		return nil, err
	}
	var out []Account
	page := ""
	for range maxPages {
		q := map[string][]string{"maxResults": {"200"}}
		if page != "" {
			q["pageToken"] = []string{page}
		}
		var resp struct {
			Projects []struct {
				ID               string `json:"id"`
				FriendlyName     string `json:"friendlyName"`
				ProjectReference struct {
					ProjectID string `json:"projectId"`
				} `json:"projectReference"`
			} `json:"projects"`
			NextPageToken string `json:"nextPageToken"`
		}
		if err := get(ctx, uc, "/bigquery/"+r.c.version(bigquery.Provider)+"/projects", q, r.token, &resp); err != nil {
			return nil, fmt.Errorf("bigquery: projects: %w", err)
		}
		for _, p := range resp.Projects {
			id := p.ProjectReference.ProjectID
			if id == "" {
				id = p.ID
			}
			if id == "" {
				continue
			}
			out = append(out, Account{Provider: bigquery.Provider, ID: id, Name: p.FriendlyName})
		}
		if page = resp.NextPageToken; page == "" {
			break
		}
	}
	return out, nil
}
