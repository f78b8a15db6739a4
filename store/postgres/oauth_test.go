package postgres_test

import (
	"testing"

	"github.com/gtmgate/gtmgate/store/storetest"
)

func TestOAuthStore(t *testing.T) {
	testURL(t)
	storetest.ExerciseOAuth(t, func(t *testing.T) storetest.OAuthServerStore { return openTest(t) })
}
