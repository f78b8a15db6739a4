// Package openapi builds the OpenAPI 3.1 descriptions gtmgate serves: the
// site's read surface (from its content tree) and the gateway's REST proxy,
// chat, health and admin API (from its registered routes and, for the tool
// call bodies, from the tool registry). Nothing in them is hand-copied from
// elsewhere; the descriptions of operations live in one table per surface,
// and a test holds each table to the routes that exist.
package openapi

import "encoding/json"

// Document is an OpenAPI 3.1 document, as much of it as gtmgate uses.
type Document struct {
	OpenAPI    string               `json:"openapi"`
	Info       Info                 `json:"info"`
	Servers    []Server             `json:"servers,omitempty"`
	Paths      map[string]*PathItem `json:"paths"`
	Components *Components          `json:"components,omitempty"`
	// Security is the default requirement; an empty list means none.
	Security []map[string][]string `json:"security"`
	Tags     []Tag                 `json:"tags,omitempty"`
}

// Info describes the API.
type Info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
}

// Server is a base URL.
type Server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Tag groups operations.
type Tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// PathItem holds the operations of one path by lower-case method.
type PathItem map[string]*Operation

// Operation is one method on one path.
type Operation struct {
	OperationID string                `json:"operationId"`
	Summary     string                `json:"summary"`
	Description string                `json:"description,omitempty"`
	Tags        []string              `json:"tags,omitempty"`
	Parameters  []Parameter           `json:"parameters,omitempty"`
	RequestBody *RequestBody          `json:"requestBody,omitempty"`
	Responses   map[string]*Response  `json:"responses"`
	Security    []map[string][]string `json:"security,omitempty"`
}

// Parameter is a path, query or header parameter.
type Parameter struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Required    bool   `json:"required,omitempty"`
	Description string `json:"description,omitempty"`
	Schema      Schema `json:"schema"`
}

// RequestBody is an operation's body.
type RequestBody struct {
	Required bool                 `json:"required"`
	Content  map[string]MediaType `json:"content"`
}

// Response is one status's answer.
type Response struct {
	Description string               `json:"description"`
	Content     map[string]MediaType `json:"content,omitempty"`
	Headers     map[string]Header    `json:"headers,omitempty"`
}

// Header is a response header.
type Header struct {
	Description string `json:"description,omitempty"`
	Schema      Schema `json:"schema"`
}

// MediaType carries a schema.
type MediaType struct {
	Schema Schema `json:"schema"`
}

// Components holds reusable schemas and security schemes.
type Components struct {
	Schemas         map[string]Schema         `json:"schemas,omitempty"`
	SecuritySchemes map[string]SecurityScheme `json:"securitySchemes,omitempty"`
}

// SecurityScheme is how a caller authenticates.
type SecurityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme,omitempty"`
	In          string `json:"in,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// Schema is a JSON Schema (2020-12, as OpenAPI 3.1 uses it) in its JSON form.
type Schema = map[string]any

// ref points at a component schema.
func ref(name string) Schema { return Schema{"$ref": "#/components/schemas/" + name} }

// JSON encodes d, indented: it is read by people as much as by tools.
func (d *Document) JSON() ([]byte, error) { return json.MarshalIndent(d, "", "  ") }

// add puts op at method and path.
func (d *Document) add(method, path string, op *Operation) {
	item := d.Paths[path]
	if item == nil {
		item = &PathItem{}
		d.Paths[path] = item
	}
	(*item)[method] = op
}

func jsonContent(s Schema) map[string]MediaType {
	return map[string]MediaType{"application/json": {Schema: s}}
}
