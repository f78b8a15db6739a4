package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// fakeModelGateway answers like an OpenAI-compatible upstream and records
// the Authorization header it receives.
type fakeModelGateway struct {
	mu    sync.Mutex
	auths []string
}

func (f *fakeModelGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.auths = append(f.auths, r.Header.Get("Authorization"))
	f.mu.Unlock()
	switch r.URL.Path {
	case "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"gpt-test","object":"model","owned_by":"fake"},{"id":"forbidden-model","object":"model","owned_by":"fake"}]}`)
	case "/v1/chat/completions":
		var req struct {
			Stream bool `json:"stream"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"hello"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(w, "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%d\"}}]}\n\n", i)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-test\",\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3,\"total_tokens\":7}}\n\ndata: [DONE]\n\n")
	default:
		http.NotFound(w, r)
	}
}

// TestOpenAIClient drives the chat pass-through of the real binary with the
// official openai npm client, streaming and not, with a per-tenant model list.
func TestOpenAIClient(t *testing.T) {
	nodetools.Dir(t) // skip before starting anything when the tools are missing
	upstream := &fakeModelGateway{}
	srv := httptest.NewServer(upstream)
	defer srv.Close()
	p := start(t, t.TempDir(), "MODEL_GATEWAY_URL="+srv.URL+"/v1", "MODEL_GATEWAY_API_KEY=upstream-secret-key")

	// Limit the demo tenant to gpt-test.
	admin := func(method, path, body string) string {
		req, _ := http.NewRequest(method, p.gateway+path, strings.NewReader(body))
		req.Header.Set("X-Admin-Key", adminKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	var got struct {
		Tenant map[string]any `json:"tenant"`
	}
	json.Unmarshal([]byte(admin("GET", "/admin/tenants/demo", "")), &got)
	body, _ := json.Marshal(map[string]any{"name": got.Tenant["name"], "status": "active", "providers": got.Tenant["providers"], "allowed_models": []string{"gpt-test"}})
	admin("PUT", "/admin/tenants/demo", string(body))

	var res struct {
		Models   []string
		Content  string
		Usage    map[string]int
		Streamed string
		Denied   *struct {
			Status  int
			Message string
		}
	}
	runNodeScript(t, p, "openai-client.mjs", &res, "GTMGATE_BASE_URL="+p.gateway+"/v1", "GTMGATE_TOKEN="+p.demoToken)
	if strings.Join(res.Models, ",") != "gpt-test" {
		t.Errorf("models not filtered to the tenant's list: %v", res.Models)
	}
	if res.Content != "hello" || res.Usage["total_tokens"] != 6 || res.Streamed != "123" {
		t.Errorf("pass-through: %+v", res)
	}
	if res.Denied == nil || res.Denied.Status != 403 || !strings.Contains(res.Denied.Message, "forbidden-model") {
		t.Errorf("disallowed model: %+v", res.Denied)
	}
	upstream.mu.Lock()
	for _, a := range upstream.auths {
		if a != "Bearer upstream-secret-key" {
			t.Errorf("upstream saw Authorization %q; the tenant token must never reach it", a)
		}
	}
	upstream.mu.Unlock()
	usage := admin("GET", "/admin/usage/demo", "")
	if !strings.Contains(usage, `"model":"gpt-test"`) || !strings.Contains(usage, `"total_tokens":13`) {
		t.Errorf("chat usage not recorded per model: %s", usage)
	}
	if audit := admin("GET", "/admin/audit?source=chat", ""); !strings.Contains(audit, "chat.completions") {
		t.Errorf("chat calls not audited: %s", audit)
	}
}
