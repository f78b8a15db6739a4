package googleads

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// api holds the client the tools call Google Ads with.
type api struct{ c *upstream.Client }

// searchPage is one page of GoogleAdsService.Search.
type searchPage struct {
	Results       []map[string]any `json:"results"`
	FieldMask     string           `json:"fieldMask"`
	NextPageToken string           `json:"nextPageToken"`
}

var customerIDPattern = regexp.MustCompile(`^[0-9]{1,20}$`)

// customerID returns the call's account as a Google Ads customer id.
func customerID(call *gtmgate.Call) (string, error) {
	id := CustomerID(call.Account.ID)
	if !customerIDPattern.MatchString(id) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "account %q is not a Google Ads customer id (10 digits, dashes allowed)", call.Account.ID)
	}
	return id, nil
}

// search runs one GAQL query page.
func (a *api) search(ctx context.Context, call *gtmgate.Call, query, pageToken string) (*searchPage, error) {
	cid, err := customerID(call)
	if err != nil {
		return nil, err
	}
	body := map[string]any{"query": query}
	if pageToken != "" {
		body["pageToken"] = pageToken
	}
	var page searchPage
	req := &upstream.Request{Method: http.MethodPost, Path: "/" + APIVersion + "/customers/" + cid + "/googleAds:search", JSON: body, Token: call.Token}
	if err := a.c.Do(ctx, req, &page); err != nil {
		return nil, fmt.Errorf("google ads: search: %w", explain(err))
	}
	return &page, nil
}

// rows runs query and returns one page of flattened rows of at most call.Limit,
// the cursor of the next page, and the account currency when the rows carry it.
func (a *api) rows(ctx context.Context, call *gtmgate.Call, query string) ([]map[string]any, string, error) {
	cur, err := decodeCursor(call.Cursor, query)
	if err != nil {
		return nil, "", err
	}
	page, err := a.search(ctx, call, query, cur.Token)
	if err != nil {
		return nil, "", err
	}
	limit := call.Limit
	if limit <= 0 {
		limit = 25
	}
	start := min(cur.Offset, len(page.Results))
	end := min(start+limit, len(page.Results))
	rows := make([]map[string]any, 0, end-start)
	for _, r := range page.Results[start:end] {
		rows = append(rows, flatten(r, page.FieldMask))
	}
	next := ""
	switch {
	case end < len(page.Results):
		next = cursor{Token: cur.Token, Offset: end}.encode(query)
	case page.NextPageToken != "":
		next = cursor{Token: page.NextPageToken}.encode(query)
	}
	return rows, next, nil
}

// currencyOf returns the customer's currency code, reading it from rows when
// they carry it and asking Google otherwise.
func (a *api) currencyOf(ctx context.Context, call *gtmgate.Call, rows []map[string]any) (string, error) {
	for _, r := range rows {
		if c, ok := r["customer.currency_code"].(string); ok && c != "" {
			return c, nil
		}
	}
	page, err := a.search(ctx, call, "SELECT customer.currency_code FROM customer LIMIT 1", "")
	if err != nil {
		return "", err
	}
	for _, r := range page.Results {
		if c, ok := flatten(r, page.FieldMask)["customer.currency_code"].(string); ok {
			return c, nil
		}
	}
	return "", nil
}

// mutate posts operations to a Google Ads mutate endpoint (campaigns,
// campaignBudgets, campaignCriteria) and returns the results. It is never retried.
func (a *api) mutate(ctx context.Context, call *gtmgate.Call, service string, ops []map[string]any) ([]map[string]any, error) {
	cid, err := customerID(call)
	if err != nil {
		return nil, err
	}
	var out struct {
		Results []map[string]any `json:"results"`
	}
	req := &upstream.Request{Method: http.MethodPost, Path: "/" + APIVersion + "/customers/" + cid + "/" + service + ":mutate",
		JSON: map[string]any{"operations": ops, "responseContentType": "MUTABLE_RESOURCE"}, Mutating: true, Token: call.Token}
	if err := a.c.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("google ads: mutate %s: %w", service, explain(err))
	}
	if len(out.Results) != len(ops) {
		return nil, fmt.Errorf("google ads: mutate %s: %d results for %d operations", service, len(out.Results), len(ops))
	}
	return out.Results, nil
}

// failureMessage finds the messages of a GoogleAdsFailure in an error body.
var failureMessage = regexp.MustCompile(`"message"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// explain adds the GoogleAdsFailure messages to an upstream error: Google puts
// a generic "Request contains an invalid argument." at the top and the useful
// message in error.details[].errors[].message.
func explain(err error) error {
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		return err
	}
	d, ok := e.Detail.(gtmgate.UpstreamDetail)
	if !ok {
		return err
	}
	ms := failureMessage.FindAllStringSubmatch(d.Body, -1)
	var extra []string
	for _, m := range ms {
		if !strings.Contains(e.Message, m[1]) {
			extra = append(extra, strings.ReplaceAll(m[1], `\"`, `"`))
		}
	}
	if len(extra) > 0 {
		e.Message += " — " + strings.Join(extra, "; ")
	}
	return err
}
