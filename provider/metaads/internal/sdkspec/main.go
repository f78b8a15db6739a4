// Command sdkspec writes provider/metaads/apispec.json, the facts of the
// Marketing API calls the metaads adapter makes, from the Java classes that
// Meta's codegen generates into facebook/facebook-java-business-sdk: each
// APIRequest's PARAMS and typed setters give an operation's parameters and
// their types and enums, each node class's @SerializedName fields give its
// JSON fields and their types. Meta publishes no OpenAPI or discovery
// document; these generated classes are its machine-readable description.
//
//	git -C facebook-java-business-sdk archive v26.0.0 src/main/java/com/facebook/ads/sdk | tar -x -C /tmp/fbsdk
//	go run ./provider/metaads/internal/sdkspec -sdk /tmp/fbsdk/src/main/java/com/facebook/ads/sdk \
//	    -tag v26.0.0 -commit a73f92d1d0df9982954a0e754ba297cd535d7ff0 -retrieved 2026-11-25 -out provider/metaads/apispec.json
//
// Four facts the SDK does not carry are written from Graph API reference
// pages, each cited in the file's "sources" fact: the list envelope and its
// cursor parameters, the error envelope, the {"success": true} answer to a
// node update, and the permissions (OAuth scopes) that admit each call.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// operation is one SDK request class the adapter's calls go through.
type operation struct {
	id, class, request, path string
	paging                   bool   // an edge read: cursor parameters and the list envelope
	item                     string // the class of the answer (of its items for an edge)
	form                     bool   // a change sent as form fields
	scopes                   []string
}

// The permissions (OAuth scopes) that admit a call, from Meta's permissions
// reference (sources "scopes"): ads_read reads ads data, ads_management
// reads and changes it. The SDK does not carry them.
var (
	readScopes   = []string{"ads_management", "ads_read"}
	changeScopes = []string{"ads_management"}
)

var operations = []operation{
	{id: "AdAccount.api_get", class: "AdAccount", request: "APIRequestGet", path: "/act_{adAccountId}", item: "AdAccount", scopes: readScopes},
	{id: "AdAccount.get_insights", class: "AdAccount", request: "APIRequestGetInsights", path: "/act_{adAccountId}/insights", paging: true, item: "AdsInsights", scopes: readScopes},
	{id: "AdAccount.get_campaigns", class: "AdAccount", request: "APIRequestGetCampaigns", path: "/act_{adAccountId}/campaigns", paging: true, item: "Campaign", scopes: readScopes},
	{id: "Campaign.api_get", class: "Campaign", request: "APIRequestGet", path: "/{campaignId}", item: "Campaign", scopes: readScopes},
	{id: "Campaign.api_update", class: "Campaign", request: "APIRequestUpdate", path: "/{campaignId}", form: true, scopes: changeScopes},
}

// schemaClasses are the node classes whose fields are transcribed; any other
// class a field names is an object whose fields are not (open).
var schemaClasses = []string{"AdAccount", "AdsInsights", "AdsActionStats", "AdsHistogramStats", "Campaign"}

// sources are the reference pages of the facts the SDK does not carry.
var sources = map[string]string{
	"paging":              "https://developers.facebook.com/docs/graph-api/results",
	"GraphError":          "https://developers.facebook.com/docs/graph-api/guides/error-handling",
	"Campaign.api_update": "https://developers.facebook.com/docs/marketing-api/reference/ad-campaign-group#Updating",
	"scopes":              "https://developers.facebook.com/docs/permissions (ads_read, ads_management)",
}

