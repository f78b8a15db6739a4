package oauthapps

import (
	"strings"
	"testing"
)

// FuzzValidate: whatever the body, validate never quotes the client secret
// in its message, and the scopes it accepts are OAuth scope tokens, each once.
func FuzzValidate(f *testing.F) {
	f.Add("123.apps.googleusercontent.com", "GOCSPX-secret", "openid email")
	f.Add("c", "two words", "")
	f.Add("", "s", "a\x00b")
	f.Add("c", "s", `"quoted" back\slash`)
	f.Fuzz(func(t *testing.T, id, secret, scopes string) {
		b := &Body{ClientID: id, ClientSecret: secret, ExtraScopes: strings.Split(scopes, " ")}
		got, err := validate(b)
		if err != nil {
			if len(secret) >= 4 && !strings.Contains(id+scopes, secret) && strings.Contains(err.Error(), secret) {
				t.Fatalf("message quotes the secret: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, s := range got {
			if s == "" || strings.ContainsAny(s, " \"\\") || seen[s] {
				t.Fatalf("accepted scope %q of %q", s, got)
			}
			seen[s] = true
		}
	})
}
