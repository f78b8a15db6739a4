package modelgw

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// hangingGateway never answers; it returns when the client gives up. It reads
// the body first: only then does the server notice a client disconnecting.
func hangingGateway() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	})
}

func TestChatTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      *Options
		ctx       func() (context.Context, context.CancelFunc)
		wantWaits int
	}{
		{name: "per-attempt timeout, retried", opts: &Options{Timeout: 20 * time.Millisecond, MaxRetries: 1},
			ctx: func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, wantWaits: 1},
		{name: "caller deadline", opts: &Options{Timeout: time.Hour},
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 20*time.Millisecond)
			}, wantWaits: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, waits := newTestClient(t, hangingGateway(), tt.opts)
			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := c.Chat(ctx, &ChatRequest{Model: "m"})
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want ErrTimeout and context.DeadlineExceeded", err)
			}
			if len(*waits) != tt.wantWaits {
				t.Errorf("retries = %d, want %d", len(*waits), tt.wantWaits)
			}
		})
	}
}

func TestChatCallerCancelIsNotTimeout(t *testing.T) {
	t.Parallel()
	c, _ := newTestClient(t, hangingGateway(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	_, err := c.Chat(ctx, &ChatRequest{Model: "m"})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want context.Canceled only", err)
	}
}
