// Package audit writes audit entries and usage events. Record returns only
// once a call's record is durable, so a response is never sent for a call
// whose audit entry could still be lost. Durable means one of two things:
//
//   - With a journal (the default): the record is appended to a local
//     segment file with one write(2), which survives the process being
//     killed; a background loop then writes records to the store in
//     batches, moving the journal's mark in the same transaction. At start,
//     whatever a killed process left in its journal is written to the store
//     before anything else runs, and the marks make that exactly-once.
//   - Without one: the record is committed to the store, with concurrent
//     records sharing one transaction (group commit).
//
// Flush waits until everything recorded before it is readable from the
// store; the admin API calls it before reading the audit log or usage.
package audit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/diskspace"
	"github.com/gtmgate/gtmgate/flock"
)

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("audit: writer closed")

// Store is what the writer needs from the store.
type Store interface {
	gtmgate.AuditStore
	gtmgate.AuditJournalStore
}

// Options tunes a Writer.
type Options struct {
	// JournalDir turns the journal on: segment files live there. Empty means
	// every record waits for its store commit.
	JournalDir string
	// MaxBatch bounds the records written in one transaction (default 256).
	MaxBatch int
	// Linger is how long the journal's background loop waits for more
	// records before writing a batch that is not full (default 100ms): fewer,
	// larger transactions, so less CPU taken from the calls themselves. A
	// Flush cuts it short. Not used without a journal.
	Linger time.Duration
	// SegmentBytes is the size after which a new segment is started
	// (default 64 MiB); a segment is removed once all of it is in the store.
	SegmentBytes int64
	// CloseTimeout bounds how long Close keeps retrying a failing store
	// (default 10s). What is not written by then stays in the journal and
	// is written at the next start.
	CloseTimeout time.Duration
	// MinFreeBytes is the free space the journal's file system must keep
	// (default DefaultMinFreeBytes); below it records go straight to the
	// store, and Check fails if the store cannot take them either.
	MinFreeBytes uint64
	// FreeBytes measures a directory's free space (default: statfs).
	FreeBytes func(dir string) (uint64, error)
	Logger    *slog.Logger
}

type pending struct {
	audit gtmgate.AuditEntry
	usage *gtmgate.UsageEvent
	seq   uint64
	// Without a journal (or when appending failed): the caller waits on done.
	done chan error
	// With a journal: the segment holding the record and the offset just
	// past it. seal marks the end of a segment that is no longer appended to.
	seg  *segment
	end  int64
	seal bool
}

// Writer is a gtmgate.Recorder.
type Writer struct {
	store Store
	opts  Options
	queue chan *pending

	mu     sync.Mutex // orders appends and their queueing
	closed bool
	active *segment
	seq    uint64

	committed atomic.Uint64 // highest seq written to the store, in order
	notifyMu  sync.Mutex
	notify    chan struct{} // closed and replaced after each write

	kick     chan struct{} // Flush cuts the loop's linger short
	closing  chan struct{} // closed when Close starts
	deadline atomic.Int64  // unix nanos after which a closing writer stops retrying
	stopped  chan struct{} // closed when the loop has ended

	ready readiness
}

// NewWriter replays what earlier processes left in opts.JournalDir into the
// store, then starts a Writer.
func NewWriter(store Store, opts *Options) (*Writer, error) {
	w := &Writer{store: store, notify: make(chan struct{}), kick: make(chan struct{}, 1), closing: make(chan struct{}), stopped: make(chan struct{})}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.MaxBatch <= 0 {
		w.opts.MaxBatch = 256
	}
	if w.opts.Linger <= 0 {
		w.opts.Linger = 100 * time.Millisecond
	}
	if w.opts.SegmentBytes <= 0 {
		w.opts.SegmentBytes = 64 << 20
	}
	if w.opts.CloseTimeout <= 0 {
		w.opts.CloseTimeout = 10 * time.Second
	}
	if w.opts.Logger == nil {
		w.opts.Logger = slog.Default()
	}
	if w.opts.MinFreeBytes == 0 {
		w.opts.MinFreeBytes = DefaultMinFreeBytes
	}
	if w.opts.FreeBytes == nil {
		w.opts.FreeBytes = freeBytes
	}
	if dir := w.opts.JournalDir; dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("audit journal dir: %w", err)
		}
		if err := w.replayAll(dir); err != nil {
			return nil, err
		}
	}
	w.queue = make(chan *pending, w.opts.MaxBatch*64)
	go w.loop()
	return w, nil
}

