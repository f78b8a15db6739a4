package hubspot

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// objectKind describes one HubSpot CRM object type the tools read and write.
type objectKind struct {
	// path is the object type in API paths ("contacts").
	path string
	// singular names one record in messages ("contact").
	singular string
	// typeID is HubSpot's object type id ("0-1"), used in record URLs.
	typeID string
	// defaultFields are the properties returned when the caller names none.
	defaultFields []string
}

func (a *api) objectPath(k objectKind, id string) string {
	p := a.crm("objects", false) + "/" + k.path
	if id != "" {
		p += "/" + url.PathEscape(id)
	}
	return p
}

func fieldsOr(fields, defaults []string) []string {
	if len(fields) > 0 {
		return fields
	}
	return defaults
}

// listObjects pages through records with GET …/objects/{type}.
func (a *api) listObjects(ctx context.Context, call *gtmgate.Call, k objectKind, fields []string) (Page, error) {
	q := url.Values{}
	q.Set("limit", strconv.Itoa(pageLimit(call, maxListLimit)))
	q.Set("archived", "false")
	if call.Cursor != "" {
		q.Set("after", call.Cursor)
	}
	q.Set("properties", strings.Join(fieldsOr(fields, k.defaultFields), ","))
	req := request(call, http.MethodGet, a.objectPath(k, ""), nil)
	req.Query = q
	var p hsPage
	if err := a.c.Do(ctx, req, &p); err != nil {
		return Page{}, fmt.Errorf("hubspot: list %s: %w", k.path, err)
	}
	return toPage(p, k, call.Account), nil
}

// searchObjects runs POST …/objects/{type}/search; the call's limit
// and cursor fill in the page size and "after" ("0", the first result, when
// there is no cursor). Every field the spec requires is sent.
func (a *api) searchObjects(ctx context.Context, call *gtmgate.Call, k objectKind, body hsSearchRequest) (Page, error) {
	body.Limit = pageLimit(call, maxSearchLimit)
	body.After = cmp.Or(call.Cursor, "0")
	body.Properties = fieldsOr(body.Properties, k.defaultFields)
	if body.FilterGroups == nil {
		body.FilterGroups = []filterGroup{}
	}
	if body.Sorts == nil {
		body.Sorts = []hsSort{}
	}
	var p hsPage
	if err := a.c.Do(ctx, request(call, http.MethodPost, a.objectPath(k, "")+"/search", body), &p); err != nil {
		return Page{}, fmt.Errorf("hubspot: search %s: %w", k.path, err)
	}
	return toPage(p, k, call.Account), nil
}

// getObject reads one record with GET …/objects/{type}/{id}.
func (a *api) getObject(ctx context.Context, call *gtmgate.Call, k objectKind, id string, fields []string) (Item, error) {
	req := request(call, http.MethodGet, a.objectPath(k, id), nil)
	req.Query = url.Values{"properties": {strings.Join(fieldsOr(fields, k.defaultFields), ",")}}
	var o hsObject
	if err := a.c.Do(ctx, req, &o); err != nil {
		return Item{}, fmt.Errorf("hubspot: get %s %s: %w", k.singular, id, err)
	}
	return toItem(o, k, call.Account), nil
}

// createObject creates a record with POST …/objects/{type}.
func (a *api) createObject(ctx context.Context, call *gtmgate.Call, k objectKind, in hsObjectInput) (Item, error) {
	if in.Associations == nil {
		in.Associations = []hsAssociationInput{}
	}
	var o hsObject
	if err := a.c.Do(ctx, request(call, http.MethodPost, a.objectPath(k, ""), in), &o); err != nil {
		return Item{}, fmt.Errorf("hubspot: create %s: %w", k.singular, err)
	}
	return toItem(o, k, call.Account), nil
}

// updateObject changes a record's properties with PATCH …/objects/{type}/{id}.
func (a *api) updateObject(ctx context.Context, call *gtmgate.Call, k objectKind, id string, props map[string]string) (Item, error) {
	var o hsObject
	body := hsObjectUpdate{Properties: props}
	if err := a.c.Do(ctx, request(call, http.MethodPatch, a.objectPath(k, id), body), &o); err != nil {
		return Item{}, fmt.Errorf("hubspot: update %s %s: %w", k.singular, id, err)
	}
	return toItem(o, k, call.Account), nil
}

// stringProps renders property values as the strings HubSpot stores; null
// becomes "" which clears the property.
func stringProps(in map[string]any) (map[string]string, error) {
	if len(in) == 0 {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "properties must name at least one property to set").
			WithHint(`for example {"properties": {"lifecyclestage": "opportunity"}}`)
	}
	out := make(map[string]string, len(in))
	for name, v := range in {
		if !propertyName.MatchString(name) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "properties: %q is not a HubSpot property name", name)
		}
		if v == nil {
			out[name] = ""
			continue
		}
		s, err := formatValue(v)
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "properties.%s %v", name, err)
		}
		out[name] = s
	}
	return out, nil
}
