package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/config"
)

var updateSkeleton = flag.Bool("update", false, "rewrite testdata/skeleton.json from the current tools")

// prose are the keywords that only annotate: they change what a reader is
// told, never which inputs a schema accepts.
var prose = map[string]bool{"description": true, "title": true, "examples": true}

// TestValidationSkeleton pins what every built-in tool accepts: its input
// schema with the prose taken out (properties, types, enums, formats,
// bounds, patterns, required lists, additionalProperties), each action's
// required properties, and the skeleton of its output schema. Shortening a
// description leaves it unchanged; changing what a tool accepts or returns
// must be deliberate, with -update.
//
// A root "$schema" is left out of the skeleton: the only one the registry
// writes is 2020-12, which is also the dialect MCP (2025-11-25) and the
// validator assume without one; the test checks that.
func TestValidationSkeleton(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.SiteAddr, cfg.GatewayAddr, cfg.DocsAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	a, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler), "test")
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })

	got := map[string]any{}
	for _, e := range a.Registry().Tools() {
		in := skeleton(t, e.Schema).(map[string]any)
		if d, ok := in["$schema"]; ok && d != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema %v, want 2020-12 or none", e.Name, d)
		}
		delete(in, "$schema")
		actions := map[string]any{}
		for _, act := range e.Actions {
			actions[act.Name] = act.Required
		}
		got[e.Name] = map[string]any{"input": in, "actions": actions, "output": skeleton(t, e.Output)}
	}
	b, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "skeleton.json")
	if *updateSkeleton {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if diff := cmp.Diff(string(bytes.TrimSpace(want)), string(b)); diff != "" {
		t.Errorf("what the built-in tools accept or return changed (-want +got):\n%s", diff)
	}
}

// skeleton returns v (a schema) as JSON values without its prose keywords.
// Property names are keys of "properties", never keywords, so a property
// called "description" or "title" stays.
func skeleton(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return strip(m)
}

func strip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch {
			case k == "properties":
				props := map[string]any{}
				for name, p := range x.(map[string]any) {
					props[name] = strip(p)
				}
				out[k] = props
			case !prose[k]:
				out[k] = strip(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = strip(x)
		}
		return out
	}
	return v
}
