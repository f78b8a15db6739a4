// Package hubspot adapts HubSpot's CRM API (objects, associations, pipelines
// and properties, at a date-based version such as 2026-03 or at the legacy
// v3/v4 paths) to gtmgate tools, and provides a sandbox that speaks the same
// HTTP API, both path shapes, with sample data for tests and the demo.
//
// Results keep HubSpot's raw property names ("firstname", "dealstage",
// "hs_task_status"…) because agents need them to filter and write back; only
// the envelope is gtmgate's: {"items", "next_cursor", "total"} for lists and
// {"id", "properties", "created_at", "updated_at", "archived", "url"} per record.
package hubspot

import (
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of every HubSpot tool.
const Provider = "hubspot"

// DefaultBaseURL is HubSpot's public API root.
const DefaultBaseURL = "https://api.hubapi.com"

// domain is the gateway REST domain of the CRM tools.
const domain = "crm"

// Page-size ceilings HubSpot enforces: object lists return at most 100
// records per page, search at most 200.
const (
	maxListLimit   = 100
	maxSearchLimit = 200
)

// Tools returns the eight CRM tools bound to c, a client for HubSpot's API
// (or the sandbox), speaking c's API version (the catalogue's default when
// c has none).
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c, version: versionOf(c.APIVersion())}
	return []gtmgate.Tool{
		objectTool(a, contacts),
		objectTool(a, companies),
		objectTool(a, deals),
		notesTool(a),
		tasksTool(a),
		associationsTool(a),
		pipelinesTool(a),
		propertiesTool(a),
	}
}

// api issues HubSpot calls through the shared upstream client.
type api struct {
	c *upstream.Client
	// version is "v3" (legacy paths) or a date-based version.
	version string
}

// request builds an upstream request carrying the call's token and the
// action's mutating flag, so reads are retried and writes never are.
func request(call *gtmgate.Call, method, path string, body any) *upstream.Request {
	return &upstream.Request{Method: method, Path: path, JSON: body, Mutating: call.Action.Mutating, Token: call.Token}
}

// pageLimit turns the call's limit into a HubSpot page size within max.
func pageLimit(call *gtmgate.Call, max int) int {
	switch {
	case call.Limit <= 0:
		return 25
	case call.Limit > max:
		return max
	}
	return call.Limit
}
