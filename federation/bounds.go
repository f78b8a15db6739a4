package federation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gtmgate/gtmgate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds on what an upstream server may declare. A listing over any of
// them is refused whole, before anything is stored: the last good list
// stays served and the server's state says which bound it broke. They are
// far above what real servers declare (the largest hosted servers list a
// few dozen tools with schemas of a few KiB) and low enough that one
// tenant's server cannot make every tenant's catalogue slow to build or
// its agents' tools/list huge.
const (
	// MaxTools is how many tools one server may declare.
	MaxTools = 500
	// MaxToolNameLen is the length of an upstream tool's name in bytes
	// (the MCP specification's 128 characters).
	MaxToolNameLen = 128
	// MaxTitleLen bounds a tool's title in bytes.
	MaxTitleLen = 1024
	// MaxDescriptionLen bounds a tool's description in bytes.
	MaxDescriptionLen = 8 << 10
	// MaxSchemaBytes bounds each of a tool's input and output schemas,
	// JSON-encoded.
	MaxSchemaBytes = 64 << 10
	// MaxSchemaDepth bounds how deeply a schema's objects and arrays nest.
	MaxSchemaDepth = 32
)

// checkListing refuses a listing that breaks a bound, naming the first
// tool and bound it breaks (VALIDATION_ERROR, so the refresh fails and the
// message reaches the server's state).
func checkListing(server string, tools []*mcp.Tool) error {
	if len(tools) > MaxTools {
		return refused(server, "declares %d tools; at most %d", len(tools), MaxTools)
	}
	for i, t := range tools {
		if t == nil {
			return refused(server, "declares an empty tool (#%d)", i+1)
		}
		if len(t.Name) > MaxToolNameLen {
			return refused(server, "declares a tool name of %d bytes (#%d); at most %d", len(t.Name), i+1, MaxToolNameLen)
		}
		if len(t.Title) > MaxTitleLen {
			return refused(server, "declares tool %q with a title of %d bytes; at most %d", t.Name, len(t.Title), MaxTitleLen)
		}
		if len(t.Description) > MaxDescriptionLen {
			return refused(server, "declares tool %q with a description of %d bytes; at most %d", t.Name, len(t.Description), MaxDescriptionLen)
		}
		for _, sc := range []struct {
			which  string
			schema any
		}{{"input", t.InputSchema}, {"output", t.OutputSchema}} {
			if sc.schema == nil {
				continue
			}
			b, err := json.Marshal(sc.schema)
			if err != nil {
				return refused(server, "declares tool %q with an unreadable %s schema", t.Name, sc.which)
			}
			if err := schemaBounds(b); err != nil {
				return refused(server, "declares tool %q with an %s schema %v", t.Name, sc.which, err)
			}
		}
	}
	return nil
}

func refused(server, format string, args ...any) error {
	return gtmgate.Errorf(gtmgate.EValidation, "upstream MCP server %q %s; its listing is refused and the last good list kept",
		server, fmt.Sprintf(format, args...)).
		WithHint("the bounds are in the MCP servers page of the docs, under Limits and isolation")
}

// schemaBounds checks one encoded schema against MaxSchemaBytes and
// MaxSchemaDepth; its error reads after "an input schema".
func schemaBounds(b []byte) error {
	if len(b) > MaxSchemaBytes {
		return fmt.Errorf("of %d bytes; at most %d", len(b), MaxSchemaBytes)
	}
	depth, err := jsonDepth(b)
	if err != nil {
		return errors.New("that is not JSON")
	}
	if depth > MaxSchemaDepth {
		return fmt.Errorf("nested %d deep; at most %d", depth, MaxSchemaDepth)
	}
	return nil
}

// jsonDepth is how deeply b's objects and arrays nest (0 for a scalar), read
// as a token stream: no recursion, so no input can exhaust the stack.
func jsonDepth(b []byte) (int, error) {
	if !json.Valid(b) {
		return 0, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return deepest, nil
		}
		if err != nil {
			return 0, err
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				deepest = max(deepest, depth)
			default:
				depth--
			}
		}
	}
}
