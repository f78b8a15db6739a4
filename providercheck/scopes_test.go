package providercheck

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

func scopeSpec() *apispec.Spec {
	return &apispec.Spec{Operations: []apispec.Operation{
		{ID: "messages.list", Scopes: []string{"mail", "modify", "readonly"}},
		{ID: "messages.send", Scopes: []string{"compose", "mail", "modify", "send"}},
		{ID: "drafts.create", Scopes: []string{"compose", "mail", "modify"}},
		{ID: "public.search"},
	}}
}

func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		granted []string
		want    []string
	}{
		{"nothing granted", nil, []string{"drafts.create", "messages.list", "messages.send"}},
		{"read only", []string{"readonly"}, []string{"drafts.create", "messages.send"}},
		{"read and send", []string{"readonly", "send"}, []string{"drafts.create"}},
		{"least privilege", []string{"compose", "readonly"}, nil},
		{"one broad scope", []string{"mail"}, nil},
		{"unrelated scopes", []string{"calendar"}, []string{"drafts.create", "messages.list", "messages.send"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range Missing(scopeSpec(), tc.granted) {
				got = append(got, m.Operation)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("missing %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMinimalGrant(t *testing.T) {
	spec := scopeSpec()
	grant := MinimalGrant(spec)
	if len(Missing(spec, grant)) != 0 || len(grant) != 1 {
		t.Errorf("grant %v leaves %v", grant, Missing(spec, grant))
	}
}
