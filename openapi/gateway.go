package openapi

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/agent"
	"github.com/gtmgate/gtmgate/agenttools"
	"github.com/gtmgate/gtmgate/connectflow"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/mcpservers"
	"github.com/gtmgate/gtmgate/oauth"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/people"
	"github.com/gtmgate/gtmgate/providercheck"
	"github.com/gtmgate/gtmgate/quality"
	"github.com/gtmgate/gtmgate/reauth"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/schedule"
)

// GatewayVersion is the version of the gateway API description; it moves
// when a route or a body changes shape, not with each release.
const GatewayVersion = "1.0.0"

// Security requirements.
const (
	secBearer = "bearerAuth"
	secAdmin  = "adminKey"
)

// operation describes one registered route. pattern is the route exactly as
// registered on the mux; methods, for a pattern without a method (/mcp),
// lists the methods it answers.
type operation struct {
	pattern     string
	methods     []string
	id, summary string
	description string
	tag         string
	security    string // secBearer, secAdmin or "" for none
	query       []Parameter
	body        *RequestBody
	responses   map[string]*Response
}

// errorResponses are JSON error bodies for the given statuses.
func errorResponses(statuses ...int) map[string]*Response {
	out := map[string]*Response{}
	for _, s := range statuses {
		out[strconv.Itoa(s)] = &Response{Description: http.StatusText(s), Content: jsonContent(ref("ErrorBody"))}
	}
	return out
}

// jsonOK is a success with a JSON body, plus error bodies for errs.
func jsonOK(status int, s Schema, errs ...int) map[string]*Response {
	out := errorResponses(errs...)
	out[strconv.Itoa(status)] = &Response{Description: http.StatusText(status), Content: jsonContent(s)}
	return out
}

// withStatus adds a success status with its content to responses.
func withStatus(responses map[string]*Response, status int, content map[string]MediaType) map[string]*Response {
	responses[strconv.Itoa(status)] = &Response{Description: http.StatusText(status), Content: content}
	return responses
}

func jsonBody(s Schema) *RequestBody {
	return &RequestBody{Required: true, Content: jsonContent(s)}
}

func formBody(s Schema) *RequestBody {
	return &RequestBody{Required: true, Content: map[string]MediaType{"application/x-www-form-urlencoded": {Schema: s}}}
}

// idHeaders are on every gateway response (middleware.RequestID sets them).
var idHeaders = map[string]Header{
	"X-Request-Id": {Description: "The server's id of this request, unique and unguessable; never the client's. " +
		"It names the call in request_id bodies, logs and the audit log.", Schema: str},
	"X-Correlation-Id": {Description: "The X-Request-Id the client sent, when it was 1 to 64 letters, digits, '-', '_' or '.'. " +
		"Recorded as the audit entry's correlation_id.", Schema: str},
}

// withIDHeaders returns copies of responses that declare idHeaders: the
// tables share Response values between operations.
func withIDHeaders(responses map[string]*Response) map[string]*Response {
	out := make(map[string]*Response, len(responses))
	for status, r := range responses {
		c := *r
		c.Headers = idHeaders
		out[status] = &c
	}
	return out
}

// limitOf is a page size parameter with its own default and maximum.
func limitOf(def, max int) Parameter {
	return queryParam("limit", fmt.Sprintf("Page size, 1 to %d (default %d).", max, def), Schema{"type": "integer", "minimum": 1, "maximum": max})
}

func queryParam(name, description string, s Schema) Parameter {
	return Parameter{Name: name, In: "query", Description: description, Schema: s}
}

var (
	str       = Schema{"type": "string"}
	anyObject = Schema{"type": "object"}
	limit     = queryParam("limit", "Page size, 1 to 1000 (default 100).", Schema{"type": "integer", "minimum": 1, "maximum": 1000})
	since     = queryParam("since", "Only entries at or after this RFC 3339 time.", Schema{"type": "string", "format": "date-time"})
	tenantQ   = queryParam("tenant", "Only this tenant's entries.", str)
	// scheduleTenant names the tenant of a job id: each tenant names its own.
	scheduleTenant = queryParam("tenant", "The job's tenant; required when several tenants have a job of this id.", str)
)

// Common error statuses: every authenticated route can answer 401, 403
// and 429 (credential throttling), and any can answer 500. An admin route
// answers 403 to an actor whose roles or key scopes fall short, and 503
// when a named admin key cannot be checked or the audit log written.
var (
	bearerErrors = []int{400, 401, 403, 413, 429, 500}
	adminErrors  = []int{400, 401, 403, 404, 413, 429, 500, 503}
)

// oauthError is RFC 6749 section 5.2's error body.
var oauthError = map[string]MediaType{"application/json": {Schema: Schema{
	"type": "object", "required": []string{"error"},
	"properties": map[string]any{"error": str, "error_description": str},
}}}

func oauthOK(s Schema) map[string]*Response {
	return map[string]*Response{
		"200": {Description: "OK", Content: jsonContent(s)},
		"400": {Description: "OAuth error", Content: oauthError},
		"401": {Description: "Client authentication failed", Content: oauthError},
		"429": {Description: "Too many registrations from this address", Content: jsonContent(ref("ErrorBody"))},
	}
}

var preflight = map[string]*Response{"204": {Description: "CORS preflight answered"}}

// readyResponses are the answers of GET /health/ready and GET /health.
var readyResponses = map[string]*Response{
	"200": {Description: "Ready: status ok, or degraded with reasons", Content: jsonContent(responseOf[gateway.Health]())},
	"503": {Description: "Not ready: the reasons say why", Content: jsonContent(responseOf[gateway.Health]())},
}

