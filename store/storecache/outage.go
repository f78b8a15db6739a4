package storecache

import (
	"context"
	"errors"
	"time"

	"github.com/gtmgate/gtmgate"
)

// outage is what the cache knows of a store that stopped answering.
type outage struct {
	// since is when a read first failed as unavailable (zero: the store answers).
	since time.Time
	// retryAt is when the next caller may ask the store again.
	retryAt time.Time
	// probing is set while one caller asks it.
	probing bool
	// cause answers reads with nothing to serve meanwhile.
	cause error
}

// wentDown records a read that failed because the store is unavailable;
// the first of an outage is logged.
func (s *Store) wentDown(err error) {
	now := s.now()
	s.mu.Lock()
	first := s.down.since.IsZero()
	if first {
		s.down.since = now
	}
	cause := unavailable(err)
	s.down.retryAt, s.down.probing, s.down.cause = now.Add(s.ttl), false, cause
	s.mu.Unlock()
	if first {
		s.logger().Warn("storecache: the store is unavailable; serving tokens, tenants and provider tokens as last read",
			"for_at_most", StaleFor.String(), "retry_every", s.ttl.String(), "err", gtmgate.AsError(cause).Message)
	}
}

// cameBack records a read the store answered, ending an outage.
func (s *Store) cameBack() {
	s.mu.Lock()
	since := s.down.since
	s.down = outage{}
	s.mu.Unlock()
	if !since.IsZero() {
		s.logger().Info("storecache: the store answers again", "served_stale_for", s.now().Sub(since).Round(time.Millisecond).String())
	}
}

// storeDown reports whether err, from a load under ctx, means the store is
// unavailable, as opposed to an answer (not found, a bad request) or the
// caller giving up. A store that did not answer within LoadTimeout is down.
func storeDown(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	return errors.Is(err, gtmgate.ErrStoreUnavailable) || errors.Is(err, context.DeadlineExceeded)
}

// unavailable is err as an UNAVAILABLE error wrapping
// gtmgate.ErrStoreUnavailable, as the store's own failures are.
func unavailable(err error) error {
	if errors.Is(err, gtmgate.ErrStoreUnavailable) {
		return err
	}
	return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store did not answer in time",
		Hint: "retry shortly; if it persists, the operator should check the database", Err: errors.Join(gtmgate.ErrStoreUnavailable, err)}
}
