package googleads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// customerClientFields are the customer_client fields account discovery
// selects (Google's "Get Account Hierarchy" guide,
// developers.google.com/google-ads/api/docs/account-management/get-account-hierarchy;
// types from the field reference,
// developers.google.com/google-ads/api/fields/v21/customer_client). The
// spec's GAQL catalogue (apispec.json, sandbox_spec.go) transcribes the
// fields the tools use, which do not include these, so they are added here.
var customerClientFields = map[string]gaqlField{
	"customer_client.resource_name":    {Category: "ATTRIBUTE", DataType: "RESOURCE_NAME"},
	"customer_client.client_customer":  {Category: "ATTRIBUTE", DataType: "STRING"},
	"customer_client.id":               {Category: "ATTRIBUTE", DataType: "INT64"},
	"customer_client.descriptive_name": {Category: "ATTRIBUTE", DataType: "STRING"},
	"customer_client.manager":          {Category: "ATTRIBUTE", DataType: "BOOLEAN"},
	"customer_client.level":            {Category: "ATTRIBUTE", DataType: "INT64"},
	"customer_client.currency_code":    {Category: "ATTRIBUTE", DataType: "STRING"},
	"customer_client.time_zone":        {Category: "ATTRIBUTE", DataType: "STRING"},
	"customer_client.status": {Category: "ATTRIBUTE", DataType: "ENUM",
		EnumValues: []string{"UNSPECIFIED", "UNKNOWN", "ENABLED", "CANCELED", "SUSPENDED", "CLOSED"}},
}

func init() {
	for name, f := range customerClientFields {
		if _, ok := gaqlFields[name]; !ok {
			gaqlFields[name] = f
		}
	}
}

// customerClientAttrs is the customer_client row of client under c at level.
func (c *sbCustomer) customerClientAttrs(client *sbCustomer, level int64) map[string]any {
	m := c.customerAttrs()
	m["customer_client.resource_name"] = fmt.Sprintf("customers/%s/customerClients/%s", c.ID, client.ID)
	m["customer_client.client_customer"] = "customers/" + client.ID
	m["customer_client.id"] = mustInt(client.ID)
	m["customer_client.descriptive_name"] = client.Name
	m["customer_client.manager"] = client.Manager
	m["customer_client.level"] = level
	m["customer_client.currency_code"] = client.Currency
	m["customer_client.time_zone"] = client.TimeZone
	m["customer_client.status"] = "ENABLED"
	return m
}

// customerClients are c's customer_client rows: c itself at level 0 and,
// for a manager, the customers it manages at level 1. s.mu is held.
func (s *Sandbox) customerClients(c *sbCustomer) []sbEntity {
	out := []sbEntity{{attrs: c.customerClientAttrs(c, 0)}}
	ids := make([]string, 0, len(s.customers))
	for id, other := range s.customers {
		if other.ManagedBy == c.ID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		out = append(out, sbEntity{attrs: c.customerClientAttrs(s.customers[id], 1)})
	}
	return out
}

// isCustomerClientSearch reports whether r is a googleAds:search FROM
// customer_client, leaving its body to be read again. The spec's
// transcription of GoogleAdsRow (apispec.json) has no customerClient, so
// such a search, which only account discovery makes, is served outside the
// spec's checks; its GAQL is still parsed and checked against
// customerClientFields.
func isCustomerClientSearch(r *http.Request) bool {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/googleAds:search") || r.Body == nil {
		return false
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	q, err := parseGAQL(req.Query)
	return err == nil && q.Resource == "customer_client"
}
