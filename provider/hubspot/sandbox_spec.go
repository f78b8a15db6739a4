package hubspot

import (
	_ "embed"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// specFile is the facts of the CRM endpoints the adapter calls, at the
// date-based version 2026-03 and at the legacy v3/v4 paths, extracted by
// cmd/specgen from HubSpot's OpenAPI documents
// (github.com/HubSpot/HubSpot-public-api-spec-collection, PublicApiSpecs/CRM;
// scripts/specgen regenerates it from a checkout).
//
//go:embed apispec.json
var specFile []byte

// crmSpec parses specFile on first use (a process that runs no sandbox and
// calls no Spec never does); enforcers share it read-only.
var crmSpec = apispec.ParseOnce(specFile)

// specChecked reports whether the spec describes path: the legacy /crm/v3/…
// and /crm/v4/… paths and those of the spec's dated version. The sandbox
// serves the other dated versions of the catalogue (2026-09) unchecked.
func specChecked(path string) bool {
	rest, ok := strings.CutPrefix(path, "/crm/")
	if !ok {
		return false
	}
	area, rest, _ := strings.Cut(rest, "/")
	if area == "v3" || area == "v4" {
		return true
	}
	version, _, _ := strings.Cut(rest, "/")
	return version == crmSpec().Version
}

// refuse answers a request the spec does not allow as HubSpot does: a 400
// VALIDATION_ERROR, or for a path no operation serves the sandbox's answer
// to an unknown route.
func (s *Sandbox) refuse(w http.ResponseWriter, status int, message string) {
	category := "VALIDATION_ERROR"
	if status == http.StatusNotFound {
		category = "OBJECT_NOT_FOUND"
	}
	s.writeError(w, status, category, message)
}
