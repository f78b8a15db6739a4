package config

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/content"
)

// TestContentSignal: GTMGATE_CONTENT_SIGNAL (or --content-signal) sets the
// site's usage signal; unset it is the one the site has always sent; any
// value but each of the three keys once, yes or no, stops start-up naming
// the setting.
func TestContentSignal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		want    string
		wantErr string
	}{
		{name: "unset: the default", want: "search=yes, ai-train=yes, ai-input=yes"},
		{name: "training withheld", env: []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=no"}, want: "search=yes, ai-train=no, ai-input=yes"},
		{name: "no spaces, any order", env: []string{"GTMGATE_CONTENT_SIGNAL=ai-train=no,ai-input=no,search=yes"}, want: "search=yes, ai-train=no, ai-input=no"},
		{name: "flag over env", env: []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=no"},
			args: []string{"--content-signal", "search=no, ai-input=no, ai-train=no"}, want: "search=no, ai-train=no, ai-input=no"},
		{name: "unknown key", env: []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=no, ai-index=no"},
			wantErr: `GTMGATE_CONTENT_SIGNAL: unknown key "ai-index"`},
		{name: "value not yes or no", env: []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=maybe"},
			wantErr: `GTMGATE_CONTENT_SIGNAL: ai-train="maybe": the value must be yes or no`},
		{name: "duplicate", env: []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=no, ai-train=yes"},
			wantErr: "GTMGATE_CONTENT_SIGNAL: ai-train is given twice"},
		{name: "key missing", env: []string{"GTMGATE_CONTENT_SIGNAL=ai-train=no"},
			wantErr: "GTMGATE_CONTENT_SIGNAL: missing search and ai-input"},
		{name: "bad flag", args: []string{"--content-signal=ai-train=no"}, wantErr: "-content-signal: missing search and ai-input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tc.args, tc.env)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.ContentSignal.String(); got != tc.want {
				t.Errorf("ContentSignal = %q, want %q", got, tc.want)
			}
		})
	}
	if def := (Default().ContentSignal); def != (content.Signal{}) {
		t.Errorf("default signal %+v, want the zero signal", def)
	}
}
