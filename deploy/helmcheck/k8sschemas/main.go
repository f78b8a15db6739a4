// Command k8sschemas writes the JSON schemas kubeconform validates the Helm
// chart's manifests against, from the OpenAPI (swagger 2.0) description of
// a Kubernetes release: one file for each kind the chart renders, every
// $ref inlined ("standalone") and every object closed to fields it does not
// declare ("strict"), named as kubeconform looks them up
// (v1.35.4-standalone-strict/deployment-apps-v1.json).
//
// It follows the conversion of openapi2jsonschema, which the schemas
// kubeconform downloads by default are made with: optional fields may be
// null, int-or-string and quantities take a string or a number, and the
// root's apiVersion and kind are pinned to the kind's own. Descriptions and
// x-kubernetes extensions are left out: they validate nothing.
//
// scripts/k8s-schemas.sh runs it on the swagger.json of the k8s.io/kubernetes
// module from the Go module proxy:
//
//	go run ./deploy/helmcheck/k8sschemas -spec swagger.json -version v1.35.4 \
//	  -out deploy/helmcheck/testdata/schemas Deployment.apps/v1 Service.v1 …
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	spec := flag.String("spec", "", "path of the release's api/openapi-spec/swagger.json")
	version := flag.String("version", "", "Kubernetes version the spec is from, such as v1.35.4")
	out := flag.String("out", "", "directory to write <version>-standalone-strict/ into")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: k8sschemas -spec swagger.json -version v1.35.4 -out DIR Kind.group/version…")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *spec == "" || *version == "" || *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*spec, *version, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "k8sschemas:", err)
		os.Exit(1)
	}
}

func run(specPath, version, out string, kinds []string) error {
	b, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %w", specPath, err)
	}
	dir := filepath.Join(out, version+"-standalone-strict")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, k := range kinds {
		gvk, err := parseKind(k)
		if err != nil {
			return err
		}
		name, def, err := gvk.find(doc.Definitions)
		if err != nil {
			return err
		}
		c := converter{defs: doc.Definitions}
		schema, err := c.convert(def, []string{name})
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		root := schema.(map[string]any)
		props := root["properties"].(map[string]any)
		props["apiVersion"] = map[string]any{"type": []any{"string", "null"}, "enum": []any{gvk.apiVersion()}}
		props["kind"] = map[string]any{"type": []any{"string", "null"}, "enum": []any{gvk.Kind}}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if err := enc.Encode(root); err != nil {
			return err
		}
		path := filepath.Join(dir, gvk.fileName())
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Printf("%s (%s, %d bytes)\n", path, name, buf.Len())
	}
	return nil
}

// groupVersionKind is one kind as the command line names it: Kind.group/version,
// or Kind.version for the core group.
type groupVersionKind struct{ Group, Version, Kind string }

func parseKind(s string) (groupVersionKind, error) {
	kind, gv, ok := strings.Cut(s, ".")
	if !ok || kind == "" || gv == "" {
		return groupVersionKind{}, fmt.Errorf("%q: want Kind.group/version or Kind.version (Deployment.apps/v1, Service.v1)", s)
	}
	g, v, ok := strings.Cut(gv, "/")
	if !ok {
		return groupVersionKind{Version: gv, Kind: kind}, nil
	}
	return groupVersionKind{Group: g, Version: v, Kind: kind}, nil
}

func (k groupVersionKind) apiVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// fileName is kubeconform's {{ .ResourceKind }}{{ .KindSuffix }}.json: the
// kind, the first label of the group and the version, lower-cased.
func (k groupVersionKind) fileName() string {
	parts := []string{strings.ToLower(k.Kind)}
	if k.Group != "" {
		parts = append(parts, strings.ToLower(strings.Split(k.Group, ".")[0]))
	}
	return strings.Join(append(parts, strings.ToLower(k.Version)), "-") + ".json"
}

