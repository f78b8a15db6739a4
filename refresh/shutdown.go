package refresh

import (
	"context"
	"fmt"

	"github.com/gtmgate/gtmgate"
)

// begin registers a refresh about to call the store and the endpoint; it
// fails once Close has been called.
func (r *Refresher) begin() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the gateway is shutting down", Hint: "retry the call"}
	}
	r.inflight.Add(1)
	return nil
}

// Close stops new refreshes and waits for those in flight to store their
// outcome, until ctx ends: a refresh interrupted after the provider rotated
// the refresh token would lose it. Call it after the listeners have drained
// and Run has returned, before the store is closed.
func (r *Refresher) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("refresh: close: refreshes still in flight: %w", ctx.Err())
	}
}
