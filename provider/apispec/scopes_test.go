package apispec

import (
	"slices"
	"testing"
)

func TestScopes(t *testing.T) {
	t.Parallel()
	s := MustParse([]byte(`{"provider": "p", "source": "https://example.com/p.json", "retrieved": "2026-11-25", "operations": [
  {"id": "a", "method": "GET", "path": "/a", "scopes": ["read", "write"]},
  {"id": "b", "method": "POST", "path": "/b", "scopes": ["write", "admin"]},
  {"id": "c", "method": "GET", "path": "/c"}]}`))
	if got := s.Scopes(); !slices.Equal(got, []string{"admin", "read", "write"}) {
		t.Errorf("Scopes() = %v", got)
	}
}
