package helmcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/config"
)

// publicGatewayPaths are the gateway's routes for callers outside the
// cluster: tool calls, MCP, chat, OAuth for MCP clients, the provider
// connect pages. The console, the admin API, /metrics and /health are not.
var publicGatewayPaths = []string{"/api/", "/mcp", "/v1/", "/oauth/", "/.well-known/", "/connect/"}

func TestLint(t *testing.T) {
	for _, f := range []string{"examples/sqlite.yaml", "examples/postgresql.yaml"} {
		out, err := run(t, "helm", "lint", "--strict", chartDir, "-f", filepath.Join(chartDir, f), "--kube-version", kubeVersion)
		if err != nil {
			t.Fatalf("helm lint -f %s: %v", f, err)
		}
		if !strings.Contains(out, "0 chart(s) failed") {
			t.Fatalf("helm lint -f %s:\n%s", f, out)
		}
	}
}

// TestRender renders the chart for each case, validates every manifest
// against the Kubernetes schemas, and checks what the case is about.
func TestRender(t *testing.T) {
	pg := filepath.Join(chartDir, "examples", "postgresql.yaml")
	sqlite := filepath.Join(chartDir, "examples", "sqlite.yaml")
	defaults, settingDefaults := settingDefaultsFile(t)
	cases := []struct {
		name  string
		args  []string
		check func(t *testing.T, objs []object)
	}{
		{"defaults: one replica on SQLite", []string{"--set", "secrets.name=gtmgate"}, func(t *testing.T, objs []object) {
			d := deployment(t, objs)
			wantEqual(t, "replicas", get(d, "spec", "replicas"), 1)
			wantEqual(t, "strategy", get(d, "spec", "strategy", "type"), "Recreate")
			wantEqual(t, "data volume's claim", get(volume(t, d, "data"), "persistentVolumeClaim", "claimName"), "gtmgate-data")
			wantEqual(t, "GTMGATE_AUDIT_JOURNAL", env(t, d)["GTMGATE_AUDIT_JOURNAL"], "true")
			wantCount(t, objs, map[string]int{"PersistentVolumeClaim": 1, "Service": 3, "Ingress": 0, "PodDisruptionBudget": 0})
			if _, ok := env(t, d)["GATEWAY_URL"]; ok {
				t.Error("GATEWAY_URL is set without a url or an ingress host")
			}
		}},
		{"example: one replica on SQLite, gateway ingress", []string{"-f", sqlite}, func(t *testing.T, objs []object) {
			wantCount(t, objs, map[string]int{"PersistentVolumeClaim": 1, "Ingress": 1})
			wantEqual(t, "GATEWAY_URL", env(t, deployment(t, objs))["GATEWAY_URL"], "https://gateway.example.com")
			wantEqual(t, "gateway ingress paths", ingressPaths(t, objs, "gtmgate-gateway"), publicGatewayPaths)
		}},
		{"example: three replicas on PostgreSQL, ingresses on", []string{"-f", pg}, func(t *testing.T, objs []object) {
			d := deployment(t, objs)
			wantEqual(t, "replicas", get(d, "spec", "replicas"), 3)
			wantEqual(t, "strategy", get(d, "spec", "strategy", "type"), "RollingUpdate")
			wantEqual(t, "maxUnavailable", get(d, "spec", "strategy", "rollingUpdate", "maxUnavailable"), 0)
			if get(volume(t, d, "data"), "emptyDir") == nil {
				t.Error("the data directory is not an emptyDir")
			}
			e := env(t, d)
			wantEqual(t, "GTMGATE_AUDIT_JOURNAL", e["GTMGATE_AUDIT_JOURNAL"], "false")
			wantEqual(t, "DATABASE_URL_FILE", e["DATABASE_URL_FILE"], "/run/secrets/gtmgate/DATABASE_URL")
			for name, url := range map[string]string{"SITE_URL": "https://www.example.com", "GATEWAY_URL": "https://gateway.example.com", "DOCS_URL": "https://docs.example.com"} {
				wantEqual(t, name, e[name], url)
			}
			wantCount(t, objs, map[string]int{"PersistentVolumeClaim": 0, "Service": 3, "Ingress": 3, "PodDisruptionBudget": 1})
			wantEqual(t, "gateway ingress paths", ingressPaths(t, objs, "gtmgate-gateway"), publicGatewayPaths)
			wantEqual(t, "site ingress paths", ingressPaths(t, objs, "gtmgate-site"), []string{"/"})
		}},
		{"three replicas on PostgreSQL, ingresses off", []string{"-f", pg, "--set", "site.ingress.enabled=false,gateway.ingress.enabled=false,docs.ingress.enabled=false"}, func(t *testing.T, objs []object) {
			wantCount(t, objs, map[string]int{"Ingress": 0, "Service": 3, "PodDisruptionBudget": 1})
			if _, ok := env(t, deployment(t, objs))["GATEWAY_URL"]; ok {
				t.Error("GATEWAY_URL is set without a url or an ingress host")
			}
		}},
		{"site and docs listeners off", []string{"--set", "secrets.name=gtmgate,site.enabled=false,docs.enabled=false"}, func(t *testing.T, objs []object) {
			wantCount(t, objs, map[string]int{"Service": 1})
			e := env(t, deployment(t, objs))
			wantEqual(t, "GTMGATE_SITE_ADDR", e["GTMGATE_SITE_ADDR"], "off")
			wantEqual(t, "GTMGATE_DOCS_ADDR", e["GTMGATE_DOCS_ADDR"], "off")
		}},
		{"every option, every setting at its default", []string{"-f", "deploy/helmcheck/testdata/values-full.yaml", "-f", defaults}, func(t *testing.T, objs []object) {
			wantCount(t, objs, map[string]int{"Ingress": 4, "PersistentVolumeClaim": 0, "ServiceAccount": 0})
			wantEqual(t, "console ingress paths", ingressPaths(t, objs, "gtmgate-console"), []string{"/console", "/admin/"})
			wantEqual(t, "gateway ingress paths", ingressPaths(t, objs, "gtmgate-gateway"), append(slices.Clone(publicGatewayPaths), "/console/sso/", "/openapi.json"))
			d := deployment(t, objs)
			e := env(t, d)
			// Whole numbers as written, not 1.048576e+06.
			wantEqual(t, "GTMGATE_MAX_BODY_BYTES", e["GTMGATE_MAX_BODY_BYTES"], "1048576")
			wantEqual(t, "GRADER_SAMPLE_RATE", e["GRADER_SAMPLE_RATE"], "0.1")
			wantEqual(t, "OTEL_EXPORTER_OTLP_ENDPOINT", e["OTEL_EXPORTER_OTLP_ENDPOINT"], "http://otel-collector.observability:4318")
			wantEqual(t, "OTEL_RESOURCE_ATTRIBUTES", e["OTEL_RESOURCE_ATTRIBUTES"], "k8s.namespace.name=$(POD_NAMESPACE),k8s.pod.name=$(POD_NAME),deployment.environment.name=production")
			wantEqual(t, "data volume's claim", get(volume(t, d, "data"), "persistentVolumeClaim", "claimName"), "gtmgate-data-existing")
			wantEqual(t, "GTMGATE_AUDIT_JOURNAL", e["GTMGATE_AUDIT_JOURNAL"], "false")
			if _, ok := e["MODEL_GATEWAY_API_KEY_FILE"]; !ok {
				t.Error("MODEL_GATEWAY_API_KEY_FILE is not set")
			}
			for _, s := range config.Settings() {
				if v, ok := settingDefaults[s.Env]; ok {
					wantEqual(t, s.Env, e[s.Env], v)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, err := template(t, append([]string{"--namespace", "gtmgate"}, c.args...)...)
			if err != nil {
				t.Fatalf("helm template %v: %v", c.args, err)
			}
			validate(t, out)
			objs := decode(t, out)
			checkCommon(t, objs)
			c.check(t, objs)
		})
	}
}

// TestRefused renders values the chart must refuse, each with a message
// that says what is wrong.
func TestRefused(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"SQLite with three replicas", []string{"--set", "secrets.name=gtmgate,replicaCount=3"},
			"database.backend sqlite runs one replica, and replicaCount is 3"},
		{"no Secret for the encryption key", nil,
			"secrets.GTMGATE_ENCRYPTION_KEY: name the Secret holding the encryption key"},
		{"no Secret for the admin key hash", []string{"--set", "secrets.GTMGATE_ENCRYPTION_KEY.secretName=keys"},
			"secrets.ADMIN_API_KEY: name the Secret holding the admin key's SHA-256 hash"},
		{"PostgreSQL without a database URL", []string{"--set", "secrets.name=gtmgate,database.backend=postgresql,secrets.DATABASE_URL.key="},
			"secrets.DATABASE_URL: name the Secret holding the PostgreSQL URL"},
		{"PostgreSQL with the audit journal on an emptyDir", []string{"--set", "secrets.name=gtmgate,database.backend=postgresql,auditJournal=true"},
			"auditJournal true with database.backend postgresql"},
		{"the admin API on the gateway's public route", []string{"--set", "secrets.name=gtmgate", "--set-json", `gateway.ingress.extraPaths=["/admin/"]`},
			`gateway.ingress path "/admin/" is not public`},
		{"the console on the gateway's public route", []string{"--set", "secrets.name=gtmgate", "--set-json", `gateway.ingress.paths=["/api/","/console"]`},
			`gateway.ingress path "/console" is not public`},
		{"extraEnv setting what the chart sets", []string{"--set", "secrets.name=gtmgate", "--set-json", `extraEnv=[{"name":"GTMGATE_DATA_DIR","value":"/tmp"}]`},
			"extraEnv GTMGATE_DATA_DIR is set by the chart"},
		{"extraEnv repeating config", []string{"--set", "secrets.name=gtmgate", "--set-json", `extraEnv=[{"name":"GTMGATE_LOG_FORMAT","value":"text"}]`},
			"extraEnv GTMGATE_LOG_FORMAT is in config too"},
		// values.schema.json
		{"a setting gtmgate does not read", []string{"--set", "secrets.name=gtmgate,config.GTMGATE_NO_SUCH_SETTING=1"},
			"GTMGATE_NO_SUCH_SETTING"},
		{"a log level gtmgate does not know", []string{"--set", "secrets.name=gtmgate,config.GTMGATE_LOG_LEVEL=verbose"},
			"GTMGATE_LOG_LEVEL"},
		{"a worker count that is not a number", []string{"--set", "secrets.name=gtmgate,config.GTMGATE_JOB_WORKERS=many"},
			"GTMGATE_JOB_WORKERS"},
		{"a duration without a unit", []string{"--set", "secrets.name=gtmgate,config.GTMGATE_UPSTREAM_TIMEOUT=15"},
			"GTMGATE_UPSTREAM_TIMEOUT"},
		{"an ingress without a host", []string{"--set", "secrets.name=gtmgate,gateway.ingress.enabled=true"},
			"/gateway/ingress"},
		{"a backend the chart does not know", []string{"--set", "secrets.name=gtmgate,database.backend=mysql"},
			"/database/backend"},
		{"a secret set by value", []string{"--set", "secrets.name=gtmgate,config.GTMGATE_ENCRYPTION_KEY=00"},
			"GTMGATE_ENCRYPTION_KEY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, err := template(t, c.args...)
			if err == nil {
				t.Fatalf("helm template %v rendered; want it refused with %q:\n%s", c.args, c.want, out)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("helm template %v refused with:\n%v\nwant a message containing %q", c.args, err, c.want)
			}
		})
	}
}

