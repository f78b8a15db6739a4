package bigquery

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestDryRunWithLocation: a location travels in the dry run's jobReference,
// which BigQuery accepts only with a valid jobId.
func TestDryRunWithLocation(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	for _, action := range []string{"estimate", "run"} {
		out, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"`+action+`","query":"SELECT session_id FROM marketing.web_sessions","location":"US"}`)
		if err != nil {
			t.Fatalf("%s with a location: %v", action, err)
		}
		if len(out) == 0 {
			t.Errorf("%s: empty result", action)
		}
	}
}

func TestNewJobID(t *testing.T) {
	t.Parallel()
	a, b := newJobID("gtmgate_dryrun"), newJobID("gtmgate_dryrun")
	if a == b || !validJobID(a) || !strings.HasPrefix(a, "gtmgate_dryrun_") {
		t.Errorf("newJobID = %q, %q: want distinct valid job ids", a, b)
	}
}

// TestSandboxRefusesEmptyJobID: the sandbox answers a jobReference without a
// valid jobId the way BigQuery does, 400 with reason invalid.
func TestSandboxRefusesEmptyJobID(t *testing.T) {
	t.Parallel()
	sb := NewSandbox()
	base := providertest.Serve(t, sb.ProviderSandbox)
	for _, id := range []string{"", "acme-analytics:job_1", strings.Repeat("j", 1025)} {
		body, _ := json.Marshal(map[string]any{
			"configuration": map[string]any{"dryRun": true, "query": map[string]any{"query": "SELECT 1", "useLegacySql": false}},
			"jobReference":  map[string]any{"projectId": SandboxProject, "jobId": id, "location": "US"},
		})
		req, _ := http.NewRequest(http.MethodPost, base+"/bigquery/v2/projects/"+SandboxProject+"/jobs", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+SandboxToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error struct {
				Code   int    `json:"code"`
				Status string `json:"status"`
				Errors []struct {
					Reason string `json:"reason"`
				} `json:"errors"`
			} `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.Error.Status != "INVALID_ARGUMENT" || len(e.Error.Errors) == 0 || e.Error.Errors[0].Reason != "invalid" {
			t.Errorf("jobId %.20q: status %d, error %+v; want 400 invalid", id, resp.StatusCode, e.Error)
		}
	}
}
