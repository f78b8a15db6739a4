package gcalendar

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode Calendar's
// answers into is one the discovery document gives that method's answer,
// so a misspelled tag cannot drop what Calendar sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.DecodedAll(t, Spec(), map[string]reflect.Type{
		"calendar.events.list":    reflect.TypeFor[eventList](),
		"calendar.events.get":     reflect.TypeFor[Event](),
		"calendar.events.insert":  reflect.TypeFor[Event](),
		"calendar.events.patch":   reflect.TypeFor[Event](),
		"calendar.freebusy.query": reflect.TypeFor[freeBusyResponse](),
	})
}
