package connect

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// findHubSpot reads the portal (hub_id) the token belongs to from
// GET /oauth/v1/access-tokens/{token} (AccessTokenInfoResponse of
// HubSpot-public-api-spec-collection PublicApiSpecs/Auth/Oauth/Rollouts/155908/v1/oauth.json
// at 000ca44b4852a2a33857d28a8a7ccf37d4762ad7: hub_id, hub_domain), the
// endpoint the adapter's scope check already reads; it takes no credential
// but the token in its path, which errors redact.
func findHubSpot(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(hubspot.Options(hubspot.DefaultBaseURL, r.c.version(hubspot.Provider)))
	if err != nil {
		return nil, err
	}
	token, err := r.token.Token(ctx)
	if err != nil {
		return nil, err
	}
	escaped := url.PathEscape(token)
	var info struct {
		HubID     int64  `json:"hub_id"`
		HubDomain string `json:"hub_domain"`
	}
	req := &upstream.Request{Method: http.MethodGet, Path: "/oauth/v1/access-tokens/" + escaped, Secrets: []string{token, escaped}}
	if err := uc.Do(ctx, req, &info); err != nil {
		return nil, fmt.Errorf("hubspot: access token information: %w", err)
	}
	if info.HubID == 0 {
		return nil, nil
	}
	return []Account{{Provider: hubspot.Provider, ID: strconv.FormatInt(info.HubID, 10), Name: info.HubDomain}}, nil
}

// findMeta lists the ad accounts of the user, GET /{version}/me/adaccounts
// (Marketing API, "Ad Account" reference; AdAccount fields id "act_…",
// account_id, name in facebook-java-business-sdk v26.0.0 AdAccount.java),
// paged with the after cursor (the next URL would repeat the token).
func findMeta(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(metaads.Options(metaads.DefaultBaseURL, r.c.version(metaads.Provider)))
	if err != nil {
		return nil, err
	}
	var out []Account
	after := ""
	for range maxPages {
		q := url.Values{"fields": {"account_id,name"}, "limit": {"100"}}
		if after != "" {
			q.Set("after", after)
		}
		var resp struct {
			Data []struct {
				ID        string `json:"id"`
				AccountID string `json:"account_id"`
				Name      string `json:"name"`
			} `json:"data"`
			Paging struct {
				Cursors struct {
					After string `json:"after"`
				} `json:"cursors"`
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := get(ctx, uc, "/"+uc.APIVersion()+"/me/adaccounts", q, r.token, &resp); err != nil {
			return nil, fmt.Errorf("meta ads: me/adaccounts: %w", err)
		}
		for _, a := range resp.Data {
			id := a.ID
			if id == "" {
				id = a.AccountID
			}
			if id == "" || id == "act_" {
				continue
			}
			out = append(out, Account{Provider: metaads.Provider, ID: metaads.AccountID(id), Name: a.Name})
		}
		if resp.Paging.Next == "" || resp.Paging.Cursors.After == "" {
			break
		}
		after = resp.Paging.Cursors.After
	}
	return out, nil
}

// findLinkedIn lists the ad accounts the member can reach with the
// Marketing API's adAccounts search (GET /rest/adAccounts?q=search,
// learn.microsoft.com/en-us/linkedin/marketing/integrations/ads/account-structure/create-and-manage-accounts,
// "Search for Accounts"), with the LinkedIn-Version and Rest.li protocol
// headers of the adapter's options, paged by pageSize and pageToken
// (metadata.nextPageToken; "Cursor Based Pagination For Search APIs",
// learn.microsoft.com/en-us/linkedin/marketing/integrations/ads/cursor-based-pagination,
// from 202401 on).
func findLinkedIn(ctx context.Context, r *run) ([]Account, error) {
	uc, err := r.c.upstreamClient(linkedinads.Options(linkedinads.DefaultBaseURL, r.c.version(linkedinads.Provider)))
	if err != nil {
		return nil, err
	}
	var out []Account
	page := ""
	for range maxPages {
		q := url.Values{"q": {"search"}, "pageSize": {"100"}}
		if page != "" {
			q.Set("pageToken", page)
		}
		var resp struct {
			Elements []struct {
				ID     int64  `json:"id"`
				Name   string `json:"name"`
				Status string `json:"status"`
			} `json:"elements"`
			Metadata struct {
				NextPageToken string `json:"nextPageToken"`
			} `json:"metadata"`
		}
		if err := get(ctx, uc, "/rest/adAccounts", q, r.token, &resp); err != nil {
			return nil, fmt.Errorf("linkedin ads: ad accounts: %w", err)
		}
		for _, a := range resp.Elements {
			if a.ID != 0 && a.Status != "REMOVED" {
				out = append(out, Account{Provider: linkedinads.Provider, ID: strconv.FormatInt(a.ID, 10), Name: a.Name})
			}
		}
		if page = resp.Metadata.NextPageToken; page == "" {
			break
		}
	}
	return out, nil
}
