package hubspot

import (
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// Page is a page of records as the tools return it.
type Page struct {
	Items []Item `json:"items"`
	// NextCursor is HubSpot's paging.next.after; empty on the last page.
	NextCursor string `json:"next_cursor"`
	// Total is the number of matches, set when HubSpot search reports it.
	Total *int `json:"total,omitempty"`
}

// Item is one CRM record with HubSpot's raw property names.
type Item struct {
	ID         string             `json:"id"`
	Properties map[string]*string `json:"properties"`
	CreatedAt  string             `json:"created_at"`
	UpdatedAt  string             `json:"updated_at"`
	Archived   bool               `json:"archived"`
	// URL opens the record in HubSpot when the portal id is known.
	URL string `json:"url,omitempty"`
}

// toItem converts a HubSpot record; objectTypeID ("0-1") and the account's
// portal id make the record's app URL.
func toItem(o hsObject, k objectKind, account gtmgate.Account) Item {
	it := Item{ID: o.ID, Properties: o.Properties, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, Archived: o.Archived}
	if it.Properties == nil {
		it.Properties = map[string]*string{}
	}
	if portal := portalID(account); portal != "" && k.typeID != "" && o.ID != "" {
		it.URL = fmt.Sprintf("https://app.hubspot.com/contacts/%s/record/%s/%s", portal, k.typeID, o.ID)
	}
	return it
}

// toPage converts a HubSpot page.
func toPage(p hsPage, k objectKind, account gtmgate.Account) Page {
	out := Page{Items: make([]Item, 0, len(p.Results)), NextCursor: p.Paging.nextAfter(), Total: p.Total}
	for _, o := range p.Results {
		out.Items = append(out.Items, toItem(o, k, account))
	}
	return out
}

// portalID returns the numeric HubSpot portal (hub) id of an account whose id
// is the portal id, optionally prefixed "portal-"; "" otherwise.
func portalID(a gtmgate.Account) string {
	id := strings.TrimPrefix(a.ID, "portal-")
	if id == "" {
		return ""
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return ""
		}
	}
	return id
}
