{{/* Names and labels. */}}
{{- define "gtmgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gtmgate.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "gtmgate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gtmgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gtmgate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "gtmgate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "gtmgate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gtmgate.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gtmgate.claimName" -}}
{{- default (printf "%s-data" (include "gtmgate.fullname" .)) .Values.persistence.existingClaim -}}
{{- end -}}

{{/*
gtmgate.url: a surface's public base URL (SITE_URL, GATEWAY_URL, DOCS_URL):
its url value, else its Ingress host (https with a TLS secret), else "".
Call with (dict "surface" .Values.site).
*/}}
{{- define "gtmgate.url" -}}
{{- $s := .surface -}}
{{- if $s.url -}}
{{- $s.url -}}
{{- else if and $s.ingress.enabled $s.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" (ne $s.ingress.tlsSecretName "")) $s.ingress.host -}}
{{- end -}}
{{- end -}}

{{/*
gtmgate.auditJournal: "true" or "false", from auditJournal and the data
directory's volume.
*/}}
{{- define "gtmgate.auditJournal" -}}
{{- $v := .Values.auditJournal -}}
{{- if eq (toString $v) "auto" -}}
{{- ternary "true" "false" (eq .Values.database.backend "sqlite") -}}
{{- else -}}
{{- toString $v -}}
{{- end -}}
{{- end -}}

{{/*
gtmgate.envValue: a config value as an environment string. YAML numbers
arrive as floats: whole ones are written without an exponent (1048576,
not 1.048576e+06).
*/}}
{{- define "gtmgate.envValue" -}}
{{- $v := . -}}
{{- if and (kindIs "float64" $v) (eq $v (float64 (int64 $v))) -}}
{{- int64 $v -}}
{{- else -}}
{{- toString $v -}}
{{- end -}}
{{- end -}}

{{/*
gtmgate.secretEntries: the secrets entries that are set, as a JSON list of
{env, secretName, key}. Required ones that are missing fail the render.
*/}}
{{- define "gtmgate.secretEntries" -}}
{{- $out := list -}}
{{- $required := dict "GTMGATE_ENCRYPTION_KEY" "the encryption key" "ADMIN_API_KEY" "the admin key's SHA-256 hash" -}}
{{- if eq .Values.database.backend "postgresql" -}}
{{- $_ := set $required "DATABASE_URL" "the PostgreSQL URL" -}}
{{- end -}}
{{- range $env := list "GTMGATE_ENCRYPTION_KEY" "ADMIN_API_KEY" "DATABASE_URL" "MODEL_GATEWAY_API_KEY" "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN" "ALERT_WEBHOOK_SECRET" -}}
{{- $e := index $.Values.secrets $env -}}
{{- $name := default $.Values.secrets.name $e.secretName -}}
{{- $needed := hasKey $required $env -}}
{{- if and (eq $env "DATABASE_URL") (ne $.Values.database.backend "postgresql") -}}
{{- /* SQLite: the URL entry is ignored even with a default Secret name. */ -}}
{{- else if and $needed (or (not $name) (not $e.key)) -}}
{{- fail (printf "gtmgate: secrets.%s: name the Secret holding %s (secrets.name, or secrets.%s.secretName, and its key); the chart never generates a key: one made at install time would differ between installs sharing a database and vanish with the release" $env (get $required $env) $env) -}}
{{- else if and $e.key $name -}}
{{- $out = append $out (dict "env" $env "secretName" $name "key" $e.key) -}}
{{- else if and $e.secretName (not $e.key) -}}
{{- fail (printf "gtmgate: secrets.%s names Secret %q but no key" $env $e.secretName) -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/*
gtmgate.validate: the combinations values.schema.json cannot refuse, each
with a message saying what to do.
*/}}
{{- define "gtmgate.validate" -}}
{{- $v := .Values -}}
{{- if and (eq $v.database.backend "sqlite") (gt (int $v.replicaCount) 1) -}}
{{- fail (printf "gtmgate: database.backend sqlite runs one replica, and replicaCount is %d: SQLite is one process's file on one PersistentVolumeClaim. To run more replicas, set database.backend to postgresql and secrets.DATABASE_URL" (int $v.replicaCount)) -}}
{{- end -}}
{{- if and (eq $v.database.backend "postgresql") (eq (toString $v.auditJournal) "true") -}}
{{- fail "gtmgate: auditJournal true with database.backend postgresql: each pod's data directory is an emptyDir, deleted with the pod, and calls acknowledged from a journal not yet in the store would be lost with it. Leave auditJournal auto (off) or false" -}}
{{- end -}}
{{- range $p := concat $v.gateway.ingress.paths $v.gateway.ingress.extraPaths -}}
{{- if or (hasPrefix "/admin" $p) (and (hasPrefix "/console" $p) (not (hasPrefix "/console/sso/" $p))) (eq $p "/") (hasPrefix "/metrics" $p) (hasPrefix "/health" $p) -}}
{{- fail (printf "gtmgate: gateway.ingress path %q is not public: the console and the admin API go through console.ingress, /metrics and /health stay inside the cluster" $p) -}}
{{- end -}}
{{- end -}}
{{- $managed := list "GTMGATE_SITE_ADDR" "GTMGATE_GATEWAY_ADDR" "GTMGATE_DOCS_ADDR" "GTMGATE_DATA_DIR" "GTMGATE_AUDIT_JOURNAL" "SITE_URL" "GATEWAY_URL" "DOCS_URL" "POD_NAME" "POD_NAMESPACE" -}}
{{- range $env := list "GTMGATE_ENCRYPTION_KEY" "ADMIN_API_KEY" "DATABASE_URL" "MODEL_GATEWAY_API_KEY" "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN" "ALERT_WEBHOOK_SECRET" -}}
{{- $managed = append (append $managed $env) (printf "%s_FILE" $env) -}}
{{- end -}}
{{- if $v.otel.endpoint -}}
{{- $managed = concat $managed (list "OTEL_EXPORTER_OTLP_ENDPOINT" "OTEL_SERVICE_NAME" "OTEL_RESOURCE_ATTRIBUTES" "OTEL_TRACES_SAMPLER" "OTEL_TRACES_SAMPLER_ARG" "OTEL_EXPORTER_OTLP_HEADERS") -}}
{{- end -}}
{{- range $e := $v.extraEnv -}}
{{- if has $e.name $managed -}}
{{- fail (printf "gtmgate: extraEnv %s is set by the chart: use the value that sets it (the listeners, the URLs, secrets, auditJournal, otel)" $e.name) -}}
{{- end -}}
{{- if hasKey $v.config $e.name -}}
{{- fail (printf "gtmgate: extraEnv %s is in config too: set it once" $e.name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