func main() {
	sdk := flag.String("sdk", "", "directory of the SDK's com/facebook/ads/sdk Java sources")
	tag := flag.String("tag", "v26.0.0", "SDK tag the sources are from")
	commit := flag.String("commit", "", "SDK commit of that tag")
	retrieved := flag.String("retrieved", "", "day the sources were read (YYYY-MM-DD)")
	out := flag.String("out", "provider/metaads/apispec.json", "file to write")
	flag.Parse()
	if *sdk == "" || *commit == "" || *retrieved == "" {
		fmt.Fprintln(os.Stderr, "usage: sdkspec -sdk DIR -tag TAG -commit SHA -retrieved YYYY-MM-DD [-out FILE]")
		os.Exit(2)
	}
	spec, err := build(*sdk, *tag, *commit, *retrieved)
	if err == nil {
		err = write(*out, spec)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkspec:", err)
		os.Exit(1)
	}
}

func build(dir, tag, commit, retrieved string) (*apispec.Spec, error) {
	classes := map[string]*class{}
	load := func(name string) (*class, error) {
		if c := classes[name]; c != nil {
			return c, nil
		}
		b, err := os.ReadFile(filepath.Join(dir, name+".java"))
		if err != nil {
			return nil, err
		}
		c := parseClass(name, string(b))
		classes[name] = c
		return c, nil
	}
	for _, name := range schemaClasses {
		if _, err := load(name); err != nil {
			return nil, err
		}
	}
	version := "v" + strings.TrimSuffix(strings.TrimPrefix(tag, "v"), ".0")
	spec := &apispec.Spec{Provider: "meta_ads", Title: "Meta Marketing API", Version: version, PathVersion: true,
		Source: "https://github.com/facebook/facebook-java-business-sdk/tree/" + tag + "/src/main/java/com/facebook/ads/sdk",
		Commit: commit, Revision: tag, Retrieved: retrieved, Schemas: map[string]*apispec.Schema{},
		// APIRequest sends these with every call (appsecret_proof when the
		// context has an app secret; fields when fields are requested).
		GlobalParams: []apispec.Param{{Name: "access_token", In: "query", Type: "string"}, {Name: "appsecret_proof", In: "query", Type: "string"},
			{Name: "fields", In: "query", Type: "string"}}}
	enums := func(owner, typ string) []string {
		cls, name := owner, typ
		if a, b, ok := strings.Cut(typ, "."); ok {
			cls, name = a, b
		}
		if c, err := load(cls); err == nil {
			return c.enums[name]
		}
		return nil
	}
	for _, name := range schemaClasses {
		c := classes[name]
		sc := &apispec.Schema{Type: "object", Properties: map[string]*apispec.Schema{}}
		for _, f := range c.fields {
			sc.Properties[f.name] = fieldSchema(name, f.typ, enums, spec.Schemas)
		}
		spec.Schemas[name] = sc
	}
	spec.Schemas["Paging"] = &apispec.Schema{Type: "object", Properties: map[string]*apispec.Schema{
		"cursors": {Type: "object", Properties: map[string]*apispec.Schema{"before": {Type: "string"}, "after": {Type: "string"}}},
		"next":    {Type: "string"}, "previous": {Type: "string"}}}
	spec.Schemas["GraphError"] = &apispec.Schema{Type: "object", Required: []string{"error"}, Properties: map[string]*apispec.Schema{
		"error": {Type: "object", Required: []string{"message", "type", "code"}, Properties: map[string]*apispec.Schema{
			"message": {Type: "string"}, "type": {Type: "string"}, "code": {Type: "integer"}, "error_subcode": {Type: "integer"},
			"error_user_title": {Type: "string"}, "error_user_msg": {Type: "string"}, "fbtrace_id": {Type: "string"},
			"is_transient": {Type: "boolean"}, "error_data": {Type: "any"}}}}}
	// The values each element of a list parameter takes.
	listEnums := map[string]map[string][]string{}
	for _, o := range operations {
		c, err := load(o.class)
		if err != nil {
			return nil, err
		}
		req := c.requests[o.request]
		if req == nil {
			return nil, fmt.Errorf("%s.%s: no such request class", o.class, o.request)
		}
		op := apispec.Operation{ID: o.id, Method: req.method, Path: "/" + version + o.path, Scopes: o.scopes}
		for _, v := range templateVars(o.path) {
			op.Params = append(op.Params, apispec.Param{Name: v, In: "path", Required: true, Type: "string"})
		}
		for _, p := range req.params {
			param, listEnum := paramOf(o.class, p, req.setters[p], enums)
			op.Params = append(op.Params, param)
			if listEnum != nil {
				if listEnums[o.id] == nil {
					listEnums[o.id] = map[string][]string{}
				}
				listEnums[o.id][p] = listEnum
			}
		}
		switch {
		case o.paging:
			for _, p := range []string{"limit", "after", "before"} {
				if !slices.Contains(req.params, p) {
					typ := "string"
					if p == "limit" {
						typ = "integer"
					}
					op.Params = append(op.Params, apispec.Param{Name: p, In: "query", Type: typ})
				}
			}
			list := o.item + "List"
			spec.Schemas[list] = &apispec.Schema{Type: "object", Required: []string{"data"}, Properties: map[string]*apispec.Schema{
				"data": {Type: "array", Items: &apispec.Schema{Ref: o.item}}, "paging": {Ref: "Paging"}, "summary": {Type: "any"}}}
			op.Response = &apispec.Schema{Ref: list}
		case o.form:
			op.RequestType = "application/x-www-form-urlencoded"
			op.Response = &apispec.Schema{Type: "object", Required: []string{"success"}, Properties: map[string]*apispec.Schema{"success": {Type: "boolean"}}}
		default:
			op.Response = &apispec.Schema{Ref: o.item}
		}
		spec.Operations = append(spec.Operations, op)
	}
	src, _ := json.Marshal(sources)
	lists, _ := json.Marshal(listEnums)
	spec.Facts = map[string]json.RawMessage{"sources": src, "list_param_enums": lists}
	return spec, nil
}

