package hubspot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

func TestGrantedScopes(t *testing.T) {
	t.Parallel()
	if ops := spectest.Unscoped(Spec()); len(ops) > 0 {
		t.Fatalf("operations without OAuth scopes: %v", ops)
	}
	tests := []struct {
		name  string
		grant []string // nil: the sandbox's default
		token string
		// want is the grant reported; unadmitted an operation it must not admit.
		want       []string
		unadmitted string
		wantStatus int // the upstream error's HTTP status; 0: no error
	}{
		{name: "default grant admits every operation", token: SandboxToken, want: sandboxScopes},
		{name: "narrowed grant is reported as such", grant: []string{"crm.objects.contacts.read"}, token: SandboxToken,
			want: []string{"crm.objects.contacts.read"}, unadmitted: "POST /crm/v3/objects/contacts"},
		{name: "refused token is the upstream error", token: "not-the-sandbox-token", wantStatus: 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := NewSandboxHandler()
			if tc.grant != nil {
				sb.GrantScopes(tc.grant)
			}
			c := upstream.MustNew(upstream.Options{Provider: Provider, BaseURL: providertest.Serve(t, gtmgate.ProviderSandbox{Handler: sb, Spec: sb.Spec}), Timeout: 5 * time.Second})
			got, err := GrantedScopes(context.Background(), c, gtmgate.StaticToken(tc.token))
			if tc.wantStatus != 0 {
				var e *gtmgate.Error
				if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
					t.Fatalf("err = %v, want %s", err, gtmgate.EUpstream)
				}
				if d, _ := e.Detail.(gtmgate.UpstreamDetail); d.Status != tc.wantStatus || strings.Contains(e.Error()+d.Body, tc.token) {
					t.Fatalf("detail %+v of %v: want status %d and no token", d, e, tc.wantStatus)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("granted %q, want %q", got, tc.want)
			}
			missing := spectest.Unadmitted(Spec(), got)
			if tc.unadmitted == "" && len(missing) > 0 {
				t.Errorf("the grant admits no scope of %v", missing)
			}
			if tc.unadmitted != "" && !slices.Contains(missing, tc.unadmitted) {
				t.Errorf("%s is admitted; unadmitted: %v", tc.unadmitted, missing)
			}
		})
	}
}
