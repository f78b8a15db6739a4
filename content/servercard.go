package content

// ServerCardSchema is the MCP Server Card schema URL.
const ServerCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

// ServerCard is an MCP server card (server.json's shape).
type ServerCard struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	WebsiteURL  string   `json:"websiteUrl,omitempty"`
	Remotes     []Remote `json:"remotes"`
	// Meta carries extensions under reverse-DNS keys, as server.json allows.
	Meta map[string]any `json:"_meta,omitempty"`
}

// Remote is one endpoint of a server card.
type Remote struct {
	Type    string         `json:"type"`
	URL     string         `json:"url"`
	Headers []RemoteHeader `json:"headers,omitempty"`
}

// RemoteHeader is a header a client must send to a remote.
type RemoteHeader struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
}