// gatewayOperations lists every route the gateway listener can register.
func gatewayOperations() []operation {
	toolErrors := append([]int{404, 409, 422, 424, 502, 503, 504}, bearerErrors...)
	toolResponses := jsonOK(200, ref("ToolResult"), toolErrors...)
	toolResponses["202"] = &Response{Description: "The call waits for an operator's approval (APPROVAL_REQUIRED with approval_id).",
		Content: jsonContent(ref("ErrorBody"))}
	ops := []operation{
		{pattern: "GET /health", id: "getHealth", tag: "health", summary: "Readiness, under its first name (same as /health/ready)",
			description: "No authentication. The same answer as GET /health/ready.",
			responses:   readyResponses},
		{pattern: "GET /health/ready", id: "getHealthReady", tag: "health", summary: "Readiness: whether this replica can serve calls",
			description: "No authentication. 200 while the replica can serve calls, status degraded with reasons when it serves them " +
				"from its cache and audit journal during a store outage; 503 when it cannot (audit records cannot be made durable, " +
				"store unreachable with no usable cache or no journal, starting, shutting down).",
			responses: readyResponses},
		{pattern: "GET /health/live", id: "getHealthLive", tag: "health", summary: "Liveness: the process is up and answers",
			description: "No authentication. 200 unless the process is shutting down; never depends on the store.",
			responses: map[string]*Response{
				"200": {Description: "The process is up", Content: jsonContent(responseOf[gateway.Liveness]())},
				"503": {Description: "The process is shutting down", Content: jsonContent(responseOf[gateway.Liveness]())},
			}},
		{pattern: "GET /metrics", id: "getMetrics", tag: "health", summary: "Prometheus metrics",
			responses: map[string]*Response{"200": {Description: "Prometheus text exposition format",
				Content: map[string]MediaType{"text/plain": {Schema: str}}}}},
		{pattern: "GET /openapi.json", id: "getOpenAPI", tag: "health", summary: "This document",
			responses: map[string]*Response{"200": {Description: "OpenAPI 3.1 document", Content: jsonContent(anyObject)}}},
		{pattern: "POST /api/v1/{tenant}/{domain}", id: "callTool", tag: "tools", security: secBearer,
			summary:     "Call a tool",
			description: "The body names the tool and its input; the input schema of each tool comes from the tool registry.",
			body:        jsonBody(ref("ToolCall")), responses: toolResponses},
		{pattern: "POST /api/v1/{tenant}/mcp/{server}", id: "callFederatedTool", tag: "tools", security: secBearer,
			summary: "Call a tool of one of the tenant's upstream MCP servers",
			description: "Domain mcp/{server}: the tool is named as agents see it (\"server__tool\"), its input is the upstream tool's with rationale added. " +
				"result is the upstream's answer: {content, structuredContent}. An upstream isError result is UPSTREAM_ERROR naming the server.",
			body: jsonBody(ref("ToolCall")), responses: toolResponses},
		{pattern: "GET /api/v1/{tenant}/approvals/{id}", id: "getApprovalStatus", tag: "tools", security: secBearer,
			summary:   "Status of an approval the tenant is waiting on",
			responses: jsonOK(200, responseOf[agenttools.ApprovalView](), append([]int{404}, bearerErrors...)...)},
		{pattern: "/mcp", methods: []string{"post", "get", "delete"}, id: "mcp", tag: "mcp", security: secBearer,
			summary: "MCP streamable HTTP endpoint (JSON-RPC 2.0)",
			description: "Spec 2025-11-25, stateless: POST carries JSON-RPC requests and answers with application/json; " +
				"GET and DELETE answer 405. Bearer tenant tokens or OAuth access tokens; see the MCP and OAuth pages.",
			body: jsonBody(Schema{"type": "object", "required": []string{"jsonrpc", "method"},
				"properties": map[string]any{"jsonrpc": Schema{"const": "2.0"}, "method": str, "id": Schema{"type": []string{"string", "integer"}}, "params": anyObject}}),
			responses: map[string]*Response{
				"200": {Description: "JSON-RPC response; an unknown method (-32601) or tool (-32602) is a JSON-RPC error here, with the request's id", Content: jsonContent(anyObject)},
				"202": {Description: "Notification accepted"},
				"400": {Description: "A body the server cannot accept (not JSON, not a JSON-RPC message, an unknown notification, a missing header): a JSON-RPC error without id (-32700, -32600 or -32601)", Content: jsonContent(anyObject)},
				"401": {Description: "No valid credential; WWW-Authenticate names the resource metadata, with error=\"invalid_token\" when the bearer token sent is not valid", Content: jsonContent(ref("ErrorBody"))},
				"403": {Description: "Origin refused, or insufficient_scope (step-up to tools:write)", Content: jsonContent(ref("ErrorBody"))},
				"405": {Description: "GET and DELETE: this server keeps no sessions"},
				"429": {Description: "Too many failed credentials from this address", Content: jsonContent(ref("ErrorBody"))},
			}},
		{pattern: "POST /v1/chat/completions", id: "createChatCompletion", tag: "chat", security: secBearer,
			summary: "OpenAI-compatible chat completion, passed through to the configured model provider",
			description: "The body is the provider's; gtmgate checks the model against the tenant's allowed_models and refuses duplicate members. " +
				"With stream:true the answer is text/event-stream.",
			body: jsonBody(Schema{"type": "object", "required": []string{"model", "messages"},
				"properties": map[string]any{"model": str, "messages": Schema{"type": "array"}, "stream": Schema{"type": "boolean"}}}),
			responses: func() map[string]*Response {
				r := jsonOK(200, anyObject, append([]int{502, 504}, bearerErrors...)...)
				r["200"].Content["text/event-stream"] = MediaType{Schema: str}
				return r
			}()},
		{pattern: "GET /v1/models", id: "listModels", tag: "chat", security: secBearer,
			summary:   "The provider's models, limited to the tenant's allowed_models",
			responses: jsonOK(200, Schema{"type": "object", "required": []string{"data"}, "properties": map[string]any{"object": str, "data": Schema{"type": "array"}}}, append([]int{502, 504}, bearerErrors...)...)},
	}
	ops = append(ops, oauthOperations()...)
	ops = append(ops, connectOperations()...)
	return append(ops, adminOperations()...)
}

// connectOperations are the connect links' pages, for a person's browser.
func connectOperations() []operation {
	html := map[string]MediaType{"text/html": {Schema: str}}
	refused := func(r map[string]*Response) map[string]*Response {
		for _, code := range []string{"400", "403", "404", "409", "410"} {
			r[code] = &Response{Description: "Refused: an unknown, used or expired link, or another browser's answer", Content: html}
		}
		return r
	}
	return []operation{
		{pattern: "GET /connect/{secret}", id: "connectLinkPage", tag: "oauth", summary: "A connect link's page: tenant, provider, access asked for",
			responses: refused(map[string]*Response{"200": {Description: "The link's page", Content: html}})},
		{pattern: "POST /connect/{secret}", id: "connectLinkStart", tag: "oauth",
			summary: "Continue to the provider's consent page: only a same-origin form from the link's own page, with its csrf token (403 otherwise)",
			body:    formBody(anyObject), responses: refused(map[string]*Response{"303": {Description: "To the provider's consent page"}})},
		{pattern: "/connect/{secret}", id: "connectLinkOtherMethod", tag: "oauth", methods: []string{"put", "patch", "delete"},
			summary:   "Refused: a connect link takes GET (its page) and POST (Continue) only",
			responses: map[string]*Response{"405": {Description: "A page saying to open the link in a browser", Content: html}}},
		{pattern: "GET /connect/callback", id: "connectCallback", tag: "oauth", summary: "The provider's answer: accounts connected, or a picker",
			responses: refused(map[string]*Response{"200": {Description: "Connected, or the accounts to choose from", Content: html}})},
		{pattern: "GET /connect/mcp-client.json", id: "connectClientMetadata", tag: "oauth",
			summary:   "gtmgate's OAuth client ID metadata document: its URL is gtmgate's client_id at an upstream MCP server's authorization server that accepts one",
			responses: map[string]*Response{"200": {Description: "The document (client_id, redirect_uris, grant types)", Content: jsonContent(anyObject)}}},
		{pattern: "POST /connect/choose", id: "connectChoose", tag: "oauth", summary: "Connect the accounts chosen",
			body: formBody(anyObject), responses: refused(map[string]*Response{"200": {Description: "Connected", Content: html}})},
		{pattern: "/demo-idp/", id: "demoIdP", tag: "oauth", methods: []string{"get", "post"},
			summary:   "serve --demo only: the sandbox OpenID provider people sign in through (discovery, keys, authorize, token, userinfo, its sign-in page)",
			responses: map[string]*Response{"200": {Description: "A page or a JSON document of the provider", Content: html}}},
	}
}

