package metaads

import (
	"context"
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
	const stale, fresh = "EAAB-stale-token-123456", "EAAB-fresh-but-revoked"
	tests := []struct {
		name  string
		grant []string // nil: the sandbox's default
		token gtmgate.TokenSource
		// want is the grant reported; unadmitted an operation it must not admit.
		want       []string
		unadmitted string
		// wantCode is the error's code, with wantStatus its upstream status.
		wantCode   string
		wantStatus int
	}{
		{name: "default grant admits every operation", token: gtmgate.StaticToken(SandboxToken), want: []string{"ads_management", "ads_read"}},
		{name: "narrowed grant is reported as such", grant: []string{"ads_read"}, token: gtmgate.StaticToken(SandboxToken),
			want: []string{"ads_read"}, unadmitted: "Campaign.api_update"},
		{name: "no permission at all", grant: []string{}, token: gtmgate.StaticToken(SandboxToken), unadmitted: "AdAccount.get_insights"},
		{name: "refused after refresh needs reauthorisation", token: providertest.RefreshingToken{Stale: stale, Fresh: fresh},
			wantCode: gtmgate.EReauthRequired, wantStatus: 400},
		{name: "refused and not refreshable needs reauthorisation", token: gtmgate.StaticToken(stale),
			wantCode: gtmgate.EReauthRequired, wantStatus: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			psb := NewSandbox()
			sb := psb.Handler.(*Sandbox)
			sb.now = func() time.Time { return testNow }
			if tc.grant != nil {
				sb.GrantScopes(tc.grant)
			}
			c := upstream.MustNew(Options(providertest.Serve(t, psb), ""))
			got, err := GrantedScopes(context.Background(), c, tc.token)
			if tc.wantCode != "" {
				e := providertest.WantCode(t, err, tc.wantCode)
				d, _ := e.Detail.(gtmgate.UpstreamDetail)
				if d.Status != tc.wantStatus || !strings.Contains(d.Body, `"code":190`) {
					t.Fatalf("detail = %+v", d)
				}
				for _, tok := range []string{stale, fresh} {
					if strings.Contains(e.Error()+d.Body, tok) {
						t.Errorf("token %q leaked", tok)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
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