// checkCommon checks what every accepted rendering must hold.
func checkCommon(t *testing.T, objs []object) {
	t.Helper()
	d := deployment(t, objs)
	pod := get(d, "spec", "template", "spec")
	wantEqual(t, "pod runAsNonRoot", get(pod, "securityContext", "runAsNonRoot"), true)
	containers, _ := get(pod, "containers").([]any)
	if len(containers) != 1 {
		t.Fatalf("%d containers, want 1", len(containers))
	}
	c := containers[0]
	sc := get(c, "securityContext")
	wantEqual(t, "runAsNonRoot", get(sc, "runAsNonRoot"), true)
	wantEqual(t, "readOnlyRootFilesystem", get(sc, "readOnlyRootFilesystem"), true)
	wantEqual(t, "allowPrivilegeEscalation", get(sc, "allowPrivilegeEscalation"), false)
	wantEqual(t, "capabilities.drop", get(sc, "capabilities", "drop"), []any{"ALL"})

	// Probes on the gateway listener's port, which GTMGATE_GATEWAY_ADDR binds.
	wantEqual(t, "liveness path", get(c, "livenessProbe", "httpGet", "path"), "/health/live")
	wantEqual(t, "liveness port", get(c, "livenessProbe", "httpGet", "port"), "gateway")
	wantEqual(t, "readiness path", get(c, "readinessProbe", "httpGet", "path"), "/health/ready")
	wantEqual(t, "readiness port", get(c, "readinessProbe", "httpGet", "port"), "gateway")
	e := env(t, d)
	var gatewayPort any
	for _, p := range get(c, "ports").([]any) {
		if get(p, "name") == "gateway" {
			gatewayPort = get(p, "containerPort")
		}
	}
	wantEqual(t, "GTMGATE_GATEWAY_ADDR", e["GTMGATE_GATEWAY_ADDR"], fmt.Sprintf("0.0.0.0:%v", gatewayPort))

	// The writable places: the data directory and /tmp.
	mounts := map[any]any{}
	for _, m := range get(c, "volumeMounts").([]any) {
		mounts[get(m, "mountPath")] = get(m, "name")
	}
	wantEqual(t, "/data mount", mounts["/data"], "data")
	wantEqual(t, "/tmp mount", mounts["/tmp"], "tmp")
	wantEqual(t, "GTMGATE_DATA_DIR", e["GTMGATE_DATA_DIR"], "/data")
	if get(volume(t, d, "data"), "emptyDir") != nil && e["GTMGATE_AUDIT_JOURNAL"] != "false" {
		t.Error("the audit journal is on while the data directory is an emptyDir")
	}
	// Secrets only as files.
	for _, name := range []string{"GTMGATE_ENCRYPTION_KEY", "ADMIN_API_KEY", "DATABASE_URL", "MODEL_GATEWAY_API_KEY"} {
		if _, ok := e[name]; ok {
			t.Errorf("%s is an environment value; secrets are passed as %s_FILE", name, name)
		}
	}
	wantEqual(t, "GTMGATE_ENCRYPTION_KEY_FILE", e["GTMGATE_ENCRYPTION_KEY_FILE"], "/run/secrets/gtmgate/GTMGATE_ENCRYPTION_KEY")
	wantEqual(t, "ADMIN_API_KEY_FILE", e["ADMIN_API_KEY_FILE"], "/run/secrets/gtmgate/ADMIN_API_KEY")

	loadConfig(t, e)

	for _, s := range find(objs, "Service") {
		if a := get(s, "spec", "sessionAffinity"); a != nil && a != "None" {
			t.Errorf("Service %v has sessionAffinity %v: replicas hold no session", get(s, "metadata", "name"), a)
		}
	}
	replicas, _ := get(d, "spec", "replicas").(int)
	if got := len(find(objs, "PodDisruptionBudget")); (replicas > 1) != (got == 1) {
		t.Errorf("%d replicas and %d PodDisruptionBudgets", replicas, got)
	}
	for _, ing := range find(objs, "Ingress") {
		name, _ := get(ing, "metadata", "name").(string)
		if name == "gtmgate-console" {
			continue
		}
		for _, p := range ingressPaths(t, objs, name) {
			if p == "/" && name == "gtmgate-gateway" || strings.HasPrefix(p, "/admin") || strings.HasPrefix(p, "/metrics") ||
				strings.HasPrefix(p, "/health") || strings.HasPrefix(p, "/console") && !strings.HasPrefix(p, "/console/sso/") {
				t.Errorf("Ingress %s routes %s publicly", name, p)
			}
		}
	}
}

