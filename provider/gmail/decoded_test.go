package gmail

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode Gmail's answers
// into is one the discovery document gives that method's answer, so a
// misspelled tag cannot drop what Gmail sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.DecodedAll(t, Spec(), map[string]reflect.Type{
		"gmail.users.messages.list": reflect.TypeFor[messageList](),
		"gmail.users.messages.get":  reflect.TypeFor[Message](),
		"gmail.users.messages.send": reflect.TypeFor[Message](),
		"gmail.users.threads.list":  reflect.TypeFor[threadList](),
		"gmail.users.threads.get":   reflect.TypeFor[Thread](),
		"gmail.users.drafts.create": reflect.TypeFor[Draft](),
		"gmail.users.drafts.get":    reflect.TypeFor[Draft](),
	})
}
