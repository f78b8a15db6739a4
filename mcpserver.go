package gtmgate

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// How gtmgate authenticates to an upstream MCP server, an MCPServerAuth's Kind.
const (
	MCPAuthNone = "none"
	// MCPAuthBearer sends the tenant's own token as "Authorization: Bearer".
	MCPAuthBearer = "bearer"
	// MCPAuthHeader sends one static header (name and value).
	MCPAuthHeader = "header"
	// MCPAuthClientCredentials gets an access token with an OAuth 2.0
	// client-credentials grant and sends it as a bearer token.
	MCPAuthClientCredentials = "client_credentials"
	// MCPAuthOAuth sends the access token of an OAuth 2.1 authorization-code
	// grant (with PKCE) a person made through a connect link: the tenant's
	// grant, or the person's own when the calling agent acts for a person.
	MCPAuthOAuth = "oauth"
)

// MCPGrantPrefix starts the provider name under which an oauth server's
// grant is kept with the provider tokens: "mcp:<server name>".
const MCPGrantPrefix = "mcp:"

// MCPGrantTenant is the account of a tenant-wide grant of an oauth server;
// a person's own grant is kept under the person's id ("p_…").
const MCPGrantTenant = "tenant"

// MCPGrantProvider is the provider name of server's grants: "mcp:crm".
func MCPGrantProvider(server string) string { return MCPGrantPrefix + server }

// Whose grant an oauth server's calls use, an MCPServerAuth's Grant.
const (
	// MCPGrantPerTenant: the tenant's one grant serves every call (the
	// default, "" means it too).
	MCPGrantPerTenant = "tenant"
	// MCPGrantPerPerson: each call uses the grant of the person its caller
	// acts for, kept under the person's id; a call that acts for no
	// person, or whose person has not connected, is refused.
	MCPGrantPerPerson = "person"
)

// PerPerson reports whether the server's calls use each person's own
// grant rather than the tenant's.
func (a MCPServerAuth) PerPerson() bool {
	return a.Kind == MCPAuthOAuth && a.Grant == MCPGrantPerPerson
}

// GrantPerson is the person ("p_…") whose own grant a call to a
// per-person oauth server uses: the person the caller acts for
// (Principal.Credential().Person: a token's or OAuth grant's person, or an
// agent run's OnBehalfOf), else the principal's Person (an approved call
// runs as the approval, for the person the held call acted for); "" when
// the call acts for no person.
func GrantPerson(ctx context.Context) string {
	p := PrincipalFromContext(ctx)
	if person := p.Credential().Person; person != "" || p == nil {
		return person
	}
	return p.Person
}

// FederatedSeparator joins an upstream server's name and its tool's name
// into the name a tenant's agents call: "slack__post_message".
const FederatedSeparator = "__"

// IsFederatedName reports whether name is shaped like a federated tool's:
// no built-in tool's name holds the separator.
func IsFederatedName(name string) bool { return strings.Contains(name, FederatedSeparator) }

// FederatedDomainPrefix starts the REST domain of an upstream server's
// tools: "mcp/slack".
const FederatedDomainPrefix = "mcp/"