func oauthOperations() []operation {
	meta := func(path, id, summary string) []operation {
		return []operation{
			{pattern: "GET " + path, id: id, tag: "oauth", summary: summary, responses: map[string]*Response{"200": {Description: "OK", Content: jsonContent(anyObject)}}},
			{pattern: "OPTIONS " + path, id: id + "Preflight", tag: "oauth", summary: "CORS preflight", responses: preflight},
		}
	}
	var ops []operation
	ops = append(ops, meta("/.well-known/oauth-protected-resource", "getProtectedResourceMetadata", "Protected resource metadata (RFC 9728)")...)
	ops = append(ops, meta("/.well-known/oauth-protected-resource/mcp", "getMCPResourceMetadata", "Protected resource metadata of /mcp (RFC 9728)")...)
	ops = append(ops, meta("/.well-known/oauth-authorization-server", "getAuthorizationServerMetadata", "Authorization server metadata (RFC 8414)")...)
	ops = append(ops, meta("/.well-known/openid-configuration", "getOpenIDConfiguration", "The same metadata, where OpenID clients look for it")...)
	tokenForm := Schema{"type": "object", "required": []string{"grant_type"}, "properties": map[string]any{
		"grant_type": Schema{"enum": []string{"authorization_code", "refresh_token"}}, "code": str, "redirect_uri": str,
		"code_verifier": str, "refresh_token": str, "client_id": str, "client_secret": str, "resource": str}}
	ops = append(ops,
		operation{pattern: "POST /oauth/register", id: "registerClient", tag: "oauth", summary: "Dynamic client registration (RFC 7591)",
			body: jsonBody(Schema{"type": "object", "required": []string{"redirect_uris"}, "properties": map[string]any{
				"redirect_uris": Schema{"type": "array", "items": str}, "client_name": str, "token_endpoint_auth_method": str}}),
			responses: func() map[string]*Response {
				r := oauthOK(anyObject)
				r["201"] = r["200"]
				delete(r, "200")
				return r
			}()},
		operation{pattern: "POST /oauth/token", id: "token", tag: "oauth", summary: "Exchange a code (PKCE S256) or rotate a refresh token",
			body: formBody(tokenForm), responses: oauthOK(Schema{"type": "object", "required": []string{"access_token", "token_type"},
				"properties": map[string]any{"access_token": str, "token_type": str, "expires_in": Schema{"type": "integer"}, "refresh_token": str, "scope": str}})},
		operation{pattern: "POST /oauth/revoke", id: "revoke", tag: "oauth", summary: "Revoke a token (RFC 7009)",
			body:      formBody(Schema{"type": "object", "required": []string{"token"}, "properties": map[string]any{"token": str, "token_type_hint": str, "client_id": str, "client_secret": str}}),
			responses: map[string]*Response{"200": {Description: "Revoked, or unknown (RFC 7009 answers both alike)"}, "401": {Description: "Client authentication failed", Content: oauthError}}},
	)
	for _, p := range []string{"/oauth/register", "/oauth/token", "/oauth/revoke"} {
		id := "preflight" + strings.ToUpper(p[7:8]) + p[8:]
		ops = append(ops, operation{pattern: "OPTIONS " + p, id: id, tag: "oauth", summary: "CORS preflight", responses: preflight})
	}
	page := map[string]*Response{
		"200": {Description: "The consent page, for a person", Content: map[string]MediaType{"text/html": {Schema: str}}},
		"302": {Description: "Back to the client's redirect_uri with a code or an error"},
		"303": {Description: "Back to the client's redirect_uri after the consent form"},
		"400": {Description: "The request cannot be sent back to the client", Content: map[string]MediaType{"text/html": {Schema: str}}},
		"429": {Description: "Too many wrong tenant credentials from this address", Content: map[string]MediaType{"text/html": {Schema: str}}},
	}
	ops = append(ops,
		operation{pattern: "GET /oauth/authorize", id: "authorize", tag: "oauth", summary: "Authorization endpoint: the tenant consent page", responses: page},
		operation{pattern: "POST /oauth/authorize", id: "authorizeConsent", tag: "oauth", summary: "Consent form submission",
			body: formBody(anyObject), responses: page},
	)
	return ops
}

