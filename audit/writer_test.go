package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// flakyStore is a real SQLite store whose journal writes fail while down is set.
type flakyStore struct {
	*sqlstore.Store
	down     atomic.Bool
	failures atomic.Int64
}

func (f *flakyStore) ApplyJournal(ctx context.Context, j string, from, to int64, a []gtmgate.AuditEntry, u []gtmgate.UsageEvent) error {
	if f.down.Load() {
		f.failures.Add(1)
		return errors.New("database is locked")
	}
	return f.Store.ApplyJournal(ctx, j, from, to, a, u)
}

func (f *flakyStore) WriteCalls(ctx context.Context, a []gtmgate.AuditEntry, u []gtmgate.UsageEvent) error {
	if f.down.Load() {
		return errors.New("database is locked")
	}
	return f.Store.WriteCalls(ctx, a, u)
}

func openStore(t *testing.T) *flakyStore {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gtmgate.db"),
		&sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &flakyStore{Store: s}
}

func call(i int) (gtmgate.AuditEntry, *gtmgate.UsageEvent) {
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a := gtmgate.AuditEntry{Time: at, TenantID: "acme", Action: "crm_contacts.list", Source: gtmgate.SourceREST,
		Outcome: gtmgate.OutcomeOK, Status: 200, RequestID: fmt.Sprintf("req-%04d", i)}
	var u *gtmgate.UsageEvent
	if i%2 == 0 {
		u = &gtmgate.UsageEvent{Time: at, TenantID: "acme", Source: gtmgate.SourceREST, Tool: "crm_contacts", Action: "list", OK: true}
	}
	if i%3 == 0 {
		// A failed call: its ledger entry travels with the audit entry.
		a.Outcome, a.Status, a.ErrorCode = gtmgate.OutcomeError, 502, gtmgate.EUpstream
		a.Failure = &gtmgate.LedgerEntry{ID: "led_" + a.RequestID, Kind: gtmgate.LedgerFailure, Time: at, TenantID: "acme",
			Source: gtmgate.SourceREST, Tool: "crm_contacts", Action: "list", Input: []byte(`{"action":"list"}`),
			ErrorCode: gtmgate.EUpstream, Message: "HubSpot answered 502", RequestID: a.RequestID}
	}
	return a, u
}

