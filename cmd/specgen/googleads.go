package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// The Google Ads API publishes no discovery document that can be pinned to
// a commit; its description is the protos of googleapis/googleapis
// (google/ads/googleads/vNN). fromGoogleAdsProtos reads that directory of a
// checkout: the RPCs' google.api.http bindings give the operations, the
// messages their JSON (proto3 mapping: lowerCamelCase names, 64-bit integers
// as strings, enums as their names), and GoogleAdsRow the GAQL fields.
//
// GoogleAdsRow names some 250 resources, each with up to hundreds of
// fields, so the row and the resources, metrics and segments it reaches
// keep only the GAQL fields the target lists (and each resource's
// resource_name, which Google returns with every selected resource); the
// other messages are kept whole.
func fromGoogleAdsProtos(spec *apispec.Spec, dir string, t target) error {
	dir = filepath.Clean(dir)
	version := filepath.Base(dir)
	rel := filepath.Join("google", "ads", "googleads", version)
	root, ok := strings.CutSuffix(dir, rel)
	if !ok || !regexp.MustCompile(`^v[0-9]+$`).MatchString(version) {
		return fmt.Errorf("want the google/ads/googleads/vNN directory of a googleapis checkout")
	}
	ps := newProtoSet()
	if err := ps.loadDir(root, dir, "google/rpc/code.proto"); err != nil {
		return err
	}
	g := &adsGen{ps: ps, spec: spec, pkg: "google.ads.googleads." + version, keep: map[string]map[string]bool{}, whole: map[string]bool{}, pathFields: map[string][]string{}}
	spec.Version, spec.Title = version, serviceTitle(filepath.Join(dir, "googleads_"+version+".yaml"))
	facts, err := g.gaqlFields(t.gaql, t.gaqlDates)
	if err != nil {
		return err
	}
	for _, id := range t.operations {
		if err := g.operation(id); err != nil {
			return err
		}
	}
	for len(g.queue) > 0 {
		name := g.queue[0]
		g.queue = g.queue[1:]
		g.schema(name)
	}
	if len(g.unknown) > 0 {
		return fmt.Errorf("types defined in no file of the checkout: %s", strings.Join(g.unknown, ", "))
	}
	errorCodes, err := g.errorCodes(t.errorKinds)
	if err != nil {
		return err
	}
	statuses := ps.enums["google.rpc.Code"]
	if len(statuses) == 0 {
		return fmt.Errorf("google/rpc/code.proto is not in the checkout")
	}
	return errors.Join(setFact(spec, "gaql_fields", facts), setFact(spec, "error_codes", errorCodes),
		setFact(spec, "status_codes", statuses))
}

// errorCodes are the values of the ErrorCode kinds (request_error,
// query_error…) a GoogleAdsFailure carries, keyed by their JSON name.
func (g *adsGen) errorCodes(kinds []string) (map[string][]string, error) {
	msg := g.pkg + ".errors.ErrorCode"
	out := map[string][]string{}
	for _, kind := range kinds {
		f, ok := g.field(msg, kind)
		values := g.ps.enums[g.ps.resolve(f.Scope, f.Type)]
		if !ok || len(values) == 0 {
			return nil, fmt.Errorf("%s has no error kind %s", msg, kind)
		}
		out[apispec.ProtoJSONName(kind)] = values
	}
	return out, nil
}

// adsGen builds a spec from a protoSet.
type adsGen struct {
	ps   *protoSet
	spec *apispec.Spec
	pkg  string // google.ads.googleads.vNN
	// keep lists, for the row messages, the fields kept; whole marks
	// messages a GAQL name selects as a whole.
	keep  map[string]map[string]bool
	whole map[string]bool
	// pathFields are a request message's fields bound to the path, which
	// its body does not carry.
	pathFields map[string][]string
	queue      []string
	// unknown are types no file of the checkout defines.
	unknown []string
}

// gaqlField is one GAQL field as Google's GoogleAdsField describes it,
// derived from the protos.
type gaqlField struct {
	Category   string   `json:"category"`
	DataType   string   `json:"data_type"`
	TypeURL    string   `json:"type_url,omitempty"`
	IsRepeated bool     `json:"is_repeated,omitempty"`
	EnumValues []string `json:"enum_values,omitempty"`
}

