package upstream

import (
	"context"
	"sync/atomic"
	"time"
)

// Timing accumulates the time a call spent waiting on providers.
type Timing struct{ nanos atomic.Int64 }

// Total returns the accumulated upstream time.
func (t *Timing) Total() time.Duration { return time.Duration(t.nanos.Load()) }

type timingKey struct{}

// WithTiming returns a context whose provider calls add their duration to the returned Timing.
func WithTiming(ctx context.Context) (context.Context, *Timing) {
	t := &Timing{}
	return context.WithValue(ctx, timingKey{}, t), t
}

func addTiming(ctx context.Context, d time.Duration) {
	if t, ok := ctx.Value(timingKey{}).(*Timing); ok {
		t.nanos.Add(int64(d))
	}
}
