package googleads

import (
	"context"
	"fmt"

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

// search runs one GAQL query page.
func (a *api) search(ctx context.Context, call *gtmgate.Call, query, pageToken string) (*searchPage, error) {
	body := map[string]any{"query": query}
	if pageToken != "" {
		body["pageToken"] = pageToken
	}
	req, err := a.post(call, "googleAds:search", body)
	if err != nil {
		return nil, err
	}
	var page searchPage
	if err := a.c.Do(ctx, req, &page); err != nil {
		return nil, fmt.Errorf("google ads: search: %w", a.explain(err))
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

// mutateAnswer is what the tools read of every service's Mutate…Response.
type mutateAnswer struct {
	Results []map[string]any `json:"results"`
}

// mutate posts operations to a Google Ads mutate endpoint (campaigns,
// campaignBudgets, campaignCriteria) and returns the results. It is never retried.
func (a *api) mutate(ctx context.Context, call *gtmgate.Call, service string, ops []map[string]any) ([]map[string]any, error) {
	req, err := a.post(call, service+":mutate", map[string]any{"operations": ops, "responseContentType": "MUTABLE_RESOURCE"})
	if err != nil {
		return nil, err
	}
	req.Mutating = true
	var out mutateAnswer
	if err := a.c.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("google ads: mutate %s: %w", service, a.explain(err))
	}
	if len(out.Results) != len(ops) {
		return nil, fmt.Errorf("google ads: mutate %s: %d results for %d operations", service, len(out.Results), len(ops))
	}
	return out.Results, nil
}
