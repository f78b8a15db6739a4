package hubspot

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestMain fails the package on any request or answer of a sandbox that
// HubSpot's published spec does not allow and no test took.
func TestMain(m *testing.M) { spectest.Main(m) }
