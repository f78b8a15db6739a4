package metaads

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// specFile is the facts of the Marketing API v26.0 calls the adapter makes,
// from the Java classes Meta generates into facebook-java-business-sdk
// v26.0.0 (internal/sdkspec writes it): operations, their parameters with
// types and enums, and the fields of AdAccount, AdsInsights and Campaign.
//
//go:embed apispec.json
var specFile []byte

// graphSpec is specFile parsed; enforcers share it read-only.
var graphSpec = apispec.MustParse(specFile)

// graphInsightsFields are the fields an insights call may request. The SDK's
// AdsInsights declares the breakdown columns that rows carry beside its
// fields; the requestable fields are the declared ones less the breakdowns
// (exactly the Fields list the Node SDK exports).
var graphInsightsFields = func() []string {
	breakdowns := listParamEnum("AdAccount.get_insights", "breakdowns")
	return slices.DeleteFunc(schemaFields("AdsInsights"), func(f string) bool { return slices.Contains(breakdowns, f) })
}()

// graphCampaignFields are the fields a Campaign read may request.
var graphCampaignFields = schemaFields("Campaign")

// schemaFields lists the fields of one of the spec's schemas.
func schemaFields(name string) []string {
	return slices.Sorted(maps.Keys(graphSpec.Schemas[name].Properties))
}

// listParamEnum returns the values each element of a list parameter of an
// operation takes.
func listParamEnum(op, param string) []string { return listEnums[op][param] }

// listEnums is the spec's list_param_enums fact: operation → parameter → values.
var listEnums = func() map[string]map[string][]string {
	var lists map[string]map[string][]string
	if err := json.Unmarshal(graphSpec.Facts["list_param_enums"], &lists); err != nil {
		panic("metaads: apispec.json list_param_enums: " + err.Error())
	}
	return lists
}()

// listParamError is Graph's #100 message for an element of a list parameter
// outside its values, or "" when all are in. The enforcer checks a
// parameter's value whole; Graph takes a list as a JSON array or
// comma-separated, so its elements are checked here.
func listParamError(method, path string, form url.Values) string {
	op, _, _ := graphSpec.Find(method, path)
	if op == nil {
		return ""
	}
	for _, param := range slices.Sorted(maps.Keys(listEnums[op.ID])) {
		raw := form.Get(param)
		if raw == "" {
			continue
		}
		var vals []string
		if strings.HasPrefix(raw, "[") {
			if err := json.Unmarshal([]byte(raw), &vals); err != nil {
				return fmt.Sprintf("(#100) Param %s must be an array", param)
			}
		} else {
			vals = strings.Split(raw, ",")
		}
		allowed := listEnums[op.ID][param]
		for i, v := range vals {
			switch {
			case slices.Contains(allowed, v):
			case param == "breakdowns":
				return fmt.Sprintf("(#100) %s is not valid for breakdowns param. please check https://developers.facebook.com/docs/marketing-api/insights/breakdowns/ for all valid values", v)
			default:
				return fmt.Sprintf("(#100) Param %s[%d] must be one of {%s}", param, i, strings.Join(allowed, ", "))
			}
		}
	}
	return ""
}

// enforce puts next behind the spec's checks.
func enforce(next http.Handler) *apispec.Enforcer {
	return apispec.Enforce(graphSpec, next, refuseGraph)
}

// refuseGraph answers a request the spec does not allow the way Graph
// answers one: HTTP 400 with an OAuthException, code 100 for a parameter,
// 2500 for a path no operation serves.
func refuseGraph(w http.ResponseWriter, status int, msg string) {
	if status != http.StatusBadRequest {
		writeGraphError(w, http.StatusBadRequest, 2500, "Unknown path components: "+msg)
		return
	}
	writeGraphError(w, http.StatusBadRequest, 100, "(#100) "+msg)
}
