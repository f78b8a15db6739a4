package webfetch

import (
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate/egress"
)

// newTransport returns a transport whose every dial is vetted by check
// (egress.NewCheckedTransport).
func newTransport(check egress.CheckFunc) *http.Transport {
	return egress.NewCheckedTransport(check, 10*time.Second)
}