// stored returns how many times each request id is in the audit log, and the
// number of usage events.
func stored(t *testing.T, s gtmgate.Store) (map[string]int, int) {
	t.Helper()
	seen := storetest.RequestIDs(t, s, gtmgate.AuditFilter{TenantID: "acme"})
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	usage, err := s.ListUsage(context.Background(), gtmgate.UsageQuery{TenantID: "acme", From: at, To: at.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return seen, len(usage)
}

// wantStored fails unless request ids 0..n-1 are each stored exactly once.
func wantStored(t *testing.T, s gtmgate.Store, n int) {
	t.Helper()
	seen, usage := stored(t, s)
	if len(seen) != n {
		t.Fatalf("%d distinct calls stored, want %d", len(seen), n)
	}
	for i := range n {
		if c := seen[fmt.Sprintf("req-%04d", i)]; c != 1 {
			t.Fatalf("req-%04d stored %d times", i, c)
		}
	}
	if usage != (n+1)/2 {
		t.Fatalf("%d usage events, want %d", usage, (n+1)/2)
	}
	ledger, err := s.ListLedger(context.Background(), gtmgate.LedgerFilter{TenantID: "acme", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if want := (n + 2) / 3; len(ledger) != want {
		t.Fatalf("%d error ledger entries, want %d (one per failed call)", len(ledger), want)
	}
	for _, e := range ledger {
		if e.ID != "led_"+e.RequestID || string(e.Input) != `{"action":"list"}` {
			t.Fatalf("ledger entry %+v is not the failure its call carried", e)
		}
	}
}

func segmentsIn(t *testing.T, dir string) []string {
	t.Helper()
	names, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func recordAll(t *testing.T, w *Writer, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, u := call(i)
			if err := w.Record(context.Background(), a, u); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

func TestWriterModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"store commit", Options{MaxBatch: 8}},
		{"journal", Options{MaxBatch: 8}},
		{"journal, a segment every few records", Options{MaxBatch: 8, SegmentBytes: 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t)
			opts := tc.opts
			if tc.name != "store commit" {
				opts.JournalDir = t.TempDir()
			}
			w, err := NewWriter(s, &opts)
			if err != nil {
				t.Fatal(err)
			}
			recordAll(t, w, 200)
			if err := w.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			wantStored(t, s, 200)
			if w.Backlog() != 0 {
				t.Fatalf("backlog %d after flush", w.Backlog())
			}
			w.Close()
			if opts.JournalDir != "" {
				if left := segmentsIn(t, opts.JournalDir); len(left) != 0 {
					t.Fatalf("segments left after a clean close: %v", left)
				}
			}
			if a, u := call(0); !errors.Is(w.Record(context.Background(), a, u), ErrClosed) {
				t.Fatal("record after close did not fail")
			}
		})
	}
}

func TestWriterWithoutJournalReportsStoreFailure(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	s.down.Store(true)
	w, err := NewWriter(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if a, u := call(0); w.Record(context.Background(), a, u) == nil {
		t.Fatal("record succeeded while the store was down")
	}
}

// A store outage does not hold up Record; the calls reach the store once it
// is back, each once.
func TestJournalRidesOutStoreOutage(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	s.down.Store(true)
	w, err := NewWriter(s, &Options{JournalDir: t.TempDir(), MaxBatch: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	recordAll(t, w, 50)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	if err := w.Flush(ctx); err == nil {
		t.Fatal("flush succeeded while the store was down")
	}
	cancel()
	for s.failures.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	s.down.Store(false)
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantStored(t, s, 50)
}

// What a killed process leaves in its journal is written at the next start,
// exactly once, whatever part of it had already reached the store.
func TestReplayAfterCrash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		applied int // records already in the store, with the mark after them
	}{
		{"nothing applied", 0},
		{"part applied", 7},
		{"all applied, file not yet removed", 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t)
			dir := t.TempDir()
			seg := crashedSegment(t, s, dir, 20, tc.applied)
			w, err := NewWriter(s, &Options{JournalDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			wantStored(t, s, 20)
			if left := segmentsIn(t, dir); len(left) != 0 {
				t.Fatalf("segments left after replay: %v", left)
			}
			if mark, _ := s.JournalMark(context.Background(), seg); mark != 0 {
				t.Fatalf("mark of a removed segment still %d", mark)
			}
		})
	}
}

// crashedSegment writes n records to a segment in dir the way a writer does
// and applies the first applied of them to the store; it returns the
// segment's id.
func crashedSegment(t *testing.T, s Store, dir string, n, applied int) string {
	t.Helper()
	seg, err := createSegment(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.file.Close()
	var mark int64
	var entries []gtmgate.AuditEntry
	var usage []gtmgate.UsageEvent
	for i := range n {
		a, u := call(i)
		buf, err := encodeRecord(a, u)
		if err != nil {
			t.Fatal(err)
		}
		end, err := seg.append(buf)
		if err != nil {
			t.Fatal(err)
		}
		if i < applied {
			mark = end
			entries = append(entries, a)
			if u != nil {
				usage = append(usage, *u)
			}
		}
	}
	if applied > 0 {
		if err := s.ApplyJournal(context.Background(), seg.id, 0, mark, entries, usage); err != nil {
			t.Fatal(err)
		}
	}
	return seg.id
}

func TestReplayKeepsDamagedTail(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	dir := t.TempDir()
	seg := crashedSegment(t, s, dir, 10, 0)
	f, err := os.OpenFile(filepath.Join(dir, seg), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, u := call(10)
	buf, _ := encodeRecord(a, u)
	f.Write(buf[:len(buf)-3]) // torn: the machine died mid-write
	f.Close()

	w, err := NewWriter(s, &Options{JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wantStored(t, s, 10)
	if _, err := os.Stat(filepath.Join(dir, seg+".damaged")); err != nil {
		t.Fatalf("damaged segment not kept: %v", err)
	}
	if left := segmentsIn(t, dir); len(left) != 0 {
		t.Fatalf("damaged segment still replayable: %v", left)
	}
}

// A writer that closes while the store is down leaves its calls in the
// journal; the next start writes them.
func TestCloseWithStoreDownKeepsJournal(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	dir := t.TempDir()
	s.down.Store(true)
	w, err := NewWriter(s, &Options{JournalDir: dir, CloseTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, w, 30)
	w.Close()
	if left := segmentsIn(t, dir); len(left) != 1 {
		t.Fatalf("segments after closing with the store down: %v", left)
	}
	s.down.Store(false)
	w2, err := NewWriter(s, &Options{JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	wantStored(t, s, 30)
}

// A live process's active segment is locked: another writer on the same
// directory leaves it alone.
func TestReplaySkipsLockedSegment(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	dir := t.TempDir()
	w1, err := NewWriter(s, &Options{JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Close()
	s.down.Store(true)
	recordAll(t, w1, 5)
	w2, err := NewWriter(s, &Options{JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	s.down.Store(false)
	if err := w1.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantStored(t, s, 5)
}

func TestRecordFraming(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	for i := range 3 {
		a, u := call(i)
		b, err := encodeRecord(a, u)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
	}
	whole := buf.Bytes()
	for _, tc := range []struct {
		name  string
		data  []byte
		whole int
	}{
		{"clean", whole, 3},
		{"torn tail", whole[:len(whole)-1], 2},
		{"flipped payload byte", flip(whole, len(whole)-5), 2},
		{"zero length", append(bytes.Clone(whole), make([]byte, 8)...), 3},
		{"empty", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, _ := readAll(tc.data)
			if n != tc.whole {
				t.Fatalf("read %d whole records, want %d", n, tc.whole)
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// readAll counts the whole records at the start of data.
func readAll(data []byte) (int, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	for n := 0; ; n++ {
		if _, _, err := readRecord(r); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
	}
}

// FuzzReadRecord: a damaged segment never panics the reader, and what
// encodeRecord frames reads back.
func FuzzReadRecord(f *testing.F) {
	a, u := call(0)
	b, _ := encodeRecord(a, u)
	f.Add(b)
	f.Add(b[:5])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		readAll(data)
		rec := gtmgate.AuditEntry{Action: string(data)}
		framed, err := encodeRecord(rec, nil)
		if err != nil {
			return
		}
		got, n, err := readRecord(bufio.NewReader(bytes.NewReader(framed)))
		if err != nil || n != int64(len(framed)) || got.Audit.Action != rec.Action {
			if !utf8.Valid(data) {
				return // JSON replaces invalid UTF-8
			}
			t.Fatalf("round trip of %q: %v, %d of %d bytes, %q", data, err, n, len(framed), got.Audit.Action)
		}
	})
}

// TestFullDiskNeverAcknowledgesUnrecorded emulates the journal's disk
// filling up (free space under the reserve) on a store that fails too, as
// SQLite on that same disk does: records must be refused with UNAVAILABLE,
// Check must say so before a call runs, and every accepted record must reach
// the store once the disk has room again.
func TestFullDiskNeverAcknowledgesUnrecorded(t *testing.T) {
	s := openStore(t)
	var free atomic.Uint64
	free.Store(1 << 30)
	w, err := NewWriter(s, &Options{JournalDir: t.TempDir(), Linger: time.Millisecond, MinFreeBytes: 8 << 20,
		FreeBytes: func(string) (uint64, error) { return free.Load(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	accepted, refused := map[string]bool{}, 0
	record := func(i int) {
		a, u := call(i)
		switch err := w.Record(context.Background(), a, u); {
		case err == nil:
			accepted[a.RequestID] = true
		case gtmgate.ErrorCode(err) == gtmgate.EUnavailable && errors.Is(err, ErrNotDurable):
			refused++
		default:
			t.Fatalf("record %d: %v", i, err)
		}
	}
	for i := range 10 {
		record(i)
	}
	// The disk fills: the journal stops taking records and the store fails.
	free.Store(1 << 20)
	s.down.Store(true)
	time.Sleep(2 * spaceCheckEvery)
	for i := 10; i < 20; i++ {
		record(i)
	}
	if err := w.Check(); gtmgate.ErrorCode(err) != gtmgate.EUnavailable || !strings.Contains(err.(*gtmgate.Error).Hint, "MiB free") {
		t.Errorf("Check on a full disk = %v, want UNAVAILABLE naming the free space", err)
	}
	if refused == 0 {
		t.Fatal("no record was refused while nothing could take it")
	}
	// Room again: records flow, and every accepted one is stored exactly once.
	free.Store(1 << 30)
	s.down.Store(false)
	time.Sleep(2 * spaceCheckEvery)
	if err := w.Check(); err != nil {
		t.Fatalf("Check after recovery: %v", err)
	}
	for i := 20; i < 30; i++ {
		record(i)
	}
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen, _ := stored(t, s)
	for id := range accepted {
		if seen[id] != 1 {
			t.Errorf("%s acknowledged but stored %d times", id, seen[id])
		}
	}
	if len(seen) != len(accepted) {
		t.Errorf("stored %d records, accepted %d", len(seen), len(accepted))
	}
	t.Logf("accepted %d, refused %d, stored %d", len(accepted), refused, len(seen))
}

// Once everything in the active segment is in the store, a segment past
// retireAppliedAfter is removed: the journal does not keep a second copy of
// what the store has until the 64 MiB rotation.
func TestAppliedSegmentsAreRemoved(t *testing.T) {
	s := openStore(t)
	dir := t.TempDir()
	w, err := NewWriter(s, &Options{JournalDir: dir, Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	written := 0
	for i := 0; written < 3*retireAppliedAfter; i++ {
		a, u := call(i)
		a.Detail = strings.Repeat("x", 2000)
		if err := w.Record(context.Background(), a, u); err != nil {
			t.Fatal(err)
		}
		written += 2000
	}
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	names, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, n := range names {
		info, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total >= 2*retireAppliedAfter {
		t.Errorf("journal holds %d bytes in %d segments after everything reached the store; want under %d", total, len(names), 2*retireAppliedAfter)
	}
}
