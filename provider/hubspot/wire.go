package hubspot

// HubSpot's JSON shapes, shared by the adapter and the sandbox so both speak
// exactly the documented wire format.

// hsObject is a CRM record as the v3 object endpoints return it. Requested
// properties that have no value come back as null.
type hsObject struct {
	ID         string             `json:"id"`
	Properties map[string]*string `json:"properties"`
	CreatedAt  string             `json:"createdAt"`
	UpdatedAt  string             `json:"updatedAt"`
	Archived   bool               `json:"archived"`
}

// hsNext points at the next page.
type hsNext struct {
	After string `json:"after"`
	Link  string `json:"link,omitempty"`
}

// hsPaging is the paging block of list and search responses.
type hsPaging struct {
	Next *hsNext `json:"next,omitempty"`
}

// hsPage is a page of records; Total is set by search only.
type hsPage struct {
	Total   *int       `json:"total,omitempty"`
	Results []hsObject `json:"results"`
	Paging  *hsPaging  `json:"paging,omitempty"`
}

// nextAfter returns the cursor of the next page, or "".
func (p *hsPaging) nextAfter() string {
	if p == nil || p.Next == nil {
		return ""
	}
	return p.Next.After
}

// hsSort is one search sort; HubSpot honours a single sort per request.
type hsSort struct {
	PropertyName string `json:"propertyName"`
	Direction    string `json:"direction"`
}

// hsSearchRequest is the body of POST …/objects/{type}/search. HubSpot's
// spec (PublicObjectSearchRequest) requires every field but query, so the
// adapter sends them all, empty lists included (searchObjects).
type hsSearchRequest struct {
	Query        string        `json:"query,omitempty"`
	FilterGroups []filterGroup `json:"filterGroups"`
	Sorts        []hsSort      `json:"sorts"`
	Properties   []string      `json:"properties"`
	Limit        int           `json:"limit"`
	After        string        `json:"after"`
}

// hsObjectInput is the body of object create (POST); HubSpot's spec
// (SimplePublicObjectInputForCreate) requires associations, an empty list
// when there are none.
type hsObjectInput struct {
	Properties   map[string]string    `json:"properties"`
	Associations []hsAssociationInput `json:"associations"`
}

// hsObjectUpdate is the body of object update (PATCH), SimplePublicObjectInput.
type hsObjectUpdate struct {
	Properties map[string]string `json:"properties"`
}

// hsAssociationInput associates a record being created with an existing one.
type hsAssociationInput struct {
	To    hsRef         `json:"to"`
	Types []hsAssocSpec `json:"types"`
}

// hsRef names a record by id.
type hsRef struct {
	ID string `json:"id"`
}

// hsAssocSpec is an association type as write requests spell it.
type hsAssocSpec struct {
	Category string `json:"associationCategory"`
	TypeID   int    `json:"associationTypeId"`
}

// hsAssocPage is the v4 association list response.
type hsAssocPage struct {
	Results []hsAssocResult `json:"results"`
	Paging  *hsPaging       `json:"paging,omitempty"`
}

// hsAssocResult is one associated record (MultiAssociatedObjectWithLabel).
type hsAssocResult struct {
	ToObjectID       hsObjectID     `json:"toObjectId"`
	AssociationTypes []hsAssocLabel `json:"associationTypes"`
}

// hsAssocLabel is an association type as v4 read responses spell it; an
// unlabeled one has no label (the spec types label as a string, not null).
type hsAssocLabel struct {
	Category string  `json:"category"`
	TypeID   int     `json:"typeId"`
	Label    *string `json:"label,omitempty"`
}

// hsBatchResponse is the v4 default-association response.
type hsBatchResponse struct {
	Status      string              `json:"status"`
	Results     []hsAssocSpecResult `json:"results"`
	StartedAt   string              `json:"startedAt"`
	CompletedAt string              `json:"completedAt"`
}

// hsAssocSpecResult is one association written.
type hsAssocSpecResult struct {
	From            hsRef       `json:"from"`
	To              hsRef       `json:"to"`
	AssociationSpec hsAssocSpec `json:"associationSpec"`
}

// hsPipelines is the response of GET /crm/v3/pipelines/{objectType}.
type hsPipelines struct {
	Results []hsPipeline `json:"results"`
}

// hsPipeline is a deal or ticket pipeline.
type hsPipeline struct {
	ID           string            `json:"id"`
	Label        string            `json:"label"`
	DisplayOrder int               `json:"displayOrder"`
	Stages       []hsPipelineStage `json:"stages"`
	CreatedAt    string            `json:"createdAt"`
	UpdatedAt    string            `json:"updatedAt"`
	Archived     bool              `json:"archived"`
}

// hsPipelineStage is a stage; metadata values are strings ("0.2", "false").
// WritePermissions is one of CRM_PERMISSIONS_ENFORCEMENT, INTERNAL_ONLY and
// READ_ONLY; the 2026-03 spec requires it.
type hsPipelineStage struct {
	ID               string            `json:"id"`
	Label            string            `json:"label"`
	DisplayOrder     int               `json:"displayOrder"`
	Metadata         map[string]string `json:"metadata"`
	CreatedAt        string            `json:"createdAt"`
	UpdatedAt        string            `json:"updatedAt"`
	Archived         bool              `json:"archived"`
	WritePermissions string            `json:"writePermissions,omitempty"`
}

// hsProperties is the response of GET /crm/v3/properties/{objectType}.
type hsProperties struct {
	Results []hsProperty `json:"results"`
}

// hsProperty is a property definition.
type hsProperty struct {
	Name                 string         `json:"name"`
	Label                string         `json:"label"`
	Type                 string         `json:"type"`
	FieldType            string         `json:"fieldType"`
	Description          string         `json:"description"`
	GroupName            string         `json:"groupName"`
	Options              []hsOption     `json:"options"`
	DisplayOrder         int            `json:"displayOrder"`
	Calculated           bool           `json:"calculated"`
	ExternalOptions      bool           `json:"externalOptions"`
	HasUniqueValue       bool           `json:"hasUniqueValue"`
	Hidden               bool           `json:"hidden"`
	HubspotDefined       bool           `json:"hubspotDefined"`
	ModificationMetadata hsModification `json:"modificationMetadata"`
	FormField            bool           `json:"formField"`
}

// hsOption is an enumeration option.
type hsOption struct {
	Label        string `json:"label"`
	Value        string `json:"value"`
	DisplayOrder int    `json:"displayOrder"`
	Hidden       bool   `json:"hidden"`
}

// hsModification says whether a property can be written.
type hsModification struct {
	Archivable         bool `json:"archivable"`
	ReadOnlyDefinition bool `json:"readOnlyDefinition"`
	ReadOnlyValue      bool `json:"readOnlyValue"`
}

// hsError is HubSpot's error body.
type hsError struct {
	Status        string              `json:"status"`
	Message       string              `json:"message"`
	CorrelationID string              `json:"correlationId"`
	Category      string              `json:"category"`
	ErrorType     string              `json:"errorType,omitempty"`
	PolicyName    string              `json:"policyName,omitempty"`
	Context       map[string][]string `json:"context,omitempty"`
	Errors        []hsErrorDetail     `json:"errors,omitempty"`
}

// hsErrorDetail is one entry of an error body's errors list.
type hsErrorDetail struct {
	Message string              `json:"message"`
	Code    string              `json:"code,omitempty"`
	Context map[string][]string `json:"context,omitempty"`
}
