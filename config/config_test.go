package config

import (
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		env     []string
		wantErr string
		check   func(t *testing.T, c Config)
	}{
		{name: "defaults", check: func(t *testing.T, c Config) {
			if c.GatewayAddr != "127.0.0.1:8081" || c.GatewayURL != "http://127.0.0.1:8081" || c.MaxBodyBytes != 1<<20 {
				t.Fatalf("defaults wrong: %+v", c)
			}
		}},
		{name: "env then flag", env: []string{"GTMGATE_GATEWAY_ADDR=127.0.0.1:9000", "GATEWAY_URL=https://gw.example.com/"}, args: []string{"--site-addr", "off", "--demo"},
			check: func(t *testing.T, c Config) {
				if c.GatewayAddr != "127.0.0.1:9000" || c.GatewayURL != "https://gw.example.com" || c.SiteAddr != "off" || c.SiteURL != "" || !c.Demo {
					t.Fatalf("got %+v", c)
				}
			}},
		{name: "upstream override", env: []string{"GTMGATE_UPSTREAM_HUBSPOT=http://127.0.0.1:9999", "GTMGATE_UPSTREAM_TIMEOUT=3s"},
			check: func(t *testing.T, c Config) {
				if c.Upstreams["hubspot"] != "http://127.0.0.1:9999" || c.UpstreamTimeout != 3*time.Second {
					t.Fatalf("got %+v", c)
				}
			}},
		{name: "api versions", env: []string{"GTMGATE_GOOGLE_ADS_API_VERSION=v99", "GTMGATE_LINKEDIN_ADS_API_VERSION= 203001 "},
			check: func(t *testing.T, c Config) {
				if c.APIVersion("google_ads") != "v99" || c.APIVersion("linkedin_ads") != "203001" || c.APIVersion("gmail") != "v1" || c.APIVersion("web") != "" {
					t.Fatalf("got %+v", c.APIVersions)
				}
			}},
		{name: "bad google ads version", env: []string{"GTMGATE_GOOGLE_ADS_API_VERSION=21"}, wantErr: "GTMGATE_GOOGLE_ADS_API_VERSION"},
		{name: "bad meta version", env: []string{"GTMGATE_META_ADS_API_VERSION=v25"}, wantErr: "GTMGATE_META_ADS_API_VERSION"},
		{name: "bad linkedin version", env: []string{"GTMGATE_LINKEDIN_ADS_API_VERSION=2026-11"}, wantErr: "GTMGATE_LINKEDIN_ADS_API_VERSION"},
		{name: "bad addr", env: []string{"GTMGATE_DOCS_ADDR=nonsense"}, wantErr: "GTMGATE_DOCS_ADDR"},
		{name: "bad admin hash", env: []string{"ADMIN_API_KEY=plaintext-key"}, wantErr: "ADMIN_API_KEY"},
		{name: "bad duration", env: []string{"GTMGATE_UPSTREAM_TIMEOUT=soon"}, wantErr: "GTMGATE_UPSTREAM_TIMEOUT"},
		{name: "bad upstream", env: []string{"GTMGATE_UPSTREAM_META_ADS=ftp://x"}, wantErr: "GTMGATE_UPSTREAM_META_ADS"},
		{name: "bad db", env: []string{"DATABASE_URL=mysql://x"}, wantErr: "DATABASE_URL"},
		{name: "all off", args: []string{"--site-addr=off", "--gateway-addr=off", "--docs-addr=off"}, wantErr: "all listeners are off"},
		{name: "bad log format", env: []string{"GTMGATE_LOG_FORMAT=xml"}, wantErr: "GTMGATE_LOG_FORMAT"},
		{name: "sample rate above 1", env: []string{"GRADER_SAMPLE_RATE=1.5"}, wantErr: "GRADER_SAMPLE_RATE"},
		{name: "sample rate below 0", args: []string{"--grader-sample-rate=-0.1"}, wantErr: "GRADER_SAMPLE_RATE"},
		{name: "sample rate not a number", env: []string{"GRADER_SAMPLE_RATE=often"}, wantErr: "GRADER_SAMPLE_RATE"},
		{name: "two judges on one model", env: []string{"JUDGE_ALPHA_MODEL=openai/gpt-x", "JUDGE_BETA_MODEL=m2", "JUDGE_GAMMA_MODEL=OpenAI/GPT-X"}, wantErr: "JUDGE_GAMMA_MODEL"},
		{name: "same model allowed", env: []string{"JUDGE_ALPHA_MODEL=m", "JUDGE_BETA_MODEL=m", "JUDGE_ALLOW_SAME_MODEL=true"},
			check: func(t *testing.T, c Config) {}},
		{name: "alert webhook over http", env: []string{"ALERT_WEBHOOK_URL=http://alerts.example.com/hook", "ALERT_WEBHOOK_SECRET=0123456789abcdef"}, wantErr: "ALERT_WEBHOOK_URL"},
		{name: "alert webhook without secret", env: []string{"ALERT_WEBHOOK_URL=https://alerts.example.com/hook"}, wantErr: "ALERT_WEBHOOK_SECRET"},
		{name: "alert webhook on loopback", env: []string{"ALERT_WEBHOOK_URL=http://127.0.0.1:9/hook", "ALERT_WEBHOOK_SECRET=0123456789abcdef"},
			check: func(t *testing.T, c Config) {
				if c.GraderSampleRate != 0.1 {
					t.Fatalf("default sample rate %v", c.GraderSampleRate)
				}
			}},
		{name: "retention in days and forever", env: []string{"GTMGATE_RETAIN_AUDIT=45d", "GTMGATE_RETAIN_LEDGER=forever", "GTMGATE_RETAIN_HEALTH=36h"},
			check: func(t *testing.T, c Config) {
				r := c.Retention
				if r.Audit != 45*24*time.Hour || r.Ledger != 0 || r.HealthSnapshots != 36*time.Hour || r.UsageEvents != 90*24*time.Hour || r.Jobs != 24*time.Hour {
					t.Fatalf("retention %+v", r)
				}
			}},
		{name: "retention not a duration", env: []string{"GTMGATE_RETAIN_VERDICTS=half a year"}, wantErr: "GTMGATE_RETAIN_VERDICTS"},
		{name: "retention of zero days", env: []string{"GTMGATE_RETAIN_OAUTH=0d"}, wantErr: "GTMGATE_RETAIN_OAUTH"},
		{name: "audit shorter than its stats", env: []string{"GTMGATE_RETAIN_AUDIT=7d"}, wantErr: "GTMGATE_RETAIN_AUDIT: 7d is shorter than the least it may be, 31d"},
		{name: "operator defaults to gtmgate", check: func(t *testing.T, c Config) {
			if c.OperatorName != "gtmgate" || c.OperatorLogoURL != "" {
				t.Fatalf("operator %q, logo %q", c.OperatorName, c.OperatorLogoURL)
			}
		}},
		{name: "operator name and https logo", env: []string{"GTMGATE_OPERATOR_NAME= Northwind Agency ", "GTMGATE_OPERATOR_LOGO_URL=https://cdn.northwind.example/logo.svg"},
			check: func(t *testing.T, c Config) {
				if c.OperatorName != "Northwind Agency" || c.OperatorLogoURL != "https://cdn.northwind.example/logo.svg" {
					t.Fatalf("operator %q, logo %q", c.OperatorName, c.OperatorLogoURL)
				}
			}},
		{name: "operator logo as a gateway path by flag", args: []string{"--operator-logo-url=/favicon.ico", "--operator-name=Acme"},
			check: func(t *testing.T, c Config) {
				if c.OperatorName != "Acme" || c.OperatorLogoURL != "/favicon.ico" {
					t.Fatalf("operator %q, logo %q", c.OperatorName, c.OperatorLogoURL)
				}
			}},
		{name: "operator logo over http", env: []string{"GTMGATE_OPERATOR_LOGO_URL=http://cdn.example/logo.png"}, wantErr: "GTMGATE_OPERATOR_LOGO_URL: \"http://cdn.example/logo.png\" is neither an https URL nor a path the gateway serves"},
		{name: "operator logo as javascript", env: []string{"GTMGATE_OPERATOR_LOGO_URL=javascript:alert(1)"}, wantErr: "GTMGATE_OPERATOR_LOGO_URL"},
		{name: "operator logo protocol-relative", env: []string{"GTMGATE_OPERATOR_LOGO_URL=//evil.example/x.png"}, wantErr: "GTMGATE_OPERATOR_LOGO_URL"},
		{name: "operator logo relative path", env: []string{"GTMGATE_OPERATOR_LOGO_URL=logo.png"}, wantErr: "GTMGATE_OPERATOR_LOGO_URL"},
		{name: "operator name blank", args: []string{"--operator-name= "}, wantErr: "GTMGATE_OPERATOR_NAME"},
		{name: "operator name on two lines", env: []string{"GTMGATE_OPERATOR_NAME=North\nwind"}, wantErr: "GTMGATE_OPERATOR_NAME"},
		{name: "secret file missing", env: []string{"MODEL_GATEWAY_API_KEY_FILE=/nonexistent/key"}, wantErr: "MODEL_GATEWAY_API_KEY_FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tt.args, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to name %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}
