package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/gtmgate/gtmgate"
)

// MutatingFunc reports whether a tools/call of tool with these arguments
// would change provider state. When the action cannot be told from the
// arguments it should answer true if any action of the tool mutates.
type MutatingFunc func(tool string, arguments json.RawMessage) bool

// RequireScope returns middleware for the MCP endpoint, to run after
// authentication (the principal is in the context) and before the MCP
// handler. For OAuth principals it reads the JSON-RPC body and answers 403
// with an insufficient_scope challenge (step-up authorization) when a
// tools/call needs a scope the token lacks: tools:write for mutating calls,
// tools:read for any other request. Tenant bearer tokens pass untouched.
// Bodies over maxBody bytes are refused with 413.
func (s *Server) RequireScope(mutating MutatingFunc, maxBody int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := gtmgate.PrincipalFromContext(r.Context())
			if p == nil || p.Kind != "oauth" {
				next.ServeHTTP(w, r)
				return
			}
			if !Allows(p, false) {
				s.denyScope(w, r)
				return
			}
			if r.Method != http.MethodPost || Allows(p, true) {
				next.ServeHTTP(w, r)
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				var mbe *http.MaxBytesError
				status := http.StatusBadRequest
				if errors.As(err, &mbe) {
					status = http.StatusRequestEntityTooLarge
				}
				http.Error(w, http.StatusText(status), status)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if callsMutatingTool(body, mutating) {
				s.denyScope(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func (s *Server) denyScope(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", s.InsufficientScopeChallenge())
	writeJSON(w, http.StatusForbidden, map[string]any{
		"error": map[string]string{
			"code": gtmgate.EForbidden, "message": "the access token lacks the scope this call needs",
			"hint": "reauthorize the client with scope tools:write",
		},
		"request_id": gtmgate.RequestIDFromContext(r.Context()),
	})
}

type rpcCall struct {
	Method string `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// callsMutatingTool reports whether a JSON-RPC message or batch holds a
// tools/call of a mutating tool. Bodies that do not parse are left to the
// MCP handler, which refuses them.
func callsMutatingTool(body []byte, mutating MutatingFunc) bool {
	var calls []rpcCall
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &calls) != nil {
			return false
		}
	} else {
		var c rpcCall
		if json.Unmarshal(trimmed, &c) != nil {
			return false
		}
		calls = []rpcCall{c}
	}
	for _, c := range calls {
		if c.Method == "tools/call" && mutating(c.Params.Name, c.Params.Arguments) {
			return true
		}
	}
	return false
}