// find returns the definition whose x-kubernetes-group-version-kind names k.
func (k groupVersionKind) find(defs map[string]map[string]any) (string, map[string]any, error) {
	var names []string
	for name, def := range defs {
		list, _ := def["x-kubernetes-group-version-kind"].([]any)
		for _, e := range list {
			m, _ := e.(map[string]any)
			if m["group"] == k.Group && m["version"] == k.Version && m["kind"] == k.Kind {
				names = append(names, name)
			}
		}
	}
	// Some definitions (DeleteOptions, WatchEvent) list every group; a kind
	// of its own has one definition.
	if len(names) != 1 {
		return "", nil, fmt.Errorf("%s: %d definitions name this kind (%v)", k.apiVersion()+" "+k.Kind, len(names), names)
	}
	return names[0], defs[names[0]], nil
}

type converter struct {
	defs map[string]map[string]any
}

const refPrefix = "#/definitions/"

// convert returns def with every $ref inlined; stack holds the definitions
// being inlined, to refuse a cycle (no kind the chart renders has one).
func (c *converter) convert(def map[string]any, stack []string) (any, error) {
	switch stack[len(stack)-1] {
	case "io.k8s.apimachinery.pkg.util.intstr.IntOrString":
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}, nil
	case "io.k8s.apimachinery.pkg.api.resource.Quantity":
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}, nil
	}
	return c.node(def, stack)
}

func (c *converter) node(n map[string]any, stack []string) (any, error) {
	if ref, ok := n["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, refPrefix)
		if !ok {
			return nil, fmt.Errorf("unexpected $ref %q", ref)
		}
		if slices.Contains(stack, name) {
			return nil, fmt.Errorf("cycle through %s: %v", name, stack)
		}
		def, ok := c.defs[name]
		if !ok {
			return nil, fmt.Errorf("no definition %s", name)
		}
		return c.convert(def, append(slices.Clip(stack), name))
	}
	out := map[string]any{}
	for k, v := range n {
		switch {
		case k == "description", strings.HasPrefix(k, "x-kubernetes-"), k == "format":
			continue
		case k == "properties":
			props := map[string]any{}
			required, _ := n["required"].([]any)
			for name, p := range v.(map[string]any) {
				conv, err := c.node(p.(map[string]any), stack)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				if !slices.Contains(required, any(name)) {
					conv = nullable(conv)
				}
				props[name] = conv
			}
			out[k] = props
		case k == "items":
			conv, err := c.node(v.(map[string]any), stack)
			if err != nil {
				return nil, fmt.Errorf("items: %w", err)
			}
			out[k] = conv
		case k == "additionalProperties":
			if m, ok := v.(map[string]any); ok {
				conv, err := c.node(m, stack)
				if err != nil {
					return nil, fmt.Errorf("additionalProperties: %w", err)
				}
				out[k] = conv
			} else {
				out[k] = v
			}
		case k == "allOf" || k == "oneOf" || k == "anyOf":
			var list []any
			for _, e := range v.([]any) {
				conv, err := c.node(e.(map[string]any), stack)
				if err != nil {
					return nil, err
				}
				list = append(list, conv)
			}
			out[k] = list
		default:
			out[k] = v
		}
	}
	// Strict: an object with declared fields takes no others.
	if _, ok := out["properties"]; ok {
		if _, set := out["additionalProperties"]; !set {
			out["additionalProperties"] = false
		}
	}
	// A definition with nothing but a description (RawExtension's free-form
	// content) comes out empty: it takes any value.
	return out, nil
}

// nullable lets an optional field be null, as YAML writes an empty value.
func nullable(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		return s
	}
	switch t := m["type"].(type) {
	case string:
		m["type"] = []any{t, "null"}
	case nil:
		if one, ok := m["oneOf"].([]any); ok {
			m["oneOf"] = append(slices.Clone(one), map[string]any{"type": "null"})
		}
	}
	return m
}
