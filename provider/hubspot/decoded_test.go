package hubspot

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode HubSpot's
// answers into is one HubSpot's OpenAPI files give that operation's answer,
// at 2026-03 and at the legacy paths, so a misspelled tag cannot drop what
// HubSpot sends. Every operation of the facts is one the adapter calls, so
// each is matched with the type its answer is decoded into.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	for _, op := range crmSpec().Operations {
		typ, allowed := decodedType(op.Method, op.Path)
		if typ == nil {
			t.Errorf("%s: no decoded type: add the type the adapter reads its answer into", op.ID)
			continue
		}
		spectest.Decoded(t, crmSpec(), op.ID, typ, allowed...)
	}
}

// decodedType is the type the adapter decodes the answer of method path
// into (records.go, associations.go, pipelines.go, properties.go), and the
// fields it reads that the answer lacks.
func decodedType(method, path string) (reflect.Type, []string) {
	switch {
	case method == http.MethodGet && strings.Contains(path, "/associations/"):
		return reflect.TypeFor[hsAssocPage](), nil
	case method == http.MethodPut && strings.Contains(path, "/associations/default/"):
		return reflect.TypeFor[hsBatchResponse](), nil
	case method == http.MethodGet && strings.Contains(path, "/pipelines/"):
		return reflect.TypeFor[hsPipelines](), nil
	case method == http.MethodGet && strings.Contains(path, "/properties/"):
		return reflect.TypeFor[hsProperties](), nil
	case method == http.MethodPost && strings.HasSuffix(path, "/search"):
		return reflect.TypeFor[hsPage](), nil // searchObjects
	case method == http.MethodGet && strings.HasSuffix(path, "Id}"):
		return reflect.TypeFor[hsObject](), nil // getObject
	case method == http.MethodGet:
		// listObjects: hsPage serves search too, and only a search answer
		// (CollectionResponseWithTotal…) has a total; a list's leaves it nil.
		return reflect.TypeFor[hsPage](), []string{"total"}
	case method == http.MethodPost, method == http.MethodPatch:
		return reflect.TypeFor[hsObject](), nil // createObject, updateObject
	}
	return nil, nil
}