// Record makes one call's audit entry and usage event durable. The wait does
// not end with ctx: a client that hangs up still gets its call audited.
//
// When neither the journal nor the store can take the record, the error is
// a *gtmgate.Error with code UNAVAILABLE: the caller must not acknowledge
// the call.
func (w *Writer) Record(_ context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	var journalErr error
	if w.opts.JournalDir != "" {
		if journalErr = w.journalUsable(); journalErr == nil {
			buf, err := encodeRecord(a, u)
			if err == nil {
				err = w.appendRecord(a, u, buf)
			}
			if err == nil || errors.Is(err, ErrClosed) {
				return err
			}
			w.noteAppend(err)
			journalErr = err
		}
		w.opts.Logger.Error("audit journal cannot take the record; waiting for the store instead", "err", journalErr)
	}
	if journalErr != nil {
		// The store is the only way left; while it is failing, do not queue
		// behind the journal's retries.
		if err := w.storeFailing(); err != nil {
			return notDurable(journalErr, err)
		}
	}
	if err := w.recordSync(a, u); err != nil {
		if errors.Is(err, ErrClosed) {
			return err
		}
		return notDurable(journalErr, err)
	}
	return nil
}

// appendRecord appends to the active segment and queues the record for the
// store. Appending and queueing under one lock keeps the queue in file order.
func (w *Writer) appendRecord(a gtmgate.AuditEntry, u *gtmgate.UsageEvent, buf []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	if w.active == nil || w.active.size >= w.opts.SegmentBytes {
		if err := w.rotateLocked(); err != nil {
			return err
		}
	}
	seg := w.active
	before := seg.size
	end, err := seg.append(buf)
	if err != nil {
		// A short write (disk full) must not leave a torn record in front of
		// later ones: cut it off, or give up on this segment.
		if terr := seg.file.Truncate(before); terr != nil {
			w.sealLocked(before)
			w.active = nil
		}
		seg.size = before
		return err
	}
	w.seq++
	w.queue <- &pending{audit: a, usage: u, seq: w.seq, seg: seg, end: end}
	return nil
}

// rotateLocked seals the active segment and starts a new one.
func (w *Writer) rotateLocked() error {
	if w.active != nil {
		w.sealLocked(w.active.size)
		w.active = nil
	}
	seg, err := createSegment(w.opts.JournalDir)
	if err != nil {
		return err
	}
	w.active = seg
	return nil
}

// sealLocked queues the end marker of the active segment: once the loop has
// written everything before it, the file is removed.
func (w *Writer) sealLocked(end int64) {
	w.queue <- &pending{seg: w.active, end: end, seal: true, seq: w.seq}
}

// recordSync queues a record and waits for its store commit.
func (w *Writer) recordSync(a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	p := &pending{audit: a, usage: u, done: make(chan error, 1)}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrClosed
	}
	w.seq++
	p.seq = w.seq
	w.queue <- p
	w.mu.Unlock()
	t := time.NewTimer(syncWait)
	defer t.Stop()
	select {
	case err := <-p.done:
		return err
	case <-t.C:
		return fmt.Errorf("audit: the store did not take the record within %s", syncWait)
	}
}

// syncWait bounds how long a call waits for its record's store commit.
const syncWait = 10 * time.Second

// Flush waits until every call recorded before it is in the store, or ctx
// ends, or the writer closes.
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	target := w.seq
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
	for {
		w.notifyMu.Lock()
		ch := w.notify
		w.notifyMu.Unlock()
		if w.committed.Load() >= target {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("audit: waiting for recorded calls to reach the store: %w", ctx.Err())
		case <-w.stopped:
			if w.committed.Load() >= target {
				return nil
			}
			return ErrClosed
		}
	}
}

// Backlog is the number of recorded calls not yet in the store.
func (w *Writer) Backlog() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq - w.committed.Load()
}

// Close writes what is queued (retrying a failing store for at most
// CloseTimeout) and stops the writer. A segment that is all in the store is
// removed; one that is not stays for the next start.
func (w *Writer) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-w.stopped
		return
	}
	w.deadline.Store(time.Now().Add(w.opts.CloseTimeout).UnixNano())
	close(w.closing)
	w.closed = true
	if w.active != nil {
		w.sealLocked(w.active.size)
		w.active = nil
	}
	close(w.queue)
	w.mu.Unlock()
	<-w.stopped
}