func adminOperations() []operation {
	type ok = map[string]*Response
	adm := func(pattern, id, summary string, body *RequestBody, responses ok, query ...Parameter) operation {
		return operation{pattern: pattern, id: id, tag: "admin", security: secAdmin, summary: summary, body: body, responses: responses, query: query}
	}
	tenantView := object(map[string]Schema{"tenant": responseOf[gtmgate.Tenant]()})
	tenantView["properties"].(map[string]any)["oauth_refresh"] = Schema{"type": "array", "items": responseOf[refresh.AccountStatus]()}
	tenantView["properties"].(map[string]any)["mcp_servers"] = Schema{"type": "array", "items": responseOf[admin.MCPServerBrief](),
		"description": "The tenant's upstream MCP servers in brief; /admin/tenants/{id}/mcp-servers has their tools and state."}
	saved := object(map[string]Schema{"tenant": responseOf[gtmgate.Tenant](), "created": {"type": "boolean"}})
	saved["properties"].(map[string]any)["webhook_secrets"] = Schema{"type": "array", "items": responseOf[admin.WebhookSecret](),
		"description": "The signing secrets generated for the approval route webhooks this replace added: shown here only."}
	created := jsonOK(200, saved, adminErrors...)
	created["201"] = &Response{Description: "Created", Content: jsonContent(saved)}
	withNotFound := append([]int{404}, adminErrors...)
	decision := &RequestBody{Content: jsonContent(requestOf[admin.DecisionBody]())}
	audit := object(map[string]Schema{"entries": {"type": "array", "items": responseOf[gtmgate.AuditEntry]()}, "count": {"type": "integer"}})
	audit["properties"].(map[string]any)["next_cursor"] = Schema{"type": "string", "description": "Pass as cursor for the next page."}
	replay := object(map[string]Schema{"entry_id": str, "request_id": str, "ok": {"type": "boolean"}})
	replay["properties"].(map[string]any)["outcome"] = anyObject
	replay["properties"].(map[string]any)["error"] = responseOf[jsonapi.ErrorInfo]()
	jobList := object(map[string]Schema{"jobs": {"type": "array", "items": responseOf[jobs.Job]()}})
	jobList["properties"].(map[string]any)["next_cursor"] = Schema{"type": "string", "description": "Pass as cursor for the next page."}
	stored := object(map[string]Schema{"tenant_id": str, "provider": str, "account_id": str, "token_type": str,
		"expires_at": {"type": "integer"}, "stored": {"const": true}})
	return []operation{
		adm("GET /admin/tenants", "listTenants", "List tenants", nil, jsonOK(200, listOf[gtmgate.Tenant]("tenants"), adminErrors...)),
		adm("GET /admin/tenants/{tenant_id}", "getTenant", "Get a tenant, with its provider refresh status", nil, jsonOK(200, tenantView, withNotFound...)),
		adm("PUT /admin/tenants/{tenant_id}", "putTenant", "Create or replace a tenant", jsonBody(requestOf[admin.TenantBody]("name")), created),
		adm("POST /admin/auth", "registerToken", "Register a tenant token (only its hash is kept)",
			jsonBody(requestOf[admin.RegisterTokenBody]("tenant_id", "token")), jsonOK(201, responseOf[gtmgate.TenantToken](), append([]int{404, 409}, adminErrors...)...)),
		adm("GET /admin/auth/{tenant_id}", "listTokens", "List a tenant's tokens", nil, jsonOK(200, listOf[gtmgate.TenantToken]("tokens"), withNotFound...)),
		adm("DELETE /admin/auth/{tenant_id}/{token_id}", "revokeToken", "Revoke a tenant token", nil,
			jsonOK(200, object(map[string]Schema{"revoked": str}), withNotFound...)),
		adm("PUT /admin/tokens/{tenant_id}/{provider}/{account_id}", "putProviderToken", "Store a provider access token (sealed at rest)",
			jsonBody(requestOf[admin.ProviderTokenBody]("access_token")), jsonOK(200, stored, withNotFound...)),
		adm("GET /admin/tenants/{tenant_id}/provider-tokens", "listProviderTokens", "A tenant's stored provider tokens: account, type and expiry, never the token",
			nil, jsonOK(200, listOf[gtmgate.ProviderTokenInfo]("provider_tokens"), withNotFound...)),
		adm("GET /admin/tenants/{tenant_id}/oauth-grants", "listOAuthGrants", "The OAuth clients holding live tokens for a tenant",
			nil, jsonOK(200, listOf[gtmgate.OAuthGrant]("oauth_grants"), withNotFound...)),
		adm("POST /admin/tenants/{tenant_id}/oauth-grants/revoke", "revokeOAuthGrant", "Revoke every token an OAuth client holds for a tenant",
			jsonBody(requestOf[admin.RevokeGrantBody]("client_id")),
			jsonOK(200, object(map[string]Schema{"client_id": str, "revoked_tokens": Schema{"type": "integer"}}), withNotFound...)),
		adm("GET /admin/usage/{tenant_id}", "getUsage", "Usage by tool, day and chat model, and the billing period's cost (Accept: text/csv for its line items)", nil,
			withStatus(errorResponses(withNotFound...), 200, map[string]MediaType{"application/json": {Schema: responseOf[admin.UsageSummary]()},
				"text/csv": {Schema: str}}),
			queryParam("from", "First day, YYYY-MM-DD (default 29 days before to).", Schema{"type": "string", "format": "date"}),
			queryParam("to", "Last day, YYYY-MM-DD (default today, UTC).", Schema{"type": "string", "format": "date"}),
			queryParam("period", "The billing period starting in this month, YYYY-MM (default the current one).", str),
			queryParam("by_hour", "true adds by_hour: the usage of each UTC hour in the range.", Schema{"type": "boolean"}),
			queryParam("key", "Only the calls of this agent: its audit key (a token id, oauth:<grant id>). Counted from the raw usage events, "+
				"which GTMGATE_RETAIN_USAGE_EVENTS bounds; billing is null, and Accept: text/csv is refused (400).", str)),
		adm("GET /admin/billing/{tenant_id}", "getBilling", "A tenant's billing plan", nil, jsonOK(200, responseOf[gtmgate.BillingPlan](), withNotFound...)),
		adm("PUT /admin/billing/{tenant_id}", "putBilling", "Create or replace a tenant's billing plan", jsonBody(requestOf[admin.BillingBody]("currency")),
			withStatus(jsonOK(200, responseOf[gtmgate.BillingPlan](), withNotFound...), 201, jsonContent(responseOf[gtmgate.BillingPlan]()))),
		adm("GET /admin/audit", "queryAudit", "Query the audit log, newest first", nil, jsonOK(200, audit, adminErrors...),
			tenantQ, queryParam("action", "Only this tool or admin action.", str), queryParam("source", "rest, mcp, chat, admin…", str),
			queryParam("key", "Only entries of this credential (token id or prefix).", str),
			queryParam("parent", "Only the calls made for this request id (an agent run's request_id).", str),
			queryParam("request_id", "Only the entries of this request (the server's id: X-Request-Id of the response).", str),
			queryParam("correlation_id", "Only the entries of calls whose client sent this X-Request-Id. Requires tenant "+
				"(400 VALIDATION_ERROR without it): clients choose these ids, so they only name calls within one tenant.", str),
			since, limit,
			queryParam("cursor", "next_cursor of the previous page.", str),
			queryParam("after", "Follow the log forward instead: entries oldest first in commit order after this next_cursor "+
				"of a previous follow (empty = from the first, or from since). An entry that commits late is never skipped. "+
				"Cannot be combined with cursor.", str)),
		adm("GET /admin/audit/stats", "auditStats", "Call counts and latencies over 24 h, 7 d and 30 d", nil, jsonOK(200, responseOf[gtmgate.AuditStats](), adminErrors...)),
		adm("GET /admin/errors", "listErrors", "List the error ledger", nil, jsonOK(200, listOf[gtmgate.LedgerEntry]("entries"), adminErrors...),
			tenantQ, queryParam("kind", "failure or incident.", str), queryParam("request_id", "Only the entries of this request.", str),
			queryParam("key", "Only the failures of this agent: its audit key (a token id, oauth:<grant id>).", str), since, limit),
		adm("GET /admin/errors/{id}", "getError", "Get an error ledger entry", nil, jsonOK(200, responseOf[gtmgate.LedgerEntry](), withNotFound...)),
		adm("POST /admin/replay", "replay", "Replay a failed call from the ledger", jsonBody(requestOf[admin.ReplayBody]("entry_id")),
			jsonOK(200, replay, append([]int{404, 409}, adminErrors...)...)),
		adm("GET /admin/approvals", "listApprovals", "List approvals (default: pending)", nil, jsonOK(200, listOf[admin.ApprovalView]("approvals"), adminErrors...),
			tenantQ, queryParam("status", "pending (default), approved, executed, failed, rejected, expired, withdrawn (the agent run was cancelled), or all.", str),
			queryParam("gate", "policy (the tenant's approval policy) or quality (an open quality incident); both when absent.", Schema{"enum": []string{"policy", "quality"}}), limit),
		adm("GET /admin/approvals/{approval_id}", "getApproval", "Get an approval", nil, jsonOK(200, responseOf[admin.ApprovalView](), withNotFound...)),
		adm("POST /admin/approvals/{approval_id}/approve", "approve", "Approve: runs the stored call once, or records the first of two approvals", decision,
			jsonOK(200, responseOf[gtmgate.Approval](), append([]int{404, 409}, adminErrors...)...)),
		adm("POST /admin/approvals/{approval_id}/reject", "reject", "Reject a pending approval", decision,
			jsonOK(200, responseOf[gtmgate.Approval](), append([]int{404, 409}, adminErrors...)...)),
		adm("GET /admin/feedback", "listFeedback", "List agents' feedback", nil, jsonOK(200, listOf[gtmgate.Feedback]("feedback"), adminErrors...),
			tenantQ, queryParam("severity", "low, med or high.", Schema{"enum": []string{"low", "med", "high"}}),
			queryParam("resolved", "true or false.", Schema{"type": "boolean"}), since, limit),
		adm("POST /admin/feedback/{id}/resolve", "resolveFeedback", "Mark feedback resolved",
			&RequestBody{Content: jsonContent(Schema{"type": "object", "additionalProperties": false, "properties": map[string]any{"resolved_by": str}})},
			jsonOK(200, responseOf[gtmgate.Feedback](), withNotFound...)),
		adm("POST /admin/oauth/connect-codes", "createConnectCode", "A one-time code to authorize an MCP client on the consent page",
			jsonBody(requestOf[oauth.ConnectCodeRequest]("tenant_id")), jsonOK(201, responseOf[oauth.ConnectCodeResponse](), withNotFound...)),
		adm("POST /admin/seed-oauth", "seedOAuth", "Configure refresh of a provider account's access token",
			jsonBody(requestOf[refresh.SeedRecord]("tenant_id", "provider", "account_id", "client_id", "token_endpoint", "refresh_token")),
			jsonOK(200, responseOf[refresh.SeedResult](), withNotFound...)),
		adm("GET /admin/oauth-apps", "listOAuthApps", "The OAuth apps connect links use, gateway-wide and per tenant (never their secrets), and the redirect URI to register",
			nil, jsonOK(200, responseOf[oauthapps.List](), adminErrors...)),
		adm("PUT /admin/oauth-apps/{provider}", "putOAuthApp", "Create (201) or replace (200) the gateway-wide OAuth app of google, hubspot, meta or linkedin; "+
			"the client secret is sealed, and kept when a replace leaves it out", jsonBody(requestOf[oauthapps.Body]("client_id")),
			withStatus(jsonOK(200, responseOf[oauthapps.Saved](), adminErrors...), 201, jsonContent(responseOf[oauthapps.Saved]()))),
		adm("GET /admin/oauth-apps/{provider}", "getOAuthApp", "The gateway-wide OAuth app of a provider", nil,
			jsonOK(200, responseOf[oauthapps.Found](), withNotFound...)),
		adm("DELETE /admin/oauth-apps/{provider}", "deleteOAuthApp", "Delete the gateway-wide OAuth app of a provider", nil,
			jsonOK(200, responseOf[oauthapps.Deleted](), withNotFound...)),
		adm("PUT /admin/tenants/{tenant_id}/oauth-apps/{provider}", "putTenantOAuthApp", "Create (201) or replace (200) a tenant's own OAuth app, used instead of the gateway-wide one",
			jsonBody(requestOf[oauthapps.Body]("client_id")),
			withStatus(jsonOK(200, responseOf[oauthapps.Saved](), withNotFound...), 201, jsonContent(responseOf[oauthapps.Saved]()))),
		adm("GET /admin/tenants/{tenant_id}/oauth-apps/{provider}", "getTenantOAuthApp", "A tenant's own OAuth app of a provider", nil,
			jsonOK(200, responseOf[oauthapps.Found](), withNotFound...)),
		adm("DELETE /admin/tenants/{tenant_id}/oauth-apps/{provider}", "deleteTenantOAuthApp", "Delete a tenant's own OAuth app (the tenant then uses the gateway-wide one)", nil,
			jsonOK(200, responseOf[oauthapps.Deleted](), withNotFound...)),
		adm("GET /admin/sso/idps", "listIdPs", "The identity providers people sign in through (never their secrets), and the redirect URI to register at each",
			nil, jsonOK(200, responseOf[people.IdPList](), adminErrors...)),
		adm("GET /admin/sso/idps/{name}", "getIdP", "An identity provider", nil, jsonOK(200, responseOf[people.IdPFound](), withNotFound...)),
		adm("PUT /admin/sso/idps/{name}", "putIdP", "Create (201) or replace (200) an OpenID Connect identity provider once its issuer's "+
			"/.well-known/openid-configuration is fetched and names it (502 UPSTREAM_ERROR when it cannot be, 400 when it names another issuer); "+
			"the client secret is sealed, and kept when a replace leaves it out. With tenant_id the IdP is the tenant's own and only grants its roles",
			jsonBody(requestOf[people.IdPBody]("issuer", "client_id")),
			withStatus(jsonOK(200, responseOf[people.IdPSaved](), append([]int{409, 502}, withNotFound...)...), 201, jsonContent(responseOf[people.IdPSaved]()))),
		adm("DELETE /admin/sso/idps/{name}", "deleteIdP", "Delete an identity provider with its role grants, its people and their console sessions", nil,
			jsonOK(200, responseOf[people.IdPDeleted](), withNotFound...)),
		adm("GET /admin/people", "listPeople", "Everyone who has signed in through an identity provider", nil,
			jsonOK(200, responseOf[people.PeopleList](), adminErrors...)),
		adm("DELETE /admin/people/{person_id}", "deletePerson", "Delete a person with their subject grants and their own grants of upstream MCP servers, ending their console sessions "+
			"(their email and group grants stay: they may sign in again)", nil, jsonOK(200, responseOf[people.PersonDeleted](), withNotFound...)),
		adm("GET /admin/role-grants", "listRoleGrants", "The grants that give people roles", nil, jsonOK(200, responseOf[people.GrantList](), adminErrors...),
			queryParam("idp", "Only the grants of this identity provider.", str), queryParam("tenant", "Only the grants of roles in this tenant.", str)),
		adm("POST /admin/role-grants", "createRoleGrant", "Grant a role to the people of an identity provider matching a subject, a verified email or a group; "+
			"a tenant's own IdP only grants that tenant's roles", jsonBody(requestOf[people.GrantBody]("idp", "kind", "match", "role")),
			jsonOK(201, responseOf[people.GrantCreated](), append([]int{409}, withNotFound...)...)),
		adm("DELETE /admin/role-grants/{grant_id}", "deleteRoleGrant", "Revoke a role grant; sessions it carried lose the role on their next request", nil,
			jsonOK(200, responseOf[people.GrantDeleted](), withNotFound...)),
		adm("GET /admin/admin-keys", "listAdminKeys", "Named admin keys, revoked ones included, oldest first: prefix, scopes, tenants, status "+
			"(active, expired or revoked) and last use, never the key or its hash", nil, jsonOK(200, responseOf[admin.AdminKeyList](), adminErrors...)),
		withDescription(adm("POST /admin/admin-keys", "createAdminKey", "Create a named admin key; the answer holds the key (gtmak_…), shown this once",
			jsonBody(requestOf[admin.AdminKeyBody]("name", "scopes")), jsonOK(201, responseOf[admin.AdminKeyCreated](), append([]int{409}, withNotFound...)...)),
			"scopes are some of read, approve and write (write also covers a tenant's owner routes and, for a key limited to no tenant, "+
				"the operator's). tenants limit the key to those tenants (404 TENANT_NOT_FOUND for one not provisioned); none: every tenant. "+
				"owner defaults to the creating actor's name. An expiry is optional and unbounded: expires_in (a Go duration, e.g. 720h) or "+
				"expires_at (RFC 3339, in the future), not both; without one the key lasts until revoked. A name is unique among the keys "+
				"not revoked (409). Only the key's SHA-256 is stored; requests made with the key are audited as api-key:<id> via x-admin-key."),
		adm("DELETE /admin/admin-keys/{key_id}", "revokeAdminKey", "Revoke a named admin key: it is refused (401, naming it revoked) from its next request on; "+
			"404 for an unknown or already revoked key", nil, jsonOK(200, responseOf[admin.AdminKeyView](), withNotFound...)),
		adm("POST /admin/tenants/{tenant_id}/connect-links", "createConnectLink", "A single-use connect link (url holds its secret, shown once) "+
			"through which an account's owner connects a provider account to the tenant; 400 names PUT /admin/oauth-apps/{provider} when no app is registered. "+
			"provider mcp:<server> connects one of the tenant's upstream MCP servers of auth kind oauth (an authorization-code grant with PKCE)",
			jsonBody(requestOf[connectflow.CreateBody]("provider")), jsonOK(201, responseOf[connectflow.Created](), withNotFound...)),
		adm("POST /admin/tenants/{tenant_id}/connect-links/mine", "createOwnConnectLink", "A single-use connect link through which the signed-in person "+
			"connects an account of their own (only agents acting for them reach it); any role in the tenant may; 403 for the admin key and named admin keys, which are no person",
			jsonBody(requestOf[connectflow.MineBody]("provider")), jsonOK(201, responseOf[connectflow.Created](), withNotFound...)),
		adm("GET /admin/connect-links", "listConnectLinks", "Connect links, newest first, with their status and result (never their secrets)", nil,
			jsonOK(200, responseOf[connectflow.List](), adminErrors...), tenantQ, limitOf(50, 500)),
		adm("GET /admin/jobs", "listJobs", "Background jobs (River), newest first", nil,
			jsonOK(200, jobList, adminErrors...),
			queryParam("state", "Comma-separated River states: available, cancelled, completed, discarded, pending, retryable, running, scheduled.", str),
			queryParam("kind", "Comma-separated job kinds, e.g. grade_trace, webhook_delivery.", str), limitOf(50, 500),
			queryParam("cursor", "next_cursor of the previous page.", str)),
		adm("GET /admin/jobs/{id}", "getJob", "Get a job with its attempts' errors", nil, jsonOK(200, responseOf[jobs.Job](), withNotFound...)),
		adm("POST /admin/jobs/{id}/retry", "retryJob", "Make a job available to run now", nil, jsonOK(200, responseOf[jobs.Job](), withNotFound...)),
		adm("POST /admin/jobs/{id}/cancel", "cancelJob", "Cancel a job (a running one is asked to stop and not retried)", nil,
			jsonOK(200, responseOf[jobs.Job](), withNotFound...)),
		adm("GET /admin/grader", "graderStatus", "The quality harness: on or off and why, sample rate, judges, rubric version", nil,
			jsonOK(200, responseOf[quality.Status](), adminErrors...)),
		adm("GET /admin/grader/verdicts", "listVerdicts", "Recent verdicts, newest first (the admin key also works as a bearer token)", nil,
			jsonOK(200, listOf[gtmgate.GraderVerdict]("verdicts"), adminErrors...),
			limitOf(50, 500), tenantQ, queryParam("tool", "Only this tool.", str),
			queryParam("max_quality", "Only panel quality at or below this (1-4).", Schema{"type": "integer", "minimum": 1, "maximum": 4}),
			queryParam("issue", "Only verdicts whose panel names this issue.", Schema{"enum": gtmgate.Issues}),
			queryParam("routing_defect", "true or false.", Schema{"type": "boolean"}),
			queryParam("labelled", "true or false.", Schema{"type": "boolean"}), since),
		adm("GET /admin/grader/verdicts/{id}", "getVerdict", "A verdict with its three judges, panel and trace", nil,
			jsonOK(200, responseOf[gtmgate.GraderVerdict](), withNotFound...)),
		adm("POST /admin/grader/verdicts/{id}/label", "labelVerdict", "Label a panel verdict correct or wrong (judges' accuracy is measured against labels)",
			jsonBody(requestOf[quality.LabelBody]("correct")), jsonOK(200, responseOf[gtmgate.GraderVerdict](), withNotFound...)),
		adm("POST /admin/grader/traces/{id}/regrade", "regradeTrace", "Grade a trace again under a new verdict id", nil,
			jsonOK(202, object(map[string]Schema{"trace_id": str, "verdict_id": str, "status": str}), append([]int{404, 503}, adminErrors...)...)),
		adm("GET /admin/grader/agreement", "graderAgreement", "Fleiss' kappa over categories, each judge's agreement with the panel and accuracy against labels", nil,
			jsonOK(200, object(map[string]Schema{"since": {"type": "string", "format": "date-time"}, "agreement": responseOf[quality.Agreement]()}), adminErrors...),
			tenantQ, queryParam("since", "Start of the window (default 30 days ago).", Schema{"type": "string", "format": "date-time"})),
		adm("GET /admin/grader/paths", "listToolPaths", "Quality state of tool paths: streaks, degraded, open incident", nil,
			jsonOK(200, listOf[gtmgate.PathState]("paths"), adminErrors...), tenantQ, queryParam("degraded", "true: only degraded paths.", Schema{"type": "boolean"})),
		adm("GET /admin/grader/deliveries", "listDeliveries", "Alert webhook delivery attempts, newest first", nil,
			jsonOK(200, listOf[gtmgate.WebhookDelivery]("deliveries"), adminErrors...),
			queryParam("webhook_id", "Only attempts of this message.", str), queryParam("event", "quality.alert, incident.opened, incident.closed or incident.resolved.", str), since, limit),
		adm("GET /admin/incidents", "listIncidents", "Quality incidents (error ledger entries of kind incident)", nil,
			jsonOK(200, listOf[gtmgate.LedgerEntry]("incidents"), adminErrors...),
			tenantQ, queryParam("status", "open or resolved.", Schema{"enum": []string{"open", "resolved"}}), since, limit),
		adm("POST /admin/incidents/{id}/resolve", "resolveIncident", "Resolve an open incident: its quality gate lifts", nil,
			jsonOK(200, responseOf[gtmgate.LedgerEntry](), append([]int{404, 409}, adminErrors...)...)),
		adm("GET /admin/agent-schedules", "listSchedules", "Scheduled jobs with their next run and last runs", nil,
			jsonOK(200, listOf[schedule.View]("schedules"), adminErrors...), tenantQ),
		adm("GET /admin/agent-schedules/{job_id}", "getSchedule", "A scheduled job with its last 50 runs", nil,
			jsonOK(200, responseOf[schedule.View](), withNotFound...), scheduleTenant),
		adm("PUT /admin/agent-schedules/{job_id}", "putSchedule", "Create or replace a scheduled job (201 created, 200 replaced)",
			jsonBody(requestOf[schedule.Input]("tenant_id", "cron")),
			withStatus(jsonOK(200, responseOf[schedule.View](), adminErrors...), 201, jsonContent(responseOf[schedule.View]()))),
		adm("DELETE /admin/agent-schedules/{job_id}", "deleteSchedule", "Delete a scheduled job (its runs stay recorded)", nil,
			jsonOK(200, object(map[string]Schema{"deleted": str, "tenant_id": str}), withNotFound...), scheduleTenant),
		adm("POST /admin/run-cron", "runCron", "Run now every scheduled job whose cron expression equals the body's",
			jsonBody(requestOf[schedule.RunCronBody]("cron")),
			jsonOK(200, object(map[string]Schema{"cron": str, "ran": {"type": "array", "items": responseOf[schedule.Ran]()}}), append([]int{404}, adminErrors...)...)),
		adm("POST /admin/agent-schedules/{job_id}/run", "runScheduleNow", "Run one scheduled job now, outside its cron (a disabled job is skipped)",
			nil, jsonOK(200, responseOf[schedule.Ran](), withNotFound...), scheduleTenant),
		adm("GET /admin/agent-runs", "listAgentRuns", "Agent runs, newest first", nil, jsonOK(200, listOf[agent.View]("runs"), adminErrors...),
			tenantQ, queryParam("job_id", "Only runs of this scheduled job.", str),
			queryParam("status", "queued, running, waiting_approval, succeeded, failed, cancelled or skipped.", str), limitOf(50, 500)),
		adm("GET /admin/agent-runs/{run_id}", "getAgentRun", "An agent run: steps, answer and cost", nil, jsonOK(200, responseOf[agent.View](), withNotFound...)),
		adm("POST /admin/agent-runs/{run_id}/cancel", "cancelAgentRun", "Cancel a run that has not finished", nil,
			jsonOK(200, responseOf[agent.View](), append([]int{404, 409}, adminErrors...)...)),
		adm("GET /admin/system-health", "getSystemHealth", "The latest system health snapshot (one a minute, kept a week), a fresh one, or the series since a time", nil,
			jsonOK(200, Schema{"type": "object", "description": "A snapshot (id, taken_at, status, reasons, store, jobs, audit, providers, " +
				"accounts, webhooks, judges, incidents, approvals, disk, process, replicas, api_versions), or with since {snapshots, count}."}, adminErrors...),
			queryParam("fresh", "1 takes (and keeps) a snapshot now.", str),
			queryParam("since", "Return {snapshots: [...]} taken at or after this RFC 3339 time, oldest first.", str)),
		adm("POST /admin/providers/check", "checkProviders", "One harmless read per provider account at the real provider: reachability, "+
			"authentication, API version and its sunset (200 whatever the outcomes; ok says whether every account can work)", nil,
			jsonOK(200, responseOf[providercheck.Report](), withNotFound...), queryParam("tenant", "Only this tenant's accounts (default every tenant's).", str)),
		adm("GET /admin/daily-brief", "getDailyBrief", "The latest daily brief (Accept: text/markdown for the markdown alone)", nil,
			withStatus(errorResponses(adminErrors...), 200, map[string]MediaType{"application/json": {Schema: responseOf[gtmgate.DailyBrief]()},
				"text/markdown": {Schema: str}}),
			queryParam("date", "The brief of this day, YYYY-MM-DD (default the latest).", Schema{"type": "string", "format": "date"})),
		adm("POST /admin/daily-brief/trigger", "triggerDailyBrief", "Write the daily brief of the last 24 hours now", nil,
			jsonOK(201, responseOf[gtmgate.DailyBrief](), adminErrors...)),
		adm("GET /admin/oauth-refresh", "listRefreshAccounts", "Provider accounts with refresh configured (no secrets)", nil,
			jsonOK(200, listOf[refresh.AccountStatus]("accounts"), withNotFound...), tenantQ),
		adm("GET /admin/reauth", "listReauthAccounts", "Provider accounts whose owner must connect them again: refresh refused, "+
			"or a token that cannot be refreshed expiring within GTMGATE_REAUTH_WARN_BEFORE or expired", nil,
			jsonOK(200, listOf[reauth.Account]("accounts"), withNotFound...), tenantQ),
		adm("GET /admin/tenants/{tenant_id}/toolsets", "listToolsets", "A tenant's toolsets by name", nil,
			jsonOK(200, responseOf[admin.ToolsetList](), withNotFound...)),
		adm("GET /admin/tenants/{tenant_id}/toolsets/{name}", "getToolset", "One of a tenant's toolsets", nil,
			jsonOK(200, responseOf[admin.ToolsetView](), withNotFound...)),
		withDescription(adm("PUT /admin/tenants/{tenant_id}/toolsets/{name}", "putToolset",
			"Create (201) or replace (200) a tenant's toolset: what the agents given it may see and call",
			jsonBody(requestOf[gtmgate.Toolset]("allow")),
			withStatus(jsonOK(200, responseOf[admin.ToolsetView](), withNotFound...), 201, jsonContent(responseOf[admin.ToolsetView]()))),
			"An action is allowed when an allow rule matches it and no deny rule does, and, with read_only, when it does not mutate. "+
				"A rule is *, a tool name or glob (crm_*), tool.action (crm_deals.list, crm_*.list), category:<quality category> "+
				"or a pattern over an upstream MCP server's tools (acme__*). accounts limits, per provider, which of the tenant's "+
				"accounts the agent may act on. With discovery, MCP lists only the pinned tools plus find_tools and call_tool, which "+
				"search and run every allowed tool. approval_status and submit_feedback are always allowed. An unknown tool, action, "+
				"category or account is 400 VALIDATION_ERROR. Give the toolset to an agent with POST /admin/auth {toolset}."),
		adm("DELETE /admin/tenants/{tenant_id}/toolsets/{name}", "deleteToolset",
			"Delete a tenant's toolset; 409 while an unrevoked token uses it", nil,
			withStatus(errorResponses(append([]int{409}, withNotFound...)...), 204, nil)),
		withDescription(adm("GET /admin/tenants/{tenant_id}/tools", "listTenantTools",
			"The tools a tenant's agents get, built-in and from its upstream MCP servers, each with its input schema and actions", nil,
			jsonOK(200, responseOf[admin.ToolList](), withNotFound...),
			queryParam("toolset", "Only what an agent given this toolset gets.", str),
			queryParam("token", "Only what the agent of this tenant token gets (its toolset).", str)),
			"Each action says whether it mutates, whether it is destructive, and held: whether the tenant's approval policy as it "+
				"stands holds a call of it for a human (an open quality incident on the tool holds mutating actions too, at call time). "+
				"An unknown toolset or token is 404."),
		withDescription(adm("POST /admin/tenants/{tenant_id}/tools/{tool}/call", "callTenantTool",
			"Run a tool call for the tenant, as the signed-in actor, through the gateway's one execution path",
			jsonBody(requestOf[admin.ToolCallBody]("input")),
			withStatus(jsonOK(200, responseOf[gateway.ToolCallResult](), append([]int{409, 422, 424, 502, 503, 504}, withNotFound...)...),
				202, jsonContent(ref("ErrorBody")))),
			"The call is validated, gated, executed and audited as an agent's call is, with source console when the console makes it "+
				"(admin otherwise) and the actor's audit key (person:…, api-key:…, admin-key). A person acts as an agent acting for them "+
				"would: the tenant's shared accounts and their own; a key acts for the tenant as a whole. toolset limits the call as it "+
				"limits an agent given it. A call held for approval is 202 APPROVAL_REQUIRED with approval_id, as on the REST proxy."),
		adm("GET /admin/tenants/{tenant_id}/mcp-servers", "listMCPServers", "A tenant's upstream MCP servers by name, each with its reachability "+
			"and every tool it last listed (served, left out by the allow-list, or refused with the reason); never a secret", nil,
			jsonOK(200, responseOf[mcpservers.List](), withNotFound...)),
		adm("GET /admin/tenants/{tenant_id}/mcp-servers/{name}", "getMCPServer", "One of a tenant's upstream MCP servers with its tools", nil,
			jsonOK(200, responseOf[mcpservers.Found](), withNotFound...)),
		withDescription(adm("PUT /admin/tenants/{tenant_id}/mcp-servers/{name}", "putMCPServer",
			"Create (201) or replace (200) a tenant's upstream MCP server, then list its tools; the answer is the server",
			jsonBody(requestOf[mcpservers.Body]("url")),
			withStatus(jsonOK(200, responseOf[mcpservers.View](), withNotFound...), 201, jsonContent(responseOf[mcpservers.View]()))),
			"The server's tools are served to the tenant's agents as NAME__tool. NAME is 1 to 32 lowercase letters, digits or '-' "+
				"(never '_'). url is the streamable-HTTP endpoint: https, or http for a loopback host or an IP address in the operator's "+
				"allowed ranges. auth.kind none, bearer (token), header (header, value) or client_credentials (token_url, client_id, "+
				"client_secret, scopes); the secret is sealed and never shown (auth.secret_set says whether one is stored). "+
				"A replace that leaves the secret out keeps the stored one when auth.kind is unchanged and the secret would go to the same "+
				"origin (the url's for bearer and header, the token_url's for client_credentials); otherwise it must be sent again. "+
				"tools, when not empty, is the allow-list of upstream tool names served; overrides set a tool's category, mutating or "+
				"destructive over its annotations. A tenant has at most 64 servers. After saving, the tools are listed (at most 15 s): "+
				"a listing that fails does not fail the PUT; state.reachable is false and state.error says why."),
		adm("DELETE /admin/tenants/{tenant_id}/mcp-servers/{name}", "deleteMCPServer", "Delete a tenant's upstream MCP server: its tools are no longer served", nil,
			withStatus(errorResponses(withNotFound...), 204, nil)),
		withDescription(adm("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/refresh", "refreshMCPServer",
			"List an upstream MCP server's tools now; the answer is the server", nil,
			jsonOK(200, responseOf[mcpservers.View](), withNotFound...)),
			"200 whether or not the upstream answered: when it did not, state.reachable is false, state.error says why (never a "+
				"secret) and the tools it last listed stay served."),
		withDescription(adm("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/test", "testMCPServer",
			"Test a server configuration without saving it: list its tools as a PUT of the same body would",
			jsonBody(requestOf[mcpservers.Body]("url")),
			jsonOK(200, responseOf[mcpservers.TestResult](), withNotFound...)),
			"Takes PUT's body and validates it the same way; a left-out secret is taken from the stored server under PUT's rules "+
				"(same auth kind, same origin). The tools are listed on a connection of its own (at most 15 s) and shown as the server's "+
				"view would show them under the body's allow-list and overrides. Nothing is stored and the served tools do not change. "+
				"200 whether or not the upstream answered: reachable, latency_ms and error (never a secret) say how it went."),
		withDescription(adm("GET /admin/tenants/{tenant_id}/mcp-servers/{name}/changes", "listMCPServerChanges",
			"The tool definitions of an upstream MCP server waiting for acceptance: new, changed or removed, each with the accepted "+
				"and the listed definition, the hash to accept and its flags", nil,
			jsonOK(200, responseOf[mcpservers.Changes](), withNotFound...)),
			"Only accepted definitions are served: a new tool is not served until accepted, a changed one keeps serving its accepted "+
				"definition, a removed one is no longer served. lifts_gate says the listed definition does less than the accepted gate "+
				"(read-only where it was mutating, or no longer destructive). flags name instructions to the model, hidden characters "+
				"and URLs to other hosts found in the definition's texts."),
		withDescription(adm("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/changes/accept", "acceptMCPServerChanges",
			"Accept tool definitions waiting: they are served from now on", jsonBody(requestOf[mcpservers.AcceptBody]()),
			jsonOK(200, responseOf[mcpservers.AcceptAnswer](), append([]int{409}, withNotFound...)...)),
			"tools is an object of tool name to the hash shown by GET …/changes (409 CONFLICT when the listing changed since, so "+
				"nobody accepts a definition they did not see), or an array of names accepted as listed now; all: true accepts every "+
				"change as listed now. A definition that would lift the gate keeps the accepted gate unless lift_gate names the tool; "+
				"the audit entry then says \"lifts the gate\"."),
	}
}

