package ga4

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode the Data API's
// answers into is one the discovery document gives that method's answer,
// so a misspelled tag cannot drop what GA4 sends. reportResponse reads both
// report methods.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spec := Spec()
	spectest.Decoded(t, spec, "analyticsdata.properties.getMetadata", reflect.TypeFor[Metadata]())
	spectest.Decoded(t, spec, "analyticsdata.properties.runReport", reflect.TypeFor[reportResponse]())
	spectest.Decoded(t, spec, "analyticsdata.properties.runRealtimeReport", reflect.TypeFor[reportResponse](),
		// A RunRealtimeReportResponse has no metadata (the discovery
		// document gives it none); reportResponse serves both methods, so
		// it stays nil there and a realtime report names no currency or
		// time zone (toReport).
		"metadata")
}
