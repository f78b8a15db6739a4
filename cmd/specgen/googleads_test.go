package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// adsProtos is a miniature google/ads/googleads/v99 in the shapes of the
// real protos: a type name broken across lines, oneof, nested messages and
// enums, field behaviours, resource references, additional bindings.
var adsProtos = map[string]string{
	"google/ads/googleads/v99/googleads_v99.yaml": "type: google.api.Service\ntitle: Google Ads API\n",
	"google/ads/googleads/v99/services/google_ads_service.proto": `syntax = "proto3";
package google.ads.googleads.v99.services;
import "google/ads/googleads/v99/resources/campaign.proto";
import "google/ads/googleads/v99/common/metrics.proto";
import "google/api/annotations.proto";
import "google/protobuf/field_mask.proto";
import "google/rpc/status.proto";
option go_package = "x;services";
// GoogleAdsService. /* not a comment */
service GoogleAdsService {
  option (google.api.default_host) = "googleads.googleapis.com";
  option (google.api.oauth_scopes) =
      "https://www.googleapis.com/auth/adwords";
  rpc Search(SearchGoogleAdsRequest) returns (SearchGoogleAdsResponse) {
    option (google.api.http) = {
      post: "/v99/customers/{customer_id=*}/googleAds:search"
      body: "*"
      additional_bindings { get: "/v99/other" }
    };
  }
  rpc SearchStream(SearchGoogleAdsRequest) returns (stream SearchGoogleAdsResponse) {
    option (google.api.http) = { post: "/v99/customers/{customer_id=*}/googleAds:searchStream" body: "*" };
  }
}
service CampaignService {
  rpc MutateCampaigns(MutateCampaignsRequest) returns (MutateCampaignsResponse) {
    option (google.api.http) = { post: "/v99/customers/{customer_id=*}/campaigns:mutate" body: "*" };
  }
  option (google.api.oauth_scopes) = "https://www.googleapis.com/auth/adwords,"
      "https://www.googleapis.com/auth/cloud-platform";
}
message SearchGoogleAdsRequest {
  string customer_id = 1 [(google.api.field_behavior) = REQUIRED];
  string query = 2 [(google.api.field_behavior) = REQUIRED];
  int32 page_size = 4;
}
message SearchGoogleAdsResponse {
  repeated GoogleAdsRow results = 1;
  google.protobuf.FieldMask field_mask = 5;
  int64 total_results_count = 3;
}
message GoogleAdsRow {
  google.ads.googleads.v99.resources.Campaign campaign = 2;
  google.ads.googleads.v99.resources.Campaign unused_resource = 3;
  google.ads.googleads.v99.common.Metrics metrics = 4;
}
message MutateCampaignsRequest {
  string customer_id = 1 [(google.api.field_behavior) = REQUIRED];
  repeated CampaignOperation operations = 2
      [(google.api.field_behavior) = REQUIRED];
  bool validate_only = 4;
}
message CampaignOperation {
  google.protobuf.FieldMask update_mask = 4;
  oneof operation {
    google.ads.googleads.v99.resources.Campaign update = 2;
    string remove = 3 [(google.api.resource_reference) = {
      type: "googleads.googleapis.com/Campaign"
    }];
  }
}
message MutateCampaignsResponse {
  google.rpc.Status partial_failure_error = 3;
  repeated MutateCampaignResult results = 2;
}
message MutateCampaignResult {
  string resource_name = 1;
}
`,
	"google/ads/googleads/v99/resources/campaign.proto": `syntax = "proto3";
package google.ads.googleads.v99.resources;
import "google/ads/googleads/v99/enums/campaign_status.proto";
message Campaign {
  option (google.api.resource) = {
    type: "googleads.googleapis.com/Campaign"
    pattern: "customers/{customer_id}/campaigns/{campaign_id}"
  };
  message NetworkSettings {
    optional bool target_search_network = 1;
  }
  string resource_name = 1 [
    (google.api.field_behavior) = IMMUTABLE,
    (google.api.resource_reference) = { type: "googleads.googleapis.com/Campaign" }
  ];
  optional int64 id = 59 [(google.api.field_behavior) = OUTPUT_ONLY];
  optional string name = 58;
  google.ads.googleads.v99.enums.CampaignStatusEnum
      .CampaignStatus status = 5;
  NetworkSettings network_settings = 14;
  optional string campaign_budget = 62 [(google.api.resource_reference) = {
    type: "googleads.googleapis.com/CampaignBudget"
  }];
  optional string start_date = 63;
}
`,
	"google/ads/googleads/v99/enums/campaign_status.proto": `syntax = "proto3";
package google.ads.googleads.v99.enums;
message CampaignStatusEnum {
  enum CampaignStatus {
    UNSPECIFIED = 0;
    UNKNOWN = 1;
    ENABLED = 2;
    PAUSED = 3 [deprecated = false];
    REMOVED = 4;
  }
}
message GoogleAdsFieldDataTypeEnum {
  enum GoogleAdsFieldDataType {
    UNSPECIFIED = 0; UNKNOWN = 1; BOOLEAN = 2; DATE = 3; DOUBLE = 4; ENUM = 5; FLOAT = 6;
    INT32 = 7; INT64 = 8; MESSAGE = 9; RESOURCE_NAME = 10; STRING = 11; UINT64 = 12;
  }
}
`,
	"google/ads/googleads/v99/common/metrics.proto": `syntax = "proto3";
package google.ads.googleads.v99.common;
message Metrics {
  optional int64 clicks = 131;
  optional double ctr = 132;
  optional double average_cpc = 117;
}
`,
	"google/ads/googleads/v99/errors/errors.proto": `syntax = "proto3";
package google.ads.googleads.v99.errors;
message ErrorCode {
  oneof error_code {
    RequestErrorEnum.RequestError request_error = 1;
    QueryErrorEnum.QueryError query_error = 5;
  }
}
message RequestErrorEnum { enum RequestError { UNSPECIFIED = 0; UNKNOWN = 1; INVALID_ENUM_VALUE = 18; } }
message QueryErrorEnum { enum QueryError { UNSPECIFIED = 0; UNRECOGNIZED_FIELD = 32; } }
`,
	"google/rpc/status.proto": `syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
`,
	"google/rpc/code.proto": `syntax = "proto3";
package google.rpc;
enum Code { OK = 0; INVALID_ARGUMENT = 3; }
`,
}