// withDescription sets an operation's description.
func withDescription(op operation, description string) operation {
	op.description = description
	return op
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// pathParams declares the parameters named in path.
func pathParams(path string) []Parameter {
	var out []Parameter
	for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
		p := Parameter{Name: m[1], In: "path", Required: true, Schema: str}
		switch m[1] {
		case "domain":
			p.Schema = Schema{"enum": registry.Domains}
			p.Description = "The tool's domain; the body's tool must belong to it."
		case "tenant", "tenant_id":
			p.Description = "Tenant id."
		}
		out = append(out, p)
	}
	return out
}

// Gateway describes the gateway listener's routes. patterns are those
// registered (gateway.Server.Patterns): the document holds exactly those,
// and a registered route without a description is an error.
func Gateway(reg *registry.Registry, patterns []string) (*Document, error) {
	byPattern := map[string]operation{}
	for _, op := range gatewayOperations() {
		byPattern[op.pattern] = op
	}
	d := &Document{
		OpenAPI: "3.1.0",
		Info: Info{Title: "gtmgate gateway", Version: GatewayVersion,
			Description: "The REST proxy, MCP endpoint, chat pass-through, OAuth authorization server, health and admin API of a gtmgate gateway. " +
				"Tool input schemas come from the tool registry. Every response carries X-Request-Id, the server's id of the request; " +
				"an X-Request-Id sent by the client is echoed as X-Correlation-Id and recorded as the call's correlation_id."},
		Paths:    map[string]*PathItem{},
		Security: []map[string][]string{}, // each operation names its own
		Components: &Components{
			Schemas: errorSchemas(),
			SecuritySchemes: map[string]SecurityScheme{
				secBearer: {Type: "http", Scheme: "bearer", Description: "A tenant token, or on /mcp an OAuth access token."},
				secAdmin: {Type: "apiKey", In: "header", Name: "X-Admin-Key", Description: "The bootstrap admin key, or a named admin key (gtmak_…) " +
					"limited to its scopes and tenants (Authorization: Bearer works too on /admin/feedback and /admin/grader/verdicts)."},
			},
		},
		Tags: []Tag{{Name: "tools"}, {Name: "mcp"}, {Name: "chat"}, {Name: "oauth"}, {Name: "admin"}, {Name: "health"}},
	}
	for name, s := range toolSchemas(reg) {
		d.Components.Schemas[name] = s
	}
	var missing []string
	for _, pattern := range patterns {
		op, ok := byPattern[pattern]
		if !ok {
			missing = append(missing, pattern)
			continue
		}
		method, path, hasMethod := strings.Cut(pattern, " ")
		methods := op.methods
		if !hasMethod {
			path = pattern
		} else {
			methods = []string{strings.ToLower(method)}
		}
		responses := withIDHeaders(op.responses)
		for _, m := range methods {
			o := &Operation{OperationID: op.id, Summary: op.summary, Description: op.description, Tags: []string{op.tag},
				Parameters: append(pathParams(path), op.query...), Responses: responses}
			if len(methods) > 1 {
				o.OperationID = op.id + strings.ToUpper(m[:1]) + m[1:]
			}
			if m == "post" || m == "put" || m == "patch" {
				o.RequestBody = op.body
			}
			if op.security != "" {
				o.Security = []map[string][]string{{op.security: {}}}
			}
			d.add(m, path, o)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("openapi: routes without a description: %s", strings.Join(missing, ", "))
	}
	return d, nil
}
