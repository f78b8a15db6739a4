package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

func TestClientFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		value   string
		want    idpsandbox.Client
		wantErr bool
	}{
		{
			name:  "redirect URI with port and path",
			value: "gtmgate:s3cret:http://127.0.0.1:8080/auth/callback",
			want:  idpsandbox.Client{ID: "gtmgate", Secret: "s3cret", RedirectURIs: []string{"http://127.0.0.1:8080/auth/callback"}},
		},
		{name: "no redirect URI", value: "gtmgate:s3cret", wantErr: true},
		{name: "empty secret", value: "gtmgate::http://127.0.0.1/cb", wantErr: true},
		{name: "empty id", value: ":s3cret:http://127.0.0.1/cb", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var c clientFlags
			err := c.Set(tt.value)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Set(%q) accepted it: %+v", tt.value, c)
				}
				return
			}
			if err != nil {
				t.Fatalf("Set(%q): %v", tt.value, err)
			}
			if diff := cmp.Diff([]idpsandbox.Client{tt.want}, []idpsandbox.Client(c)); diff != "" {
				t.Errorf("client (-want +got):\n%s", diff)
			}
		})
	}
}
