// Package mcpsandbox is the demo's upstream MCP server: a small notes
// service spoken over streamable HTTP with the MCP Go SDK, which --demo
// registers as the demo tenant's MCP server "notes" so that bringing your
// own MCP server can be tried, and tested, with nothing else installed.
package mcpsandbox

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Note is one note of the service.
type Note struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// Server holds the notes and serves them over MCP.
type Server struct {
	token string

	mu    sync.Mutex
	notes []Note
	next  int
}

// New returns the sandbox with its seed notes. token, when set, is the
// bearer token every request must carry.
func New(token string) *Server {
	return &Server{token: token, next: 4, notes: []Note{
		{ID: "n1", Title: "Pricing review", Body: "Move the analytics retainer to quarterly billing; agreed with the Acme account lead."},
		{ID: "n2", Title: "Q3 pipeline", Body: "Three open deals depend on the GA4 migration workshop; schedule it before the renewals."},
		{ID: "n3", Title: "Ad budget", Body: "Cap LinkedIn spend at 40% of paid social until lead quality improves."},
	}}
}

type searchInput struct {
	Query string `json:"query" jsonschema:"words to look for in the notes' titles and bodies"`
}

type searchOutput struct {
	Notes []Note `json:"notes"`
}

type addInput struct {
	Title string `json:"title" jsonschema:"the note's title"`
	Body  string `json:"body" jsonschema:"the note's text"`
}

type deleteInput struct {
	ID string `json:"id" jsonschema:"the id of the note to delete"`
}

type idOutput struct {
	ID string `json:"id"`
}

// Handler serves the MCP endpoint (mount it at /mcp).
func (s *Server) Handler() http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "gtmgate-demo-notes", Version: "1.0.0"}, nil)
	no := false
	mcp.AddTool(server, &mcp.Tool{Name: "search_notes", Title: "Search notes",
		Description: "Search the team's meeting and account notes by words in their title or body.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}}, s.search)
	mcp.AddTool(server, &mcp.Tool{Name: "add_note", Title: "Add a note",
		Description: "Add a note to the team's notes. It only adds; no note is changed.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}}, s.add)
	mcp.AddTool(server, &mcp.Tool{Name: "delete_note", Title: "Delete a note",
		Description: "Delete one note for good.",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: &no}}, s.delete)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	if s.token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+s.token {
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) search(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := searchOutput{Notes: []Note{}}
	words := strings.Fields(strings.ToLower(in.Query))
	for _, n := range s.notes {
		text := strings.ToLower(n.Title + " " + n.Body)
		if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(text, w) }) || len(words) == 0 {
			out.Notes = append(out.Notes, n)
		}
	}
	return nil, out, nil
}

func (s *Server) add(_ context.Context, _ *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, idOutput, error) {
	if strings.TrimSpace(in.Title) == "" {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "a note needs a title"}}}, idOutput{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := fmt.Sprintf("n%d", s.next)
	s.next++
	s.notes = append(s.notes, Note{ID: id, Title: in.Title, Body: in.Body})
	return nil, idOutput{ID: id}, nil
}

func (s *Server) delete(_ context.Context, _ *mcp.CallToolRequest, in deleteInput) (*mcp.CallToolResult, idOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.notes, func(n Note) bool { return n.ID == in.ID })
	if i < 0 {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no note " + in.ID}}}, idOutput{}, nil
	}
	s.notes = slices.Delete(s.notes, i, i+1)
	return nil, idOutput{ID: in.ID}, nil
}
