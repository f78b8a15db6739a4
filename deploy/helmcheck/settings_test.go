package helmcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/config"
	"go.yaml.in/yaml/v3"
)

// chartSets are the settings the chart sets itself rather than through
// config, and the value that sets each.
var chartSets = map[string]string{
	"GTMGATE_SITE_ADDR":                  "site.enabled, site.containerPort",
	"GTMGATE_GATEWAY_ADDR":               "gateway.containerPort",
	"GTMGATE_DOCS_ADDR":                  "docs.enabled, docs.containerPort",
	"SITE_URL":                           "site.url or site.ingress.host",
	"GATEWAY_URL":                        "gateway.url or gateway.ingress.host",
	"DOCS_URL":                           "docs.url or docs.ingress.host",
	"GTMGATE_DATA_DIR":                   "always /data: persistence",
	"GTMGATE_AUDIT_JOURNAL":              "auditJournal",
	"DATABASE_URL":                       "secrets.DATABASE_URL",
	"GTMGATE_ENCRYPTION_KEY":             "secrets.GTMGATE_ENCRYPTION_KEY",
	"ADMIN_API_KEY":                      "secrets.ADMIN_API_KEY",
	"MODEL_GATEWAY_API_KEY":              "secrets.MODEL_GATEWAY_API_KEY",
	"GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN": "secrets.GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN",
	"ALERT_WEBHOOK_SECRET":               "secrets.ALERT_WEBHOOK_SECRET",
	"GTMGATE_UPSTREAM_<PROVIDER>":        "config's pattern GTMGATE_UPSTREAM_[A-Z0-9_]+",
}

// notForOperators are settings for tests and development, left to extraEnv.
var notForOperators = map[string]string{
	"GTMGATE_WEBFETCH_ALLOW_LOOPBACK":       "tests only",
	"GTMGATE_ALLOW_INSECURE_TOKEN_ENDPOINT": "tests only",
	"GTMGATE_WATCH":                         "reloads content trees from files being edited: development",
}

// configSchema is values.schema.json's config property.
type configSchema struct {
	Properties map[string]struct {
		Type        string   `json:"type"`
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
	} `json:"properties"`
}

func readConfigSchema(t *testing.T) configSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), chartDir, "values.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Config configSchema `json:"config"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("values.schema.json: %v", err)
	}
	return s.Properties.Config
}

// TestEverySettingHasAValue holds the chart to the README's configuration
// table: each setting is a property of config in values.schema.json, set by
// the chart, or named here as not for operators; and config has no property
// gtmgate does not read.
func TestEverySettingHasAValue(t *testing.T) {
	schema := readConfigSchema(t)
	known := map[string]bool{}
	for _, s := range config.Settings() {
		known[s.Env] = true
		_, inConfig := schema.Properties[s.Env]
		_, set := chartSets[s.Env]
		_, left := notForOperators[s.Env]
		switch {
		case inConfig && (set || left):
			t.Errorf("%s is in values.schema.json's config and also set by the chart or left out: one place only", s.Env)
		case !inConfig && !set && !left:
			t.Errorf("the setting %s has no chart value: add it to config's properties in deploy/helm/gtmgate/values.schema.json "+
				"(type and description: %q), or to chartSets or notForOperators in deploy/helmcheck/settings_test.go", s.Env, s.Meaning)
		}
	}
	for name := range schema.Properties {
		if !known[name] {
			t.Errorf("values.schema.json's config has %s, which gtmgate does not read", name)
		}
	}
	for name := range chartSets {
		if !known[name] {
			t.Errorf("chartSets names %s, which gtmgate does not read", name)
		}
	}
}

// settingDefaultsFile writes a values file setting every config property
// to gtmgate's own default for it, typed as the schema says: the chart must
// accept each default and pass it on unchanged. It returns the file and the
// defaults it holds, by setting.
func settingDefaultsFile(t *testing.T) (string, map[string]string) {
	t.Helper()
	schema := readConfigSchema(t)
	values, defaults := map[string]any{}, map[string]string{}
	for _, s := range config.Settings() {
		p, ok := schema.Properties[s.Env]
		if !ok || s.Default == "" || strings.HasPrefix(s.Default, "(") {
			continue
		}
		var v any = s.Default
		var err error
		switch p.Type {
		case "boolean":
			v, err = strconv.ParseBool(s.Default)
		case "integer":
			v, err = strconv.ParseInt(s.Default, 10, 64)
		case "number":
			v, err = strconv.ParseFloat(s.Default, 64)
		}
		if err != nil {
			t.Fatalf("%s: its default %q is not a %s, the type values.schema.json gives it", s.Env, s.Default, p.Type)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s.Default) {
			t.Errorf("%s: its default %q is not one of values.schema.json's %v", s.Env, s.Default, p.Enum)
		}
		values[s.Env], defaults[s.Env] = v, s.Default
	}
	b, err := yaml.Marshal(map[string]any{"config": values})
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, "setting-defaults.yaml", string(b)), defaults
}