func write(path string, spec *apispec.Spec) error {
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return err
	}
	if _, err := apispec.Parse(b); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

var templateVar = regexp.MustCompile(`\{([A-Za-z]+)\}`)

func templateVars(path string) []string {
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(path, -1) {
		out = append(out, m[1])
	}
	return out
}

// class is what one generated Java class declares.
type class struct {
	fields   []field
	enums    map[string][]string // EnumStatus → values
	requests map[string]*request // APIRequestGetInsights → …
}

type field struct{ name, typ string }

type request struct {
	method  string
	params  []string
	setters map[string]string // param → the Java type of its typed setter
}

var (
	fieldDecl   = regexp.MustCompile(`@SerializedName\((?:value=)?"([A-Za-z0-9_]+)"[^)]*\)\s*private\s+([A-Za-z0-9_.<>, ]+?)\s+m[A-Za-z0-9_]*\s*=\s*null;`)
	enumDecl    = regexp.MustCompile(`public static enum (Enum[A-Za-z0-9_]+) \{([^}]*)\}`)
	enumValue   = regexp.MustCompile(`VALUE_[A-Za-z0-9_]*\("([^"]*)"\)`)
	requestDecl = regexp.MustCompile(`public static class (APIRequest[A-Za-z0-9_]*) extends APIRequest<`)
	paramsDecl  = regexp.MustCompile(`PARAMS = \{([^}]*)\}`)
	quoted      = regexp.MustCompile(`"([^"]+)"`)
	endpoint    = regexp.MustCompile(`super\(context, nodeId, "([^"]*)", "([A-Z]+)"`)
	setterDecl  = regexp.MustCompile(`public APIRequest[A-Za-z0-9_]* set[A-Za-z0-9_]* \(([A-Za-z0-9_.<>, ]+) [A-Za-z0-9_]+\) \{\s*this\.setParam\("([A-Za-z0-9_]+)"`)
)

