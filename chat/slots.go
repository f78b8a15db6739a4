package chat

import (
	"fmt"
	"sync"

	"github.com/gtmgate/gtmgate"
)

// streamSlots caps concurrent streamed responses in total and per tenant: a
// stream holds a connection and a goroutine for as long as the model talks,
// so one tenant (or many) must not be able to hold them all.
type streamSlots struct {
	total, perTenant int64

	mu       sync.Mutex
	n        int64
	byTenant map[string]int64
}

func newStreamSlots(total, perTenant int64) *streamSlots {
	return &streamSlots{total: total, perTenant: perTenant, byTenant: map[string]int64{}}
}

// acquire takes a slot for tenant, or returns RATE_LIMITED naming the cap
// that is full. release must be called once the stream ends.
func (s *streamSlots) acquire(tenant string) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.byTenant[tenant] >= s.perTenant:
		return nil, slotsFull(fmt.Sprintf("this tenant already has %d streamed chat responses open", s.perTenant))
	case s.n >= s.total:
		return nil, slotsFull(fmt.Sprintf("the gateway already has %d streamed chat responses open", s.total))
	}
	s.n++
	s.byTenant[tenant]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.n--
			if s.byTenant[tenant]--; s.byTenant[tenant] <= 0 {
				delete(s.byTenant, tenant)
			}
		})
	}, nil
}

func slotsFull(msg string) *gtmgate.Error {
	return &gtmgate.Error{Code: gtmgate.ERateLimited, Message: msg, RetryAfter: 1,
		Hint: "wait for a stream to finish, or send the request without stream"}
}
