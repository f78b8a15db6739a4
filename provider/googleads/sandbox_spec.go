package googleads

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// specFile is the facts of the Google Ads API the sandbox enforces,
// extracted by cmd/specgen from the googleapis protos of the default
// version (its google_ads target says how to regenerate it).
//
//go:embed apispec.json
var specFile []byte

// adsSpec parses specFile on first use (a process that runs no sandbox and
// calls no Spec never does); it is read-only, so every sandbox shares it.
var adsSpec = apispec.ParseOnce(specFile)

// gaqlField is one GAQL field of the spec's gaql_fields facts, as Google's
// GoogleAdsField describes it.
type gaqlField struct {
	Category   string   `json:"category"` // RESOURCE, ATTRIBUTE, SEGMENT or METRIC
	DataType   string   `json:"data_type"`
	TypeURL    string   `json:"type_url"`
	IsRepeated bool     `json:"is_repeated"`
	EnumValues []string `json:"enum_values"`
}

// gaqlFields are the GAQL fields the tools and the sandbox use, with their
// category, type and enum values in the spec's version.
var gaqlFields = func() map[string]gaqlField {
	var m map[string]gaqlField
	if err := json.Unmarshal(adsSpec().Facts["gaql_fields"], &m); err != nil || len(m) == 0 {
		panic("googleads: apispec.json has no gaql_fields facts")
	}
	return m
}()

// sbWriter carries what the enforcer's refusal needs to answer as Google:
// the request's path and API version.
type sbWriter struct {
	http.ResponseWriter
	path, version string
}

// refuse answers a request the spec does not allow. A path no operation
// serves gets Google's 404 page, as the front end answers it; anything else
// is a 400 INVALID_ARGUMENT with a GoogleAdsFailure naming the problems.
func refuse(w http.ResponseWriter, status int, message string) {
	sw, _ := w.(*sbWriter)
	if sw == nil {
		sw = &sbWriter{ResponseWriter: w, version: DefaultVersion()}
	}
	if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
		writeNotFoundPage(w, sw.path)
		return
	}
	kind, code := refusalCode(message)
	sbReply{w: w, version: sw.version}.googleError(http.StatusBadRequest, "INVALID_ARGUMENT",
		"Request contains an invalid argument.", kind, code, message)
}

// refusalCode is the GoogleAdsFailure error code (v25 errors protos) for
// the enforcer's problem message.
func refusalCode(message string) (kind, code string) {
	switch {
	case strings.Contains(message, `"login-customer-id"`):
		return "headerError", "INVALID_LOGIN_CUSTOMER_ID"
	case strings.Contains(message, "required field missing"), strings.Contains(message, "required, missing"):
		return "fieldError", "REQUIRED"
	case strings.Contains(message, "is not one of"):
		return "requestError", "INVALID_ENUM_VALUE"
	}
	return "fieldError", "INVALID_VALUE"
}
