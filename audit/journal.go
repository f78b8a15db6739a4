package audit

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/flock"
)

// A journal segment is an append-only file of records, each
//
//	uint32 payload length | uint32 CRC-32C of the payload | payload (JSON)
//
// little-endian. A record is appended with one write(2): once it returns the
// bytes are in the kernel's page cache and survive the process being killed.
// They are not fsynced, the same guarantee SQLite gives in WAL mode with
// synchronous=NORMAL. A torn tail (a crash of the machine mid-write) fails
// its length or checksum and ends the readable part of the segment.

const (
	segmentPrefix = "audit-"
	segmentSuffix = ".journal"
	headerSize    = 8
	// maxRecord bounds one record; an audit entry and usage event are far smaller.
	maxRecord = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// record is what one journal record holds: one call.
type record struct {
	Audit gtmgate.AuditEntry  `json:"a"`
	Usage *gtmgate.UsageEvent `json:"u,omitempty"`
	// Failure is Audit.Failure, which the audit entry's own encoding leaves out.
	Failure *gtmgate.LedgerEntry `json:"f,omitempty"`
}

// encodeRecord frames one call for appending.
func encodeRecord(a gtmgate.AuditEntry, u *gtmgate.UsageEvent) ([]byte, error) {
	payload, err := json.Marshal(record{Audit: a, Usage: u, Failure: a.Failure})
	if err != nil {
		return nil, fmt.Errorf("encode journal record: %w", err)
	}
	if len(payload) > maxRecord {
		return nil, fmt.Errorf("journal record of %d bytes exceeds %d", len(payload), maxRecord)
	}
	buf := make([]byte, headerSize+len(payload))
	binary.LittleEndian.PutUint32(buf[0:4], uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[4:8], crc32.Checksum(payload, castagnoli))
	copy(buf[headerSize:], payload)
	return buf, nil
}

// errTorn marks the end of a segment's readable records.
var errTorn = errors.New("torn or damaged record")

// readRecord reads the record at the reader's position; io.EOF at a clean end.
func readRecord(r *bufio.Reader) (record, int64, error) {
	var hdr [headerSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.EOF {
			return record{}, 0, io.EOF
		}
		return record{}, 0, errTorn
	}
	n := binary.LittleEndian.Uint32(hdr[0:4])
	if n == 0 || n > maxRecord {
		return record{}, 0, errTorn
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return record{}, 0, errTorn
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(hdr[4:8]) {
		return record{}, 0, errTorn
	}
	var rec record
	if err := json.Unmarshal(payload, &rec); err != nil {
		return record{}, 0, errTorn
	}
	rec.Audit.Failure = rec.Failure
	return rec, int64(headerSize) + int64(n), nil
}

// segment is one journal file.
type segment struct {
	id   string // the file's base name; the store's mark is keyed by it
	path string
	file *os.File
	size int64 // bytes appended (the writer's view)

	// Owned by the writer's loop.
	applied int64 // bytes in the store
	broken  bool  // out of step with the store: keep the file for the next start
	retired bool  // removed once all of it was in the store
}

// createSegment makes a new, empty, locked segment in dir.
func createSegment(dir string) (*segment, error) {
	var r [4]byte
	rand.Read(r[:])
	id := fmt.Sprintf("%s%020d-%s%s", segmentPrefix, time.Now().UnixNano(), hex.EncodeToString(r[:]), segmentSuffix)
	path := filepath.Join(dir, id)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create audit journal: %w", err)
	}
	if ok, err := flock.TryLock(f); err != nil || !ok {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("lock audit journal %s: %v", path, err)
	}
	return &segment{id: id, path: path, file: f}, nil
}

// append writes one framed record with a single write and returns the offset
// just past it.
func (s *segment) append(buf []byte) (int64, error) {
	n, err := s.file.Write(buf)
	s.size += int64(n)
	if err != nil {
		return s.size, fmt.Errorf("append to audit journal %s: %w", s.id, err)
	}
	return s.size, nil
}

// listSegments returns the segment files in dir, oldest first.
func listSegments(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read audit journal dir: %w", err)
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasPrefix(n, segmentPrefix) && strings.HasSuffix(n, segmentSuffix) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}