// gaqlFields walks each GAQL name through GoogleAdsRow and the messages it
// reaches, marking the fields kept, and returns the facts of each name.
func (g *adsGen) gaqlFields(names, dates []string) (map[string]gaqlField, error) {
	row := g.pkg + ".services.GoogleAdsRow"
	dataTypes := g.ps.enums[g.pkg+".enums.GoogleAdsFieldDataTypeEnum.GoogleAdsFieldDataType"]
	out := map[string]gaqlField{}
	for _, name := range names {
		parts := strings.Split(name, ".")
		msg := row
		var fact gaqlField
		for i, part := range parts {
			f, ok := g.field(msg, part)
			if !ok {
				return nil, fmt.Errorf("GAQL field %s: %s has no field %s: the API moved on; read its release notes", name, msg, part)
			}
			g.mark(msg, part)
			typ := g.ps.resolve(f.Scope, f.Type)
			_, isMsg := g.ps.messages[typ]
			last := i == len(parts)-1
			switch {
			case i == 0 && strings.HasPrefix(typ, g.pkg+".resources."):
				g.mark(typ, "resource_name")
				fact.Category = "ATTRIBUTE"
				if last {
					fact = gaqlField{Category: "RESOURCE", DataType: "MESSAGE", TypeURL: typ}
				}
			case i == 0 && part == "metrics":
				fact.Category = "METRIC"
			case i == 0 && part == "segments":
				fact.Category = "SEGMENT"
			case i == 0:
				return nil, fmt.Errorf("GAQL field %s: %s is not a resource, metrics or segments", name, part)
			}
			if !last {
				if !isMsg {
					return nil, fmt.Errorf("GAQL field %s: %s is not a message", name, part)
				}
				msg = typ
				continue
			}
			if fact.Category == "RESOURCE" {
				break
			}
			if isMsg {
				g.whole[typ] = true
			}
			fact.DataType, fact.TypeURL = g.dataType(f, typ), typ
			fact.IsRepeated = f.Repeated
			fact.EnumValues = g.ps.enums[typ]
			if slices.Contains(dates, name) {
				fact.DataType = "DATE"
			}
			if !slices.Contains(dataTypes, fact.DataType) {
				return nil, fmt.Errorf("GAQL field %s: data type %s is not a GoogleAdsFieldDataType", name, fact.DataType)
			}
		}
		out[name] = fact
	}
	return out, nil
}

func (g *adsGen) field(msg, name string) (protoField, bool) {
	m, ok := g.ps.messages[msg]
	if !ok {
		return protoField{}, false
	}
	i := slices.IndexFunc(m.Fields, func(f protoField) bool { return f.Name == name })
	if i < 0 {
		return protoField{}, false
	}
	return m.Fields[i], true
}

func (g *adsGen) mark(msg, field string) {
	if g.keep[msg] == nil {
		g.keep[msg] = map[string]bool{}
	}
	g.keep[msg][field] = true
}

// dataType is a field's GoogleAdsFieldDataType.
func (g *adsGen) dataType(f protoField, typ string) string {
	if _, ok := g.ps.enums[typ]; ok {
		return "ENUM"
	}
	if _, ok := g.ps.messages[typ]; ok {
		return "MESSAGE"
	}
	switch f.Type {
	case "bool":
		return "BOOLEAN"
	case "double":
		return "DOUBLE"
	case "float":
		return "FLOAT"
	case "int32", "sint32", "sfixed32", "uint32", "fixed32":
		return "INT32"
	case "int64", "sint64", "sfixed64":
		return "INT64"
	case "uint64", "fixed64":
		return "UINT64"
	case "string":
		if f.ResourceRef || f.Name == "resource_name" {
			return "RESOURCE_NAME"
		}
	}
	return "STRING"
}

var httpVar = regexp.MustCompile(`\{([A-Za-z0-9_.]+)(?:=([^}]*))?\}`)

// operation adds the RPC id ("GoogleAdsService.Search") with its HTTP binding.
func (g *adsGen) operation(id string) error {
	svc, method, _ := strings.Cut(id, ".")
	i := slices.IndexFunc(g.ps.rpcs, func(r protoRPC) bool { return r.Service == svc && r.Name == method })
	if i < 0 {
		return nil // reported as missing by run
	}
	r := g.ps.rpcs[i]
	if r.Method == "" {
		return fmt.Errorf("%s has no google.api.http binding", id)
	}
	if len(r.Scopes) == 0 {
		return fmt.Errorf("%s: service %s declares no google.api.oauth_scopes", id, svc)
	}
	req := g.ps.resolve(r.Package, r.Request)
	op := apispec.Operation{ID: id, Method: r.Method, Scopes: slices.Sorted(slices.Values(r.Scopes))}
	op.Path = httpVar.ReplaceAllStringFunc(r.Path, func(v string) string {
		m := httpVar.FindStringSubmatch(v)
		p := apispec.Param{Name: m[1], In: "path", Required: true, Type: "string"}
		name := "{" + m[1] + "}"
		if m[2] != "" && m[2] != "*" {
			name = "{+" + m[1] + "}"
			p.Pattern = strings.NewReplacer("**", ".+", "*", "[^/]+").Replace(m[2])
		}
		op.Params = append(op.Params, p)
		g.pathFields[req] = append(g.pathFields[req], m[1])
		return name
	})
	switch r.Body {
	case "*":
		op.Request = g.ref(req)
	case "":
		return fmt.Errorf("%s: bodiless bindings (query parameters) are not supported", id)
	default:
		f, ok := g.field(req, r.Body)
		if !ok {
			return fmt.Errorf("%s: body field %s not in %s", id, r.Body, req)
		}
		op.Request = g.fieldSchema(f)
	}
	op.Response = g.ref(g.ps.resolve(r.Package, r.Response))
	g.spec.Operations = append(g.spec.Operations, op)
	return nil
}