func parseClass(name, src string) *class {
	c := &class{enums: map[string][]string{}, requests: map[string]*request{}}
	// The node's own fields come before its first nested class.
	head := src
	if i := strings.Index(src, "protected static Gson gson"); i > 0 {
		head = src[:i]
	}
	for _, m := range fieldDecl.FindAllStringSubmatch(head, -1) {
		c.fields = append(c.fields, field{m[1], strings.TrimSpace(m[2])})
	}
	for _, m := range enumDecl.FindAllStringSubmatch(src, -1) {
		for _, v := range enumValue.FindAllStringSubmatch(m[2], -1) {
			c.enums[m[1]] = append(c.enums[m[1]], v[1])
		}
	}
	starts := requestDecl.FindAllStringSubmatchIndex(src, -1)
	for i, s := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		body := src[s[0]:end]
		r := &request{setters: map[string]string{}}
		if m := paramsDecl.FindStringSubmatch(body); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				r.params = append(r.params, q[1])
			}
		}
		if m := endpoint.FindStringSubmatch(body); m != nil {
			r.method = m[2]
		}
		for _, m := range setterDecl.FindAllStringSubmatch(body, -1) {
			// Every parameter has a String setter besides its typed one.
			if typ := strings.TrimSpace(m[1]); typ != "String" || r.setters[m[2]] == "" {
				r.setters[m[2]] = typ
			}
		}
		c.requests[src[s[2]:s[3]]] = r
	}
	return c
}

// fieldSchema maps a field's Java type to its JSON shape.
func fieldSchema(owner, typ string, enums func(owner, typ string) []string, schemas map[string]*apispec.Schema) *apispec.Schema {
	switch {
	case typ == "String":
		return &apispec.Schema{Type: "string"}
	case typ == "Boolean":
		return &apispec.Schema{Type: "boolean"}
	case typ == "Long" || typ == "Integer":
		return &apispec.Schema{Type: "integer"}
	case typ == "Double" || typ == "Float":
		return &apispec.Schema{Type: "number"}
	case typ == "Object" || typ == "JsonObject" || typ == "JsonArray":
		return &apispec.Schema{Type: "any"}
	case strings.HasPrefix(typ, "List<") && strings.HasSuffix(typ, ">"):
		return &apispec.Schema{Type: "array", Items: fieldSchema(owner, typ[5:len(typ)-1], enums, schemas)}
	case strings.HasPrefix(typ, "Map<") && strings.HasSuffix(typ, ">"):
		_, val, _ := strings.Cut(typ[4:len(typ)-1], ",")
		return &apispec.Schema{Type: "object", AdditionalProperties: fieldSchema(owner, strings.TrimSpace(val), enums, schemas)}
	case strings.HasPrefix(typ, "Enum") || strings.Contains(typ, ".Enum"):
		return &apispec.Schema{Type: "string", Enum: enums(owner, typ)}
	}
	if !slices.Contains(schemaClasses, typ) && schemas[typ] == nil {
		// A node or struct class whose fields are not transcribed here.
		schemas[typ] = &apispec.Schema{Type: "object", Open: true}
	}
	return &apispec.Schema{Ref: typ}
}

// paramOf maps a request parameter's typed setter to its wire form. Graph
// takes every parameter as text: a list as a JSON array or comma-separated,
// an object as JSON. The values of a list of enum values are returned apart
// (the "list_param_enums" fact): a parameter's enum is its whole value's.
func paramOf(owner, name, typ string, enums func(owner, typ string) []string) (apispec.Param, []string) {
	p := apispec.Param{Name: name, In: "query", Type: "string"}
	var list []string
	switch {
	case typ == "Boolean":
		p.Type = "boolean"
	case typ == "Long" || typ == "Integer":
		p.Type = "integer"
	case typ == "Double" || typ == "Float":
		p.Type = "number"
	case strings.HasPrefix(typ, "List<"):
		list = enums(owner, strings.TrimSuffix(typ[5:], ">"))
	case strings.HasPrefix(typ, "Enum") || strings.Contains(typ, ".Enum"):
		p.Enum = enums(owner, typ)
	}
	return p, list
}
