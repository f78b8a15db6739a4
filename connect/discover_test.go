package connect

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

const grantToken = "ya29.grant-token-1234"

// providerAPIs serves the discovery calls with the providers' answer
// shapes, each cited at its handler, and checks their credentials.
func providerAPIs(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	bearer := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+grantToken {
				t.Errorf("%s %s: Authorization %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
			}
			w.Header().Set("Content-Type", "application/json")
			h(w, r)
		}
	}
	// OpenID Connect userinfo (openid-connect-core 5.3.2; Google's claims).
	mux.HandleFunc("GET /v1/userinfo", bearer(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"sub":"110169484474386276334","email":"ana@northpeak.example","email_verified":true,"name":"Ana"}`)
	}))
	// CustomerService.ListAccessibleCustomers: {"resourceNames": [...]}.
	mux.HandleFunc("GET /v25/customers:listAccessibleCustomers", bearer(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("developer-token") != "dev-token" {
			t.Errorf("developer-token %q", r.Header.Get("developer-token"))
		}
		io.WriteString(w, `{"resourceNames":["customers/1234567890","customers/5550001111","customers/7770001111"]}`)
	}))
	// GoogleAdsService.Search rows of customer_client (int64 as strings).
	mux.HandleFunc("POST /v25/customers/{id}/googleAds:search", bearer(func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if r.Header.Get("login-customer-id") != id {
			t.Errorf("login-customer-id %q for %s", r.Header.Get("login-customer-id"), id)
		}
		var body struct{ Query string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		if !strings.Contains(body.Query, "FROM customer_client") {
			t.Errorf("query %q", body.Query)
		}
		row := func(id, name string, manager bool, level string) string {
			return `{"customerClient":{"resourceName":"customers/x/customerClients/` + id + `","id":"` + id +
				`","descriptiveName":"` + name + `","manager":` + map[bool]string{true: "true", false: "false"}[manager] + `,"level":"` + level + `"}}`
		}
		switch id {
		case "1234567890":
			io.WriteString(w, `{"results":[`+row("1234567890", "Northpeak", false, "0")+`],"fieldMask":"customerClient.id"}`)
		case "5550001111":
			io.WriteString(w, `{"results":[`+row("5550001111", "Agency MCC", true, "0")+`,`+row("2223334444", "Client B", false, "1")+
				`,`+row("9990001111", "Sub-manager", true, "1")+`,`+row("1234567890", "Northpeak", false, "1")+`]}`)
		default: // a cancelled customer
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"error":{"code":403,"message":"The customer account can't be accessed because it is not yet enabled or has been deactivated.","status":"PERMISSION_DENIED"}}`)
		}
	}))
	// accountSummaries.list: refused here, as for a grant without analytics.readonly.
	mux.HandleFunc("GET /v1beta/accountSummaries", bearer(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"error":{"code":403,"message":"Request had insufficient authentication scopes.","status":"PERMISSION_DENIED"}}`)
	}))
	// sites.list: {"siteEntry":[{"siteUrl","permissionLevel"}]}.
	mux.HandleFunc("GET /webmasters/v3/sites", bearer(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"siteEntry":[{"siteUrl":"sc-domain:northpeak.example","permissionLevel":"siteOwner"},
{"siteUrl":"https://other.example/","permissionLevel":"siteUnverifiedUser"}]}`)
	}))
	// projects.list, two pages.
	mux.HandleFunc("GET /bigquery/v2/projects", bearer(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("pageToken") == "" {
			io.WriteString(w, `{"kind":"bigquery#projectList","etag":"e","nextPageToken":"p2","totalItems":2,
"projects":[{"kind":"bigquery#project","id":"np-analytics","numericId":"101","projectReference":{"projectId":"np-analytics"},"friendlyName":"Northpeak analytics"}]}`)
			return
		}
		io.WriteString(w, `{"kind":"bigquery#projectList","etag":"e","totalItems":2,
"projects":[{"kind":"bigquery#project","id":"np-sandbox","numericId":"102","projectReference":{"projectId":"np-sandbox"},"friendlyName":"Sandbox"}]}`)
	}))
	// HubSpot AccessTokenInfoResponse; the token is in the path, no header.
	mux.HandleFunc("GET /oauth/v1/access-tokens/{token}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("token") != grantToken || r.Header.Get("Authorization") != "" {
			t.Errorf("hubspot: token %q, Authorization %q", r.PathValue("token"), r.Header.Get("Authorization"))
		}
		io.WriteString(w, `{"token":"`+grantToken+`","user":"ana@northpeak.example","hub_domain":"northpeak.example","scopes":["oauth"],
"hub_id":62515,"app_id":42,"expires_in":1700,"user_id":7,"token_type":"access"}`)
	})
	// Graph /me/adaccounts, two pages by the after cursor.
	mux.HandleFunc("GET /v26.0/me/adaccounts", bearer(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("after") == "" {
			io.WriteString(w, `{"data":[{"account_id":"1111","name":"NP Ads","id":"act_1111"}],
"paging":{"cursors":{"before":"QVFa","after":"QVFb"},"next":"https://graph.facebook.com/v26.0/me/adaccounts?access_token=`+grantToken+`&after=QVFb"}}`)
			return
		}
		io.WriteString(w, `{"data":[{"account_id":"2222","name":"NP Brand","id":"act_2222"}],"paging":{"cursors":{"before":"QVFc","after":"QVFc"}}}`)
	}))
	// LinkedIn adAccounts search with cursor paging.
	mux.HandleFunc("GET /rest/adAccounts", bearer(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") != "search" || r.Header.Get("LinkedIn-Version") == "" || r.Header.Get("X-Restli-Protocol-Version") != "2.0.0" {
			t.Errorf("linkedin: query %q, headers %v", r.URL.RawQuery, r.Header)
		}
		io.WriteString(w, `{"elements":[{"id":507404993,"name":"NP LinkedIn","status":"ACTIVE","test":false,"reference":"urn:li:organization:11223344"},
{"id":507404994,"name":"Old","status":"REMOVED","test":false}],"metadata":{},"paging":{"start":0,"count":100,"links":[]}}`)
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func discoverClient(srv *httptest.Server) *Client {
	bases := map[string]string{}
	for _, k := range []string{KeyGoogleOpenID, "google_ads", KeyGoogleAnalyticsAdmin, "search_console", "bigquery", "hubspot", "meta_ads", "linkedin_ads"} {
		bases[k] = srv.URL
	}
	return &Client{Bases: bases, GoogleAdsDeveloperToken: "dev-token"}
}

func TestDiscoverGoogle(t *testing.T) {
	t.Parallel()
	srv := providerAPIs(t)
	c := discoverClient(srv)
	d, err := c.Discover(context.Background(), mustLookup(t, Google), &Grant{AccessToken: grantToken}, nil)
	if err == nil || !strings.Contains(err.Error(), "GA4 properties") {
		t.Errorf("error %v, want GA4's failure", err)
	}
	want := []Account{
		{Provider: "google_ads", ID: "1234567890", Name: "Northpeak"},
		{Provider: "google_ads", ID: "7770001111"},
		{Provider: "google_ads", ID: "2223334444", Name: "Client B", LoginCustomerID: "5550001111"},
		{Provider: "search_console", ID: "sc-domain:northpeak.example", Name: "sc-domain:northpeak.example"},
		{Provider: "gmail", ID: "ana@northpeak.example", Name: "ana@northpeak.example"},
		{Provider: "google_calendar", ID: "ana@northpeak.example", Name: "ana@northpeak.example"},
		{Provider: "bigquery", ID: "np-analytics", Name: "Northpeak analytics"},
		{Provider: "bigquery", ID: "np-sandbox", Name: "Sandbox"},
	}
	if !slices.Equal(d.Accounts, want) {
		t.Errorf("accounts\n%+v\nwant\n%+v", d.Accounts, want)
	}
	notes := map[string]string{}
	for _, p := range d.Products {
		notes[p.Provider] = p.Note()
	}
	for key, note := range map[string]string{
		"ga4":            "GA4 properties: could not be listed: ",
		"sheets":         "Google Sheets: spreadsheets are named in each call",
		"google_ads":     "Google Ads customers: 3 found",
		"bigquery":       "BigQuery projects: 2 found",
		"gmail":          "Gmail mailbox: 1 found",
		"search_console": "Search Console sites: 1 found",
	} {
		if !strings.HasPrefix(notes[key], note) {
			t.Errorf("%s: note %q, want %q…", key, notes[key], note)
		}
	}
	if strings.Contains(err.Error(), grantToken) {
		t.Error("the error carries the token")
	}
}

func TestDiscoverOthers(t *testing.T) {
	t.Parallel()
	srv := providerAPIs(t)
	c := discoverClient(srv)
	tests := []struct {
		provider string
		want     []Account
	}{
		{HubSpot, []Account{{Provider: "hubspot", ID: "62515", Name: "northpeak.example"}}},
		{Meta, []Account{{Provider: "meta_ads", ID: "act_1111", Name: "NP Ads"}, {Provider: "meta_ads", ID: "act_2222", Name: "NP Brand"}}},
		{LinkedIn, []Account{{Provider: "linkedin_ads", ID: "507404993", Name: "NP LinkedIn"}}},
	}
	for _, tt := range tests {
		d, err := c.Discover(context.Background(), mustLookup(t, tt.provider), &Grant{AccessToken: grantToken}, nil)
		if err != nil {
			t.Errorf("%s: %v", tt.provider, err)
			continue
		}
		if !slices.Equal(d.Accounts, tt.want) {
			t.Errorf("%s: accounts %+v, want %+v", tt.provider, d.Accounts, tt.want)
		}
	}
}

// TestDiscoverOnlyKeys: discovery asks only the products named, and
// refuses a grant without a token.
func TestDiscoverOnlyKeys(t *testing.T) {
	t.Parallel()
	srv := providerAPIs(t)
	c := discoverClient(srv)
	d, err := c.Discover(context.Background(), mustLookup(t, Google), &Grant{AccessToken: grantToken}, []string{"gmail", "hubspot"})
	if err != nil || len(d.Products) != 1 || d.Products[0].Provider != "gmail" {
		t.Errorf("products %+v, error %v", d.Products, err)
	}
	if _, err := c.Discover(context.Background(), mustLookup(t, Google), &Grant{}, nil); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("empty grant: %v", err)
	}
}

// answerEverything answers every request with one body: the fuzz target's
// provider, with no network.
type answerEverything struct {
	status int
	body   []byte
}

func (a answerEverything) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: a.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(string(a.body))), Request: r}, nil
}

// FuzzDiscover: whatever the providers answer, discovery returns, every
// account has a provider and an id, and no error carries the token.
func FuzzDiscover(f *testing.F) {
	for _, s := range []string{
		`{"resourceNames":["customers/1"],"results":[{"customerClient":{"id":"2","manager":false,"level":"1"}}]}`,
		`{"accountSummaries":[{"propertySummaries":[{"property":"properties/9","displayName":"x"}]}],"nextPageToken":"n"}`,
		`{"siteEntry":[{"siteUrl":"https://a/","permissionLevel":"siteOwner"}],"projects":[{"projectReference":{"projectId":"p"}}]}`,
		`{"hub_id":1,"data":[{"id":"act_1"}],"paging":{"cursors":{"after":"a"},"next":"n"},"elements":[{"id":1}],"metadata":{"nextPageToken":"t"}}`,
		`{"email":"a@b","email_verified":false}`, `{"error":{"code":401,"message":"` + grantToken + `"}}`, `[]`, `nul`,
	} {
		f.Add(200, []byte(s))
	}
	f.Add(500, []byte(`{}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 599 {
			return
		}
		c := &Client{HTTP: &http.Client{Transport: answerEverything{status, body}}, Timeout: 1 << 62}
		for _, p := range Providers() {
			d, err := c.Discover(context.Background(), p, &Grant{AccessToken: grantToken}, nil)
			if d == nil {
				t.Fatalf("%s: no discovery (%v)", p.Name, err)
			}
			for _, a := range d.Accounts {
				if a.Provider == "" || a.ID == "" {
					t.Fatalf("%s: account %+v", p.Name, a)
				}
			}
			if err != nil && strings.Contains(err.Error(), grantToken) {
				t.Fatalf("%s: error carries the token: %v", p.Name, err)
			}
		}
	})
}
