package bigquery

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode BigQuery's
// answers into is one the discovery document gives that method's answer,
// so a misspelled tag cannot drop what BigQuery sends. queryResponse reads
// both jobs.query and jobs.getQueryResults.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.DecodedAll(t, Spec(), map[string]reflect.Type{
		"bigquery.datasets.list":        reflect.TypeFor[datasetList](),
		"bigquery.tables.list":          reflect.TypeFor[tableList](),
		"bigquery.tables.get":           reflect.TypeFor[tableResource](),
		"bigquery.jobs.insert":          reflect.TypeFor[job](),
		"bigquery.jobs.query":           reflect.TypeFor[queryResponse](),
		"bigquery.jobs.getQueryResults": reflect.TypeFor[queryResponse](),
	})
}
