// Package audit writes audit entries and usage events with group commit:
// concurrent calls share one store transaction, and each caller returns only
// once its entry is durable, so a response is never sent for a call whose
// audit entry could still be lost.
package audit

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/gtmgate/gtmgate"
)

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("audit: writer closed")

// Options tunes a Writer.
type Options struct {
	// MaxBatch bounds the entries written in one transaction (default 256).
	MaxBatch int
	Logger   *slog.Logger
}

type pending struct {
	audit gtmgate.AuditEntry
	usage *gtmgate.UsageEvent
	done  chan error
}

// Writer is a gtmgate.Recorder that batches concurrent records.
type Writer struct {
	store  gtmgate.AuditStore
	opts   Options
	queue  chan *pending
	mu     sync.RWMutex
	closed bool
	wg     sync.WaitGroup
}

// NewWriter starts a Writer over store.
func NewWriter(store gtmgate.AuditStore, opts *Options) *Writer {
	w := &Writer{store: store}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.MaxBatch <= 0 {
		w.opts.MaxBatch = 256
	}
	if w.opts.Logger == nil {
		w.opts.Logger = slog.Default()
	}
	w.queue = make(chan *pending, w.opts.MaxBatch*4)
	w.wg.Add(1)
	go w.loop()
	return w
}

// Record queues an entry and waits until it is committed. The wait does not
// end with ctx: a client that hangs up still gets its call audited.
func (w *Writer) Record(_ context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	p := &pending{audit: a, usage: u, done: make(chan error, 1)}
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return ErrClosed
	}
	w.queue <- p
	w.mu.RUnlock()
	return <-p.done
}

// Close writes what is queued and stops the writer.
func (w *Writer) Close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	w.wg.Wait()
}

func (w *Writer) loop() {
	defer w.wg.Done()
	batch := make([]*pending, 0, w.opts.MaxBatch)
	for p := range w.queue {
		batch = append(batch[:0], p)
	fill:
		for len(batch) < w.opts.MaxBatch {
			select {
			case q, ok := <-w.queue:
				if !ok {
					break fill
				}
				batch = append(batch, q)
			default:
				break fill
			}
		}
		w.flush(batch)
	}
}

func (w *Writer) flush(batch []*pending) {
	entries := make([]gtmgate.AuditEntry, len(batch))
	var usage []gtmgate.UsageEvent
	for i, p := range batch {
		entries[i] = p.audit
		if p.usage != nil {
			usage = append(usage, *p.usage)
		}
	}
	// Writes outlive the requests that asked for them.
	err := w.store.WriteCalls(context.Background(), entries, usage)
	if err != nil {
		w.opts.Logger.Error("audit write failed", "entries", len(entries), "err", err)
	}
	for _, p := range batch {
		p.done <- err
	}
}