func TestGoogleAdsProtos(t *testing.T) {
	root := t.TempDir()
	for name, src := range adsProtos {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tg := target{format: "googleads-proto", pathVersion: true,
		operations: []string{"GoogleAdsService.Search", "CampaignService.MutateCampaigns"},
		gaql:       []string{"campaign", "campaign.id", "campaign.status", "campaign.campaign_budget", "campaign.network_settings", "campaign.start_date", "metrics.clicks", "metrics.ctr"},
		gaqlDates:  []string{"campaign.start_date"}, errorKinds: []string{"request_error"}}
	spec := &apispec.Spec{Provider: "google_ads", Source: "test", Retrieved: "2026-11-25", Schemas: map[string]*apispec.Schema{}, PathVersion: true}
	if err := fromGoogleAdsProtos(spec, filepath.Join(root, "google/ads/googleads/v99"), tg); err != nil {
		t.Fatal(err)
	}
	if spec.Version != "v99" || spec.Title != "Google Ads API" || len(spec.Operations) != 2 {
		t.Fatalf("version %q, title %q, %d operations", spec.Version, spec.Title, len(spec.Operations))
	}
	search := spec.Operations[0]
	if search.ID != "GoogleAdsService.Search" || search.Method != "POST" || search.Path != "/v99/customers/{customer_id}/googleAds:search" ||
		len(search.Params) != 1 || search.Params[0].Name != "customer_id" || search.Request.Ref != "services.SearchGoogleAdsRequest" {
		t.Errorf("search = %+v", search)
	}
	// Each RPC takes its service's google.api.oauth_scopes, declared before
	// or after the RPCs, adjacent strings concatenated.
	for i, want := range [][]string{{"https://www.googleapis.com/auth/adwords"},
		{"https://www.googleapis.com/auth/adwords", "https://www.googleapis.com/auth/cloud-platform"}} {
		if got := spec.Operations[i].Scopes; !slices.Equal(got, want) {
			t.Errorf("%s scopes = %q, want %q", spec.Operations[i].ID, got, want)
		}
	}
	req := spec.Schemas["services.SearchGoogleAdsRequest"]
	if _, inBody := req.Properties["customerId"]; inBody || !slices.Equal(req.Required, []string{"query"}) || req.Properties["pageSize"].Type != "integer" {
		t.Errorf("request schema = %+v (the path-bound customer_id is not in the body; query is required)", req)
	}
	row := spec.Schemas["services.GoogleAdsRow"]
	if _, ok := row.Properties["unusedResource"]; ok || row.Properties["campaign"].Ref != "resources.Campaign" {
		t.Errorf("row keeps %v", slices.Sorted(maps.Keys(row.Properties)))
	}
	campaign := spec.Schemas["resources.Campaign"]
	if got := slices.Sorted(maps.Keys(campaign.Properties)); !slices.Equal(got, []string{"campaignBudget", "id", "networkSettings", "resourceName", "startDate", "status"}) {
		t.Errorf("campaign keeps %v", got)
	}
	if s := campaign.Properties["status"]; s.Type != "string" || !slices.Contains(s.Enum, "PAUSED") || len(s.Enum) != 5 {
		t.Errorf("status = %+v", s)
	}
	if id := campaign.Properties["id"]; id.Type != "string" || id.Format != "int64" {
		t.Errorf("id = %+v, want a string of format int64", id)
	}
	if spec.Schemas["resources.Campaign.NetworkSettings"].Properties["targetSearchNetwork"] == nil {
		t.Error("a field selected as a whole message keeps all its fields")
	}
	op := spec.Schemas["services.CampaignOperation"]
	if op.Properties["updateMask"].Type != "string" || op.Properties["remove"].Type != "string" || op.Properties["update"].Ref != "resources.Campaign" {
		t.Errorf("operation = %+v", op)
	}
	if d := spec.Schemas["google.rpc.Status"].Properties["details"]; d.Items == nil || !d.Items.Open {
		t.Errorf("Status.details = %+v", d)
	}
	var fields map[string]gaqlField
	json.Unmarshal(spec.Facts["gaql_fields"], &fields)
	want := map[string]string{"campaign": "RESOURCE MESSAGE", "campaign.id": "ATTRIBUTE INT64", "campaign.status": "ATTRIBUTE ENUM",
		"campaign.campaign_budget": "ATTRIBUTE RESOURCE_NAME", "campaign.network_settings": "ATTRIBUTE MESSAGE",
		"campaign.start_date": "ATTRIBUTE DATE", "metrics.clicks": "METRIC INT64", "metrics.ctr": "METRIC DOUBLE"}
	for name, w := range want {
		if got := fields[name].Category + " " + fields[name].DataType; got != w {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if f := fields["campaign.status"]; f.TypeURL != "google.ads.googleads.v99.enums.CampaignStatusEnum.CampaignStatus" || len(f.EnumValues) != 5 {
		t.Errorf("campaign.status = %+v", f)
	}
	var codes map[string][]string
	json.Unmarshal(spec.Facts["error_codes"], &codes)
	if !slices.Equal(codes["requestError"], []string{"UNSPECIFIED", "UNKNOWN", "INVALID_ENUM_VALUE"}) || len(codes) != 1 {
		t.Errorf("error codes = %v", codes)
	}
	if b, err := json.Marshal(spec); err != nil {
		t.Fatal(err)
	} else if _, err := apispec.Parse(b); err != nil {
		t.Fatal(err)
	}

	tg.gaql = append(tg.gaql, "campaign.colour")
	err := fromGoogleAdsProtos(&apispec.Spec{Schemas: map[string]*apispec.Schema{}}, filepath.Join(root, "google/ads/googleads/v99"), tg)
	if err == nil || !strings.Contains(err.Error(), "has no field colour") {
		t.Errorf("a GAQL field the protos lack: %v", err)
	}
}
