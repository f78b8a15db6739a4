package googleapi_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

func TestGrantedScopes(t *testing.T) {
	t.Parallel()
	const (
		token    = "ya29.a0-sandbox-gmail-token"
		modify   = "https://www.googleapis.com/auth/gmail.modify"
		readonly = "https://www.googleapis.com/auth/gmail.readonly"
	)
	tests := []struct {
		name  string
		grant []string // nil: the token is not granted
		// want is the grant reported; unadmitted a Gmail operation it must not admit.
		want       []string
		unadmitted string
	}{
		{name: "a grant admitting every Gmail operation", grant: []string{"openid", modify}, want: []string{"openid", modify}},
		{name: "narrowed grant is reported as such", grant: []string{readonly}, want: []string{readonly}, unadmitted: "gmail.users.messages.send"},
		{name: "unknown token is the upstream error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := googleapi.NewTokenInfoSandbox()
			if tc.grant != nil {
				sb.Grant(token, tc.grant)
			}
			sb.Grant("another-token", []string{"https://mail.google.com/"})
			srv := httptest.NewServer(sb)
			t.Cleanup(srv.Close)
			c := upstream.MustNew(upstream.Options{Provider: googleapi.TokenInfoProvider, BaseURL: srv.URL})
			got, err := googleapi.GrantedScopes(context.Background(), c, gtmgate.StaticToken(token))
			if tc.grant == nil {
				e := providertest.WantCode(t, err, gtmgate.EUpstream)
				d, _ := e.Detail.(gtmgate.UpstreamDetail)
				if d.Status != 400 || !strings.Contains(e.Message, "invalid_token: Invalid Value") {
					t.Fatalf("error %v, detail %+v", e, d)
				}
				if strings.Contains(e.Error()+d.Body, token) {
					t.Error("token leaked")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("granted %q, want %q", got, tc.want)
			}
			missing := spectest.Unadmitted(gmail.Spec(), got)
			if tc.unadmitted == "" && len(missing) > 0 {
				t.Errorf("the grant admits no scope of %v", missing)
			}
			if tc.unadmitted != "" && !slices.Contains(missing, tc.unadmitted) {
				t.Errorf("%s is admitted; unadmitted: %v", tc.unadmitted, missing)
			}
		})
	}
}
