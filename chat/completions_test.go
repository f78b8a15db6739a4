package chat

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

const (
	clientBody = `{"model":"small","messages":[{"role":"user","content":"<hi> & \u00e9"}],"x_vendor":{"keep":[1,2.50,"x"]},"temperature":0.3}`
	answerBody = `{"id":"c1","object":"chat.completion","model":"small","choices":[{"index":0,"message":{"role":"assistant","content":"hello"},"finish_reason":"stop","x_extra":true}],"usage":{"prompt_tokens":11,"completion_tokens":3,"total_tokens":14},"system_fingerprint":"fp"}`
)

func TestCompletionsPassThrough(t *testing.T) {
	t.Parallel()
	e := newEnv(t, jsonUpstream(200, answerBody, map[string]string{"X-Ratelimit-Remaining-Requests": "99"}), nil)
	resp := e.post(t, context.Background(), clientBody, map[string]string{
		"X-Api-Key": tenantToken, "Cookie": "session=" + tenantToken, "OpenAI-Organization": "org-1",
		"X-Stainless-Lang": "python", "Idempotency-Key": "idem-1", "X-Admin-Key": "admin",
	})
	defer resp.Body.Close()
	if got := readString(t, resp.Body); resp.StatusCode != 200 || got != answerBody {
		t.Fatalf("client got %d %s, want 200 and the upstream body byte for byte", resp.StatusCode, got)
	}
	if resp.Header.Get("X-Ratelimit-Remaining-Requests") != "99" {
		t.Errorf("upstream header not relayed: %v", resp.Header)
	}
	up := e.nextUpstream(t)
	if up.method != http.MethodPost || up.path != "/v1/chat/completions" {
		t.Errorf("upstream got %s %s", up.method, up.path)
	}
	if string(up.body) != clientBody {
		t.Errorf("upstream body = %s, want the client's bytes", up.body)
	}
	if got := up.header.Get("Authorization"); got != "Bearer "+gatewayKey {
		t.Errorf("upstream Authorization = %q, want the gateway key", got)
	}
	for name, vs := range up.header {
		for _, v := range vs {
			if strings.Contains(v, tenantToken) {
				t.Errorf("tenant token reached the upstream in %s", name)
			}
		}
	}
	for _, h := range []string{"X-Api-Key", "Cookie", "Openai-Organization", "X-Admin-Key", "X-Test-Tenant"} {
		if h != "X-Test-Tenant" && up.header.Get(h) != "" {
			t.Errorf("credential header %s forwarded", h)
		}
	}
	if up.header.Get("X-Stainless-Lang") != "python" || up.header.Get("Idempotency-Key") != "idem-1" || up.header.Get("X-Request-Id") != "req-1" {
		t.Errorf("harmless headers lost: %v", up.header)
	}
	rec := e.recorder.next(t)
	want := gtmgate.AuditEntry{TenantID: "acme", Action: "chat.completions", Source: gtmgate.SourceChat, Key: "tok_1",
		Outcome: gtmgate.OutcomeOK, Status: 200, RequestID: "req-1", Detail: "small"}
	if got := normalize(rec.audit); got != want {
		t.Errorf("audit = %+v, want %+v", got, want)
	}
	if u := rec.usage; u == nil || !u.OK || u.Tool != "chat" || u.Action != "small" || u.PromptTokens != 11 || u.CompletionTokens != 3 || u.TenantID != "acme" || u.Key != "tok_1" {
		t.Errorf("usage = %+v", rec.usage)
	}
}

// normalize clears the fields that vary from run to run (the trace id is
// set when TestChatSpan has installed tracing in this process).
func normalize(a gtmgate.AuditEntry) gtmgate.AuditEntry {
	a.Time, a.DurationMS, a.TraceID = time.Time{}, 0, ""
	return a
}

func TestCompletionsRejected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		tenant      string
		body        string
		opts        func(*Options)
		wantStatus  int
		wantCode    string
		wantOutcome string
		wantInMsg   []string
	}{
		{name: "malformed JSON", body: `{"model":"small",`, wantStatus: 400, wantCode: gtmgate.EValidation},
		{name: "not an object", body: `["small"]`, wantStatus: 400, wantCode: gtmgate.EValidation},
		{name: "missing model", body: `{"messages":[]}`, wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"model"}},
		{name: "model not a string", body: `{"model":7}`, wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"model"}},
		{name: "model not allowed", tenant: "limited", body: `{"model":"huge","messages":[]}`, wantStatus: 403,
			wantCode: gtmgate.EForbidden, wantOutcome: gtmgate.OutcomeDenied, wantInMsg: []string{`"huge"`, "small, medium"}},
		{name: "body too large", body: `{"model":"small","messages":[{"role":"user","content":"` + strings.Repeat("x", 300) + `"}]}`,
			opts: func(o *Options) { o.MaxBodyBytes = 200 }, wantStatus: 413, wantCode: gtmgate.EPayloadTooLarge},
		{name: "unauthenticated", tenant: "-", body: clientBody, wantStatus: 401, wantCode: gtmgate.EUnauthorized, wantOutcome: gtmgate.OutcomeDenied},
		{name: "unknown tenant", tenant: "ghost", body: clientBody, wantStatus: 404, wantCode: gtmgate.ETenantNotFound},
		// The body is forwarded as sent: a second spelling of model could make
		// the upstream run a model the allow-list never saw.
		{name: "case-variant model smuggles a forbidden model", tenant: "limited", body: `{"model":"huge","MODEL":"small","messages":[]}`,
			wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{`"model" and "MODEL"`}},
		{name: "duplicate model", tenant: "limited", body: `{"model":"huge","messages":[],"model":"small"}`,
			wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"duplicate field model"}},
		{name: "duplicate model, streamed", tenant: "limited", body: `{"model":"huge","stream":true,"model":"small","messages":[]}`,
			wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"duplicate field model"}},
		{name: "case-variant stream", body: `{"model":"small","stream":false,"Stream":true,"messages":[]}`,
			wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"differ only in case"}},
		{name: "duplicate stream_options", body: `{"model":"small","stream":true,"stream_options":{"include_usage":false},"stream_options":null,"messages":[]}`,
			wantStatus: 400, wantCode: gtmgate.EValidation, wantInMsg: []string{"duplicate field stream_options"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { t.Error("upstream called") }, tt.opts)
			tenant := tt.tenant
			switch tenant {
			case "":
				tenant = "acme"
			case "-":
				tenant = ""
			}
			resp := e.post(t, context.Background(), tt.body, map[string]string{"X-Test-Tenant": tenant})
			defer resp.Body.Close()
			body := checkErrorShape(t, resp, tt.wantStatus, tt.wantCode)
			for _, s := range tt.wantInMsg {
				if !strings.Contains(body.Error.Message, s) {
					t.Errorf("message %q lacks %q", body.Error.Message, s)
				}
			}
			rec := e.recorder.next(t)
			wantOutcome := tt.wantOutcome
			if wantOutcome == "" {
				wantOutcome = gtmgate.OutcomeError
			}
			if rec.audit.Outcome != wantOutcome || rec.audit.Status != tt.wantStatus || rec.audit.ErrorCode != tt.wantCode {
				t.Errorf("audit = %+v", rec.audit)
			}
		})
	}
}

