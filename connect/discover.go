package connect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Account is one account a grant reaches, as a tenant's configuration
// names it (gtmgate.Account) under Provider.
type Account struct {
	// Provider is the gtmgate provider key ("google_ads").
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`
	// LoginCustomerID is, for a Google Ads client reached through a
	// manager account, the manager's customer id.
	LoginCustomerID string `json:"login_customer_id,omitempty"`
}

// Product is what discovery found for one provider key.
type Product struct {
	Provider string `json:"provider"`
	// What names what was looked for ("GA4 properties").
	What  string `json:"what"`
	Found int    `json:"found"`
	// Err is why the look-up failed (a gtmgate error); nil when it ran.
	Err error `json:"-"`
	// Skipped says why nothing is looked up for this key.
	Skipped string `json:"skipped,omitempty"`
}

// Note is the product's line for a person: "GA4: no properties found".
func (p Product) Note() string {
	switch {
	case p.Skipped != "":
		return p.What + ": " + p.Skipped
	case p.Err != nil:
		return p.What + ": could not be listed: " + gtmgate.AsError(p.Err).Message
	case p.Found == 0:
		return p.What + ": none found"
	}
	return fmt.Sprintf("%s: %d found", p.What, p.Found)
}

// Discovery is what a grant reaches: the accounts found, and per product
// what was found or why not. A product that fails loses only its own
// accounts.
type Discovery struct {
	Accounts []Account
	Products []Product
}

// Err joins the products' failures; nil when every look-up ran.
func (d *Discovery) Err() error {
	var errs []error
	for _, p := range d.Products {
		if p.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.What, p.Err))
		}
	}
	return errors.Join(errs...)
}

// finder lists one product's accounts with a token.
type finder struct {
	what string
	// skipped, when set, says why nothing is looked up.
	skipped string
	find    func(ctx context.Context, r *run) ([]Account, error)
}

// run is one Discover call: the client, the grant's token, and the
// signed-in address once read.
type run struct {
	c         *Client
	token     gtmgate.TokenSource
	email     string
	emailErr  error
	emailRead bool
}

// finders are the look-ups per provider key. Gmail and Calendar accounts
// are the signed-in address, read once for both.
var finders = map[string]finder{
	"google_ads":      {what: "Google Ads customers", find: findGoogleAds},
	"ga4":             {what: "GA4 properties", find: findGA4},
	"search_console":  {what: "Search Console sites", find: findSearchConsole},
	"gmail":           {what: "Gmail mailbox", find: userinfoFinder("gmail")},
	"google_calendar": {what: "Google Calendar", find: userinfoFinder("google_calendar")},
	"bigquery":        {what: "BigQuery projects", find: findBigQuery},
	"sheets":          {what: "Google Sheets", skipped: "spreadsheets are named in each call; nothing to choose"},
	"hubspot":         {what: "HubSpot portal", find: findHubSpot},
	"meta_ads":        {what: "Meta ad accounts", find: findMeta},
	"linkedin_ads":    {what: "LinkedIn ad accounts", find: findLinkedIn},
}

// Discover lists the accounts g reaches at each of keys, one look-up per
// product; the returned error is Discovery.Err: the products that failed,
// the others' accounts kept. keys should be the provider keys the link
// asked scopes for: a product outside the grant fails its look-up (all of
// p's keys when empty).
func (c *Client) Discover(ctx context.Context, p Provider, g *Grant, keys []string) (*Discovery, error) {
	if g == nil || g.AccessToken == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "%s: discovery needs the grant's access token", p.Name)
	}
	if len(keys) == 0 {
		keys = p.Covers
	}
	r := &run{c: c, token: gtmgate.StaticToken(g.AccessToken)}
	d := &Discovery{}
	for _, key := range keys {
		f, ok := finders[key]
		if !p.Covering(key) || !ok {
			continue
		}
		prod := Product{Provider: key, What: f.what, Skipped: f.skipped}
		if f.find != nil {
			found, err := f.find(ctx, r)
			prod.Found, prod.Err = len(found), err
			d.Accounts = append(d.Accounts, found...)
		}
		d.Products = append(d.Products, prod)
	}
	return d, d.Err()
}

// upstreamClient is an adapter-style client for key at its base (or the
// override), bounded by c's time-out and speaking through c's HTTP client.
func (c *Client) upstreamClient(opts upstream.Options) (*upstream.Client, error) {
	if b := c.Bases[opts.Provider]; b != "" {
		opts.BaseURL = b
	}
	opts.Timeout = c.timeout()
	opts.HTTPClient = c.HTTP
	opts.Backoff = 50 * time.Millisecond
	return upstream.New(opts)
}

// get reads path (with query) of the client into out.
func get(ctx context.Context, uc *upstream.Client, path string, query map[string][]string, token gtmgate.TokenSource, out any) error {
	return uc.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: path, Query: query, Token: token}, out)
}

// maxPages bounds every paged listing: discovery shows choices to a
// person, and a grant reaching more is better narrowed with a hint.
const maxPages = 10

func contains(list []Account, id string) bool {
	return slices.ContainsFunc(list, func(a Account) bool { return a.ID == id })
}
