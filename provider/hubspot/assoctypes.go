package hubspot

// associableTypes are the object types the association tools accept.
var associableTypes = []string{"contacts", "companies", "deals", "notes", "tasks"}

// defaultAssocTypes holds HubSpot's default (unlabeled, HUBSPOT_DEFINED)
// association type id for each direction between the supported object types.
var defaultAssocTypes = map[[2]string]int{
	{"contacts", "companies"}: 279, {"companies", "contacts"}: 280,
	{"deals", "contacts"}: 3, {"contacts", "deals"}: 4,
	{"deals", "companies"}: 341, {"companies", "deals"}: 342,
	{"contacts", "notes"}: 201, {"notes", "contacts"}: 202,
	{"companies", "notes"}: 189, {"notes", "companies"}: 190,
	{"deals", "notes"}: 213, {"notes", "deals"}: 214,
	{"contacts", "tasks"}: 203, {"tasks", "contacts"}: 204,
	{"companies", "tasks"}: 191, {"tasks", "companies"}: 192,
	{"deals", "tasks"}: 215, {"tasks", "deals"}: 216,
}

// singularType is the name search's "associations.<type>" pseudo-property uses.
var singularType = map[string]string{
	"contacts": "contact", "companies": "company", "deals": "deal", "notes": "note", "tasks": "task",
}

// engagementLinks are the optional record ids a note or task is linked to.
type engagementLinks struct {
	ContactID string `json:"contact_id"`
	CompanyID string `json:"company_id"`
	DealID    string `json:"deal_id"`
}

// each calls fn for every linked record as (object type, id).
func (l engagementLinks) each(fn func(toType, id string)) {
	for _, p := range [][2]string{{"contacts", l.ContactID}, {"companies", l.CompanyID}, {"deals", l.DealID}} {
		if p[1] != "" {
			fn(p[0], p[1])
		}
	}
}

// associations returns the create-time associations from fromType to the links.
func (l engagementLinks) associations(fromType string) []hsAssociationInput {
	var out []hsAssociationInput
	l.each(func(toType, id string) {
		out = append(out, hsAssociationInput{To: hsRef{ID: id},
			Types: []hsAssocSpec{{Category: "HUBSPOT_DEFINED", TypeID: defaultAssocTypes[[2]string{fromType, toType}]}}})
	})
	return out
}

// filters returns search filters keeping only records associated with the links.
func (l engagementLinks) filters() []searchFilter {
	var out []searchFilter
	l.each(func(toType, id string) {
		v := id
		out = append(out, searchFilter{PropertyName: "associations." + singularType[toType], Operator: "EQ", Value: &v})
	})
	return out
}

func (l engagementLinks) empty() bool { return l == engagementLinks{} }
