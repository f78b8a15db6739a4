package chat

import (
	"context"
	"net/http"
	"testing"

	"github.com/gtmgate/gtmgate"
)

const modelList = `{"object":"list","data":[{"id":"small","object":"model","owned_by":"a","x":{"ctx":8192}},{"id":"huge","object":"model","owned_by":"b"},{"id":"medium","object":"model","owned_by":"c"}],"x_page":1}`

func TestModels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		tenant     string
		status     int
		wantStatus int
		wantBody   string
	}{
		{name: "unrestricted tenant sees the list verbatim", tenant: "acme", status: 200, wantStatus: 200, wantBody: modelList},
		{name: "restricted tenant sees allowed models only", tenant: "limited", status: 200, wantStatus: 200,
			wantBody: `{"data":[{"id":"small","object":"model","owned_by":"a","x":{"ctx":8192}},{"id":"medium","object":"model","owned_by":"c"}],"object":"list","x_page":1}`},
		{name: "upstream error passes through", tenant: "limited", status: 503, wantStatus: 503, wantBody: `{"error":{"message":"down","type":"server_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := modelList
			if tt.status != 200 {
				body = tt.wantBody
			}
			e := newEnv(t, jsonUpstream(tt.status, body, nil), nil)
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, e.gateway.URL+"/v1/models", nil)
			req.Header.Set("Authorization", "Bearer "+tenantToken)
			req.Header.Set("X-Test-Tenant", tt.tenant)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if got := readString(t, resp.Body); resp.StatusCode != tt.wantStatus || got != tt.wantBody {
				t.Errorf("got %d %s\nwant %d %s", resp.StatusCode, got, tt.wantStatus, tt.wantBody)
			}
			up := e.nextUpstream(t)
			if up.path != "/v1/models" || up.header.Get("Authorization") != "Bearer "+gatewayKey {
				t.Errorf("upstream got %s with Authorization %q", up.path, up.header.Get("Authorization"))
			}
			rec := e.recorder.next(t)
			if rec.audit.Action != "chat.models" || rec.audit.Status != tt.wantStatus || rec.usage != nil {
				t.Errorf("recorded %+v %+v", rec.audit, rec.usage)
			}
			if (rec.audit.Outcome == gtmgate.OutcomeOK) != (tt.wantStatus == 200) {
				t.Errorf("outcome = %s", rec.audit.Outcome)
			}
		})
	}
}
