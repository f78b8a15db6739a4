package sqlite_test

import (
	"testing"

	"github.com/gtmgate/gtmgate/store/storetest"
)

func TestOAuthStore(t *testing.T) {
	storetest.ExerciseOAuth(t, func(t *testing.T) storetest.OAuthServerStore { return openTest(t) })
}