func (w *Writer) loop() {
	defer close(w.stopped)
	batch := make([]*pending, 0, w.opts.MaxBatch)
	var linger *time.Timer
	for p := range w.queue {
		batch = append(batch[:0], p)
		open := w.fill(&batch)
		if open && w.opts.JournalDir != "" && len(batch) < w.opts.MaxBatch && !anyWaiting(batch) {
			// Sleep rather than wait on the queue: records arriving now
			// would each wake the loop, which costs the calls more than
			// the commit it saves.
			if linger == nil {
				linger = time.NewTimer(w.opts.Linger)
			} else {
				linger.Reset(w.opts.Linger)
			}
			select {
			case <-linger.C:
			case <-w.kick:
				linger.Stop()
			case <-w.closing:
				linger.Stop()
			}
			w.fill(&batch)
		}
		w.apply(batch)
	}
}

// anyWaiting reports whether a caller is blocked on a record of batch (the
// journal could not take it): lingering would add to that call's latency.
func anyWaiting(batch []*pending) bool {
	for _, p := range batch {
		if p.done != nil {
			return true
		}
	}
	return false
}

// fill adds what is queued without waiting; false when the queue is closed.
func (w *Writer) fill(batch *[]*pending) bool {
	for len(*batch) < w.opts.MaxBatch {
		select {
		case q, ok := <-w.queue:
			if !ok {
				return false
			}
			*batch = append(*batch, q)
		default:
			return true
		}
	}
	return true
}

// apply writes a batch in runs: records of one segment go in one ApplyJournal,
// records without a journal in one WriteCalls; seal markers retire segments.
func (w *Writer) apply(batch []*pending) {
	for len(batch) > 0 {
		first := batch[0]
		n := 1
		if !first.seal {
			for n < len(batch) && !batch[n].seal && batch[n].seg == first.seg {
				n++
			}
		}
		run := batch[:n]
		batch = batch[n:]
		switch {
		case first.seal:
			w.retire(first.seg, first.end)
		case first.seg == nil:
			w.writeSync(run)
		default:
			w.writeJournal(first.seg, run)
		}
		w.advance(run[len(run)-1].seq)
	}
}

func collect(run []*pending) ([]gtmgate.AuditEntry, []gtmgate.UsageEvent) {
	entries := make([]gtmgate.AuditEntry, len(run))
	var usage []gtmgate.UsageEvent
	for i, p := range run {
		entries[i] = p.audit
		if p.usage != nil {
			usage = append(usage, *p.usage)
		}
	}
	return entries, usage
}

// storeTimeout bounds one store write, so a hung connection cannot stall the loop.
const storeTimeout = 30 * time.Second

func (w *Writer) writeSync(run []*pending) {
	entries, usage := collect(run)
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	err := w.store.WriteCalls(ctx, entries, usage)
	cancel()
	w.noteStore(err)
	if err != nil {
		w.opts.Logger.Error("audit write failed", "entries", len(entries), "err", err)
	}
	for _, p := range run {
		p.done <- err
	}
}

// writeJournal writes one segment's run and moves its mark, retrying with
// backoff while the store fails: the records are safe in the segment.
func (w *Writer) writeJournal(seg *segment, run []*pending) {
	if seg.broken {
		return
	}
	entries, usage := collect(run)
	end := run[len(run)-1].end
	for attempt := 0; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		err := w.store.ApplyJournal(ctx, seg.id, seg.applied, end, entries, usage)
		cancel()
		w.noteStore(err)
		if err == nil {
			if attempt > 0 {
				w.opts.Logger.Info("audit store writes resumed", "journal", seg.id, "attempts", attempt+1)
			}
			seg.applied = end
			w.retireApplied(seg)
			return
		}
		if errors.Is(err, gtmgate.ErrConflict) {
			// Someone else moved this journal's mark: leave the file for the
			// next start, which continues from the store's mark.
			seg.broken = true
			w.opts.Logger.Error("audit journal out of step with the store; it is kept and replayed at the next start", "journal", seg.id, "err", err)
			return
		}
		if attempt%10 == 0 {
			w.opts.Logger.Error("audit store write failed; the calls are in the journal and are retried",
				"journal", seg.id, "entries", len(entries), "attempt", attempt+1, "err", err)
		}
		if !w.backoff(attempt) {
			w.opts.Logger.Error("audit writer closing with calls not yet in the store; they stay in the journal for the next start",
				"journal", seg.id, "path", seg.path)
			seg.broken = true
			return
		}
	}
}

// backoff sleeps before retry attempt+1; false once a closing writer's
// deadline has passed.
func (w *Writer) backoff(attempt int) bool {
	d := 50 * time.Millisecond << min(attempt, 7) // up to 6.4s
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return !w.isClosing() || time.Now().UnixNano() < w.deadline.Load()
	case <-w.closing:
	}
	remaining := time.Until(time.Unix(0, w.deadline.Load()))
	if remaining <= 0 {
		return false
	}
	time.Sleep(min(d, remaining))
	return true
}