// fakeSecrets stand in for the Secrets' content when the rendered
// environment is loaded.
var fakeSecrets = map[string]string{
	"GTMGATE_ENCRYPTION_KEY":             strings.Repeat("ab", 32),
	"ADMIN_API_KEY":                      strings.Repeat("cd", 32),
	"DATABASE_URL":                       "postgres://gtmgate@postgres.example.internal:5432/gtmgate?sslmode=require",
	"MODEL_GATEWAY_API_KEY":              "model-gateway-key",
	"GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN": "developer-token",
	"ALERT_WEBHOOK_SECRET":               "an-alert-webhook-secret",
}

// loadConfig loads the container's environment as gtmgate serve does
// (config.Load, which also validates it), each secret file standing in
// for its Secret: the chart must render a configuration gtmgate accepts.
func loadConfig(t *testing.T, e map[string]any) {
	t.Helper()
	dir := t.TempDir()
	var environ []string
	for name, v := range e {
		value, ok := v.(string)
		if !ok { // valueFrom: the downward API or a Secret, not a gtmgate setting
			continue
		}
		if setting, ok := strings.CutSuffix(name, "_FILE"); ok {
			secret, known := fakeSecrets[setting]
			if !known {
				t.Errorf("%s: no fake secret for %s", name, setting)
				continue
			}
			value = filepath.Join(dir, setting)
			if err := os.WriteFile(value, []byte(secret+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		environ = append(environ, name+"="+value)
	}
	if _, err := config.Load(nil, environ); err != nil {
		t.Errorf("gtmgate refuses the rendered environment: %v", err)
	}
}

func deployment(t *testing.T, objs []object) object {
	t.Helper()
	ds := find(objs, "Deployment")
	if len(ds) != 1 {
		t.Fatalf("%d Deployments, want 1", len(ds))
	}
	return ds[0]
}

// env returns the container's environment values by name, failing t on a
// name set twice.
func env(t *testing.T, d object) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, e := range get(d, "spec", "template", "spec", "containers", 0, "env").([]any) {
		name, _ := get(e, "name").(string)
		if _, dup := out[name]; dup {
			t.Errorf("env %s is set twice", name)
		}
		out[name] = get(e, "value")
	}
	return out
}

func volume(t *testing.T, d object, name string) any {
	t.Helper()
	for _, v := range get(d, "spec", "template", "spec", "volumes").([]any) {
		if get(v, "name") == name {
			return v
		}
	}
	t.Fatalf("no volume %s", name)
	return nil
}

func ingressPaths(t *testing.T, objs []object, name string) []string {
	t.Helper()
	for _, ing := range find(objs, "Ingress") {
		if get(ing, "metadata", "name") != name {
			continue
		}
		var out []string
		for _, p := range get(ing, "spec", "rules", 0, "http", "paths").([]any) {
			out = append(out, get(p, "path").(string))
			wantEqual(t, "pathType", get(p, "pathType"), "Prefix")
		}
		return out
	}
	t.Fatalf("no Ingress %s", name)
	return nil
}

func wantCount(t *testing.T, objs []object, want map[string]int) {
	t.Helper()
	for kind, n := range want {
		if got := len(find(objs, kind)); got != n {
			t.Errorf("%d %s, want %d", got, kind, n)
		}
	}
}

func wantEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// writeTemp writes a file in the test's temporary directory.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
