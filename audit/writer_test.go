package audit

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
)

type fakeStore struct {
	gtmgate.AuditStore
	mu      sync.Mutex
	batches [][]gtmgate.AuditEntry
	usage   int
	fail    error
}

func (f *fakeStore) WriteCalls(_ context.Context, a []gtmgate.AuditEntry, u []gtmgate.UsageEvent) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	f.batches = append(f.batches, append([]gtmgate.AuditEntry(nil), a...))
	f.usage += len(u)
	return nil
}

func TestWriterRecordsEveryEntry(t *testing.T) {
	t.Parallel()
	fs := &fakeStore{}
	w := NewWriter(fs, &Options{MaxBatch: 8})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var u *gtmgate.UsageEvent
			if i%2 == 0 {
				u = &gtmgate.UsageEvent{Tool: "t"}
			}
			if err := w.Record(context.Background(), gtmgate.AuditEntry{RequestID: "r"}, u); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	w.Close()
	total := 0
	for _, b := range fs.batches {
		if len(b) > 8 {
			t.Fatalf("batch of %d exceeds MaxBatch", len(b))
		}
		total += len(b)
	}
	if total != 100 || fs.usage != 50 {
		t.Fatalf("wrote %d entries, %d usage; want 100, 50", total, fs.usage)
	}
	if err := w.Record(context.Background(), gtmgate.AuditEntry{}, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("record after close: %v", err)
	}
}

func TestWriterReportsStoreFailure(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk full")
	w := NewWriter(&fakeStore{fail: boom}, nil)
	defer w.Close()
	if err := w.Record(context.Background(), gtmgate.AuditEntry{}, nil); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the store's error", err)
	}
}