// schemaName is a message's name in Spec.Schemas: without the API
// package's prefix ("resources.Campaign", "google.rpc.Status").
func (g *adsGen) schemaName(full string) string {
	return strings.TrimPrefix(full, g.pkg+".")
}

func (g *adsGen) ref(full string) *apispec.Schema {
	name := g.schemaName(full)
	if _, done := g.spec.Schemas[name]; !done && !slices.Contains(g.queue, full) {
		g.queue = append(g.queue, full)
	}
	return &apispec.Schema{Ref: name}
}

// schema adds message full to Spec.Schemas.
func (g *adsGen) schema(full string) {
	m := g.ps.messages[full]
	s := &apispec.Schema{Type: "object", Properties: map[string]*apispec.Schema{}}
	g.spec.Schemas[g.schemaName(full)] = s
	kept, pruned := g.keep[full]
	// Only the services' own messages are requests whose REQUIRED fields
	// every call carries; a resource's are required on create only.
	requests := strings.HasPrefix(full, g.pkg+".services.")
	for _, f := range m.Fields {
		if pruned && !g.whole[full] && !kept[f.Name] || slices.Contains(g.pathFields[full], f.Name) {
			continue
		}
		name := apispec.ProtoJSONName(f.Name)
		s.Properties[name] = g.fieldSchema(f)
		if requests && slices.Contains(f.Behaviors, "REQUIRED") {
			s.Required = append(s.Required, name)
		}
	}
}

// wellKnown are the google.protobuf types in their JSON form.
var wellKnown = map[string]*apispec.Schema{
	"google.protobuf.FieldMask":   {Type: "string", Format: "google-fieldmask"},
	"google.protobuf.Timestamp":   {Type: "string", Format: "date-time"},
	"google.protobuf.Duration":    {Type: "string", Format: "google-duration"},
	"google.protobuf.Any":         {Type: "object", Open: true},
	"google.protobuf.Struct":      {Type: "object", Open: true},
	"google.protobuf.Value":       {Type: "any"},
	"google.protobuf.Empty":       {Type: "object"},
	"google.protobuf.StringValue": {Type: "string"},
	"google.protobuf.BytesValue":  {Type: "string", Format: "byte"},
	"google.protobuf.BoolValue":   {Type: "boolean"},
	"google.protobuf.DoubleValue": {Type: "number", Format: "double"},
	"google.protobuf.FloatValue":  {Type: "number", Format: "float"},
	"google.protobuf.Int32Value":  {Type: "integer", Format: "int32"},
	"google.protobuf.UInt32Value": {Type: "integer", Format: "uint32"},
	"google.protobuf.Int64Value":  {Type: "string", Format: "int64"},
	"google.protobuf.UInt64Value": {Type: "string", Format: "uint64"},
}

// scalars are the proto scalar types in their JSON form.
var scalars = map[string]apispec.Schema{
	"double": {Type: "number", Format: "double"}, "float": {Type: "number", Format: "float"},
	"int32": {Type: "integer", Format: "int32"}, "sint32": {Type: "integer", Format: "int32"}, "sfixed32": {Type: "integer", Format: "int32"},
	"uint32": {Type: "integer", Format: "uint32"}, "fixed32": {Type: "integer", Format: "uint32"},
	"int64": {Type: "string", Format: "int64"}, "sint64": {Type: "string", Format: "int64"}, "sfixed64": {Type: "string", Format: "int64"},
	"uint64": {Type: "string", Format: "uint64"}, "fixed64": {Type: "string", Format: "uint64"},
	"bool": {Type: "boolean"}, "string": {Type: "string"}, "bytes": {Type: "string", Format: "byte"},
}

func (g *adsGen) fieldSchema(f protoField) *apispec.Schema {
	s := g.typeSchema(f.Scope, f.Type)
	switch {
	case f.MapKey != "":
		return &apispec.Schema{Type: "object", AdditionalProperties: s}
	case f.Repeated:
		return &apispec.Schema{Type: "array", Items: s}
	}
	return s
}

func (g *adsGen) typeSchema(scope, typ string) *apispec.Schema {
	if s, ok := scalars[typ]; ok {
		return &s
	}
	if s, ok := wellKnown[strings.TrimPrefix(typ, ".")]; ok {
		c := *s
		return &c
	}
	full := g.ps.resolve(scope, typ)
	if values, ok := g.ps.enums[full]; ok {
		return &apispec.Schema{Type: "string", Enum: values}
	}
	if _, ok := g.ps.messages[full]; ok {
		return g.ref(full)
	}
	g.unknown = append(g.unknown, typ+" (in "+scope+")")
	return &apispec.Schema{Type: "any"}
}

// setFact puts a provider-specific table in the spec.
func setFact(spec *apispec.Spec, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if spec.Facts == nil {
		spec.Facts = map[string]json.RawMessage{}
	}
	spec.Facts[name] = b
	return nil
}

// serviceTitle reads the title of an API's service configuration.
func serviceTitle(path string) string {
	b, _ := os.ReadFile(path)
	if m := regexp.MustCompile(`(?m)^title:\s*(.+)$`).FindSubmatch(b); m != nil {
		return strings.TrimSpace(string(m[1]))
	}
	return ""
}