// MCPServer is an upstream MCP server one tenant brings: its tools appear to
// the tenant's agents namespaced by Name and run through the same path as
// the built-in tools. Several tenants may name the same URL, each with its
// own credential.
type MCPServer struct {
	TenantID string `json:"tenant_id"`
	// Name namespaces the server's tools: [a-z0-9-]{1,32}, no "__".
	Name string `json:"name"`
	// URL is the server's streamable-HTTP endpoint.
	URL  string        `json:"url"`
	Auth MCPServerAuth `json:"auth"`
	// Tools, when not empty, is the allow-list of the upstream tool names
	// exposed; empty exposes every tool.
	Tools []string `json:"tools,omitempty"`
	// Overrides change, per upstream tool name, what the upstream's
	// annotations say.
	Overrides map[string]MCPToolOverride `json:"overrides,omitempty"`
	// AutoAcceptChanges accepts every listed tool definition at listing
	// time, as "auto", for trusted in-house servers. It never lifts a gate.
	AutoAcceptChanges bool      `json:"auto_accept_changes,omitempty"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	// State is what discovery last found; the store keeps it apart from
	// the configuration (Put never changes it).
	State MCPServerState `json:"state"`
	// Accepted is, per upstream tool name, the definition a person (or
	// auto-accept) accepted: only these are served. The store keeps it
	// apart from the configuration and the state. Nil means the server
	// predates pinning (nothing was ever accepted); empty means nothing is.
	Accepted map[string]MCPAcceptedTool `json:"accepted,omitempty"`
}

// MCPAcceptedTool is one upstream tool's definition as it was accepted.
type MCPAcceptedTool struct {
	// Tool is the MCP tool JSON as the upstream listed it.
	Tool json.RawMessage `json:"tool"`
	// Hash is the definition's hash (federation.DefinitionHash).
	Hash string `json:"hash"`
	// Mutating and Destructive are the gate the acceptance set: a later
	// definition that says less only lowers them when a person's
	// acceptance says so explicitly.
	Mutating    bool      `json:"mutating"`
	Destructive bool      `json:"destructive"`
	By          string    `json:"by"`
	At          time.Time `json:"at"`
}

// MCPAcceptedByAuto names auto-accept as the acceptor of a definition.
const MCPAcceptedByAuto = "auto"

// MCPServerAuth says how gtmgate authenticates to an upstream server.
// Secret is sealed at rest and never shown.
type MCPServerAuth struct {
	Kind string `json:"kind"`
	// Header is the header name of MCPAuthHeader ("X-Api-Key").
	Header string `json:"header,omitempty"`
	// Secret is the bearer token, the header's value, or the client secret.
	Secret string `json:"-"`
	// TokenURL, ClientID and Scopes configure MCPAuthClientCredentials;
	// ClientID (with Secret), when set, is MCPAuthOAuth's static client,
	// and Scopes are asked for at consent. An oauth server without a static
	// client registers one dynamically (RFC 7591) at its first connect.
	TokenURL string   `json:"token_url,omitempty"`
	ClientID string   `json:"client_id,omitempty"`
	Scopes   []string `json:"scopes,omitempty"`
	// Grant says whose grant MCPAuthOAuth's calls use: MCPGrantPerTenant
	// ("" too) or MCPGrantPerPerson.
	Grant string `json:"grant,omitempty"`
	// ClientRegistration says how MCPAuthOAuth gets a client without a
	// static one: MCPClientRegistrationAuto ("" too), ...MetadataDocument
	// or ...Dynamic.
	ClientRegistration string `json:"client_registration,omitempty"`
}

// How an oauth server without a static client gets one, an
// MCPServerAuth's ClientRegistration.
const (
	// MCPClientRegistrationAuto: gtmgate's client ID metadata document when
	// the authorization server takes it and can fetch it, else dynamic
	// registration (the MCP specification's order; "" means it too).
	MCPClientRegistrationAuto = "auto"
	// MCPClientRegistrationMetadataDocument: the metadata document only; a
	// connect fails, saying why, when it cannot be used.
	MCPClientRegistrationMetadataDocument = "metadata_document"
	// MCPClientRegistrationDynamic: dynamic registration (RFC 7591) only,
	// for an authorization server that cannot reach gtmgate's public URL.
	MCPClientRegistrationDynamic = "dynamic"
)

// MCPToolOverride replaces what an upstream tool's annotations say. Nil
// fields keep the upstream's word.
type MCPToolOverride struct {
	Category    Category `json:"category,omitempty"`
	Mutating    *bool    `json:"mutating,omitempty"`
	Destructive *bool    `json:"destructive,omitempty"`
}

// MCPServerState is what discovery last found at an upstream server.
type MCPServerState struct {
	// Tools is the last good tools/list answer: a JSON array of MCP tools
	// as the upstream described them, kept while the upstream is down.
	Tools json.RawMessage `json:"tools,omitempty"`
	// ToolsRefreshedAt is when Tools was last listed successfully.
	ToolsRefreshedAt *time.Time `json:"tools_refreshed_at,omitempty"`
	// CheckedAt is the last attempt to reach the server; Reachable and
	// LatencyMS are its outcome, Error why it failed (never a secret).
	CheckedAt *time.Time `json:"checked_at,omitempty"`
	Reachable bool       `json:"reachable"`
	LatencyMS float64    `json:"latency_ms,omitempty"`
	Error     string     `json:"error,omitempty"`
	// NotConnected says the server asks for an OAuth grant that no one has
	// given yet, or that lapsed: not the server's fault, so health does not
	// count it unreachable (re-authorisation lists a lapsed grant).
	NotConnected bool `json:"not_connected,omitempty"`
}

// MCPServerStore keeps tenants' upstream MCP servers.
type MCPServerStore interface {
	// PutMCPServer creates or replaces the configuration of (TenantID,
	// Name), keeping its discovered state; created says which.
	PutMCPServer(ctx context.Context, s *MCPServer) (created bool, err error)
	// GetMCPServer returns ErrNotFound when the tenant has no such server.
	GetMCPServer(ctx context.Context, tenantID, name string) (*MCPServer, error)
	// ListMCPServers returns a tenant's servers by name, or every tenant's
	// when tenantID is "" (by tenant, then name), secrets included.
	ListMCPServers(ctx context.Context, tenantID string) ([]*MCPServer, error)
	// DeleteMCPServer returns ErrNotFound when there is no such server.
	DeleteMCPServer(ctx context.Context, tenantID, name string) error
	// SaveMCPServerState stores what discovery found; ErrNotFound when the
	// server was removed meanwhile.
	SaveMCPServerState(ctx context.Context, tenantID, name string, st MCPServerState) error
	// AcceptMCPTools records accepted definitions of (tenantID, name)'s
	// tools: each entry of tools replaces that tool's, a nil entry removes
	// it; By is set to by and At to now. It touches nothing else.
	// ErrNotFound when there is no such server.
	AcceptMCPTools(ctx context.Context, tenantID, name string, tools map[string]*MCPAcceptedTool, by string) error
}