// checkErrorShape asserts gtmgate's error body and returns it.
func checkErrorShape(t *testing.T, resp *http.Response, status int, code string) jsonapi.ErrorBody {
	t.Helper()
	var body jsonapi.ErrorBody
	raw := readString(t, resp.Body)
	if err := json.Unmarshal([]byte(raw), &body); err != nil {
		t.Fatalf("error body %q: %v", raw, err)
	}
	if resp.StatusCode != status || body.Error.Code != code || body.Error.Message == "" || body.RequestID != "req-1" {
		t.Errorf("got %d %s, want %d with code %s, a message and request_id", resp.StatusCode, raw, status, code)
	}
	return body
}

func TestCompletionsUpstreamStatusPassThrough(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		body     string
		header   map[string]string
		wantCode string
	}{
		{name: "400", status: 400, body: `{"error":{"message":"bad","type":"invalid_request_error","param":"messages","code":null}}`, wantCode: gtmgate.EUpstream},
		{name: "429", status: 429, body: `{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"rate_limit_exceeded"}}`,
			header: map[string]string{"Retry-After": "7"}, wantCode: gtmgate.ERateLimited},
		{name: "500", status: 500, body: `{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`, wantCode: gtmgate.EUpstream},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			name := tt.name
			if stream {
				name += " streaming"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				e := newEnv(t, jsonUpstream(tt.status, tt.body, tt.header), nil)
				body := `{"model":"small","messages":[]}`
				if stream {
					body = `{"model":"small","stream":true,"messages":[]}`
				}
				resp := e.post(t, context.Background(), body, nil)
				defer resp.Body.Close()
				if got := readString(t, resp.Body); resp.StatusCode != tt.status || got != tt.body {
					t.Errorf("client got %d %s, want %d %s", resp.StatusCode, got, tt.status, tt.body)
				}
				for k, v := range tt.header {
					if resp.Header.Get(k) != v {
						t.Errorf("header %s = %q, want %q", k, resp.Header.Get(k), v)
					}
				}
				if rec := e.recorder.next(t); rec.audit.Outcome != gtmgate.OutcomeError || rec.audit.Status != tt.status || rec.audit.ErrorCode != tt.wantCode {
					t.Errorf("audit = %+v", rec.audit)
				}
			})
		}
	}
}

func TestCompletionsUpstreamFailure(t *testing.T) {
	t.Parallel()
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	tests := []struct {
		name       string
		upstream   http.HandlerFunc
		opts       func(*Options)
		wantStatus int
		wantCode   string
	}{
		{name: "time-out", upstream: hang, opts: func(o *Options) { o.Timeout = 50 * time.Millisecond },
			wantStatus: 504, wantCode: gtmgate.EUpstreamTimeout},
		{name: "stream headers time-out", upstream: hang, opts: func(o *Options) { o.StreamIdleTimeout = 50 * time.Millisecond },
			wantStatus: 504, wantCode: gtmgate.EUpstreamTimeout},
		{name: "unreachable", upstream: hang, opts: func(o *Options) { o.UpstreamURL = unreachableURL(t) },
			wantStatus: 502, wantCode: gtmgate.EUpstream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.upstream, tt.opts)
			body := `{"model":"small","messages":[]}`
			if strings.Contains(tt.name, "stream") {
				body = `{"model":"small","stream":true,"messages":[]}`
			}
			resp := e.post(t, context.Background(), body, nil)
			defer resp.Body.Close()
			checkErrorShape(t, resp, tt.wantStatus, tt.wantCode)
			if rec := e.recorder.next(t); rec.audit.ErrorCode != tt.wantCode || rec.usage == nil || rec.usage.OK {
				t.Errorf("recorded %+v %+v", rec.audit, rec.usage)
			}
		})
	}
}

// unreachableURL returns the URL of a server that no longer listens.
func unreachableURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL + "/v1"
}

func TestCompletionsRecorderFailureIsNotAcknowledged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, jsonUpstream(200, answerBody, nil), nil)
	e.recorder.err = errors.New("disk full")
	resp := e.post(t, context.Background(), clientBody, nil)
	defer resp.Body.Close()
	checkErrorShape(t, resp, 500, gtmgate.EInternal)
}