func (w *Writer) isClosing() bool {
	select {
	case <-w.closing:
		return true
	default:
		return false
	}
}

// retireAppliedAfter is the size past which the active segment is removed as
// soon as everything in it is in the store, rather than at the 64 MiB
// rotation: the journal holds only what the store does not have yet.
const retireAppliedAfter = 1 << 20

// retireApplied removes the active segment when it is all in the store and
// big enough to be worth a new file; the next record starts a new one.
func (w *Writer) retireApplied(seg *segment) {
	w.mu.Lock()
	if w.active != seg || seg.size < retireAppliedAfter || seg.applied != seg.size {
		w.mu.Unlock()
		return
	}
	w.active = nil
	w.mu.Unlock()
	seg.file.Close()
	seg.retired = true
	w.remove(seg.id, seg.path)
}

// retire removes a sealed segment once all of it is in the store.
func (w *Writer) retire(seg *segment, end int64) {
	if seg == nil || seg.retired {
		return
	}
	seg.file.Close()
	if seg.broken || seg.applied < end {
		w.opts.Logger.Warn("audit journal segment kept for the next start", "path", seg.path, "applied", seg.applied, "size", end)
		return
	}
	w.remove(seg.id, seg.path)
}

// remove deletes a segment file, then its mark. In that order: a mark
// without a file is harmless, a file without its mark would be written twice.
func (w *Writer) remove(id, path string) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.opts.Logger.Error("remove audit journal segment", "path", path, "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := w.store.ForgetJournal(ctx, id); err != nil {
		w.opts.Logger.Warn("forget audit journal mark", "journal", id, "err", err)
	}
}

func (w *Writer) advance(seq uint64) {
	if seq <= w.committed.Load() {
		return
	}
	w.committed.Store(seq)
	w.notifyMu.Lock()
	close(w.notify)
	w.notify = make(chan struct{})
	w.notifyMu.Unlock()
}

// replayAll writes every segment left in dir into the store, oldest first.
func (w *Writer) replayAll(dir string) error {
	names, err := listSegments(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := w.replay(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// replay writes one segment from the store's mark to its last whole record,
// then removes it. A segment another live process holds is skipped; one with
// a damaged tail is kept, renamed, after its readable records are written.
func (w *Writer) replay(path string) error {
	id := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open audit journal %s: %w", path, err)
	}
	defer f.Close()
	if ok, err := flock.TryLock(f); err != nil {
		return fmt.Errorf("lock audit journal %s: %w", path, err)
	} else if !ok {
		return nil // another process's active segment
	}
	ctx := context.Background()
	mark, err := w.store.JournalMark(ctx, id)
	if err != nil {
		return fmt.Errorf("replay audit journal %s: %w", id, err)
	}
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat audit journal %s: %w", path, err)
	}
	if _, err := f.Seek(mark, io.SeekStart); err != nil {
		return fmt.Errorf("seek audit journal %s: %w", path, err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	from, offset, written := mark, mark, 0
	var entries []gtmgate.AuditEntry
	var usage []gtmgate.UsageEvent
	flush := func() error {
		if len(entries) == 0 {
			return nil
		}
		if err := w.store.ApplyJournal(ctx, id, from, offset, entries, usage); err != nil {
			return fmt.Errorf("replay audit journal %s: %w", id, err)
		}
		written += len(entries)
		from, entries, usage = offset, entries[:0], usage[:0]
		return nil
	}
	var damaged bool
	for {
		rec, n, err := readRecord(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			damaged = true
			break
		}
		offset += n
		entries = append(entries, rec.Audit)
		if rec.Usage != nil {
			usage = append(usage, *rec.Usage)
		}
		if len(entries) == w.opts.MaxBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if written > 0 {
		w.opts.Logger.Info("audit journal replayed into the store", "journal", id, "calls", written)
	}
	if damaged {
		kept := path + ".damaged"
		w.opts.Logger.Error("audit journal has unreadable bytes after its last whole record; they are kept for inspection",
			"path", kept, "readable_to", offset, "size", info.Size())
		if err := os.Rename(path, kept); err != nil {
			return fmt.Errorf("keep damaged audit journal: %w", err)
		}
		return nil
	}
	w.remove(id, path)
	return nil
}

// freeBytes is the space left for an unprivileged writer on dir's file
// system (unmeasured platforms report no limit: the journal's own write
// errors tell).
func freeBytes(dir string) (uint64, error) {
	free, _, err := diskspace.Usage(dir)
	if errors.Is(err, diskspace.ErrUnmeasured) {
		return free, nil
	}
	return free, err
}
