package content

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Source holds the current Tree of one content tree and, when watching,
// replaces it atomically after the files change. Requests in flight keep the
// tree they started with.
type Source struct {
	fsys   fs.FS
	opts   Options
	watch  bool
	every  time.Duration
	logger *slog.Logger

	cur       atomic.Pointer[Tree]
	mu        sync.Mutex // serialises checks and reloads
	lastCheck atomic.Int64
	print     [32]byte
}

// SourceOptions configure NewSource.
type SourceOptions struct {
	// Watch reloads the tree when its files change: at most once per Interval,
	// the next request walks the tree's file names, sizes and mtimes and, when
	// they differ, reloads and swaps the tree before answering. No goroutine
	// runs in the background, so nothing needs stopping. A failed reload keeps
	// the previous tree and logs the error.
	Watch bool
	// Interval between checks; default one second.
	Interval time.Duration
	Logger   *slog.Logger
}

// NewSource loads fsys once.
func NewSource(fsys fs.FS, opts Options, sopts SourceOptions) (*Source, error) {
	s := &Source{fsys: fsys, opts: opts, watch: sopts.Watch, every: sopts.Interval, logger: sopts.Logger}
	if s.every <= 0 {
		s.every = time.Second
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	t, err := Load(fsys, opts)
	if err != nil {
		return nil, err
	}
	s.cur.Store(t)
	if s.watch {
		if s.print, err = fingerprint(fsys); err != nil {
			return nil, err
		}
		s.lastCheck.Store(time.Now().UnixNano())
	}
	return s, nil
}

// Tree returns the current tree, reloading first when watching and due.
func (s *Source) Tree() *Tree {
	if s.watch && time.Since(time.Unix(0, s.lastCheck.Load())) >= s.every {
		s.reloadIfChanged()
	}
	return s.cur.Load()
}

// ServeHTTP serves the current tree.
func (s *Source) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.Tree().ServeHTTP(w, r) }

// Guard returns next behind GuardPath with this source's 404 body.
func (s *Source) Guard(next http.Handler) http.Handler { return GuardPath(s, next) }

// Reload loads the tree again now and swaps it in when it loads.
func (s *Source) Reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloadLocked()
}

func (s *Source) reloadIfChanged() {
	if !s.mu.TryLock() {
		return // another request is checking; serve the current tree
	}
	defer s.mu.Unlock()
	s.lastCheck.Store(time.Now().UnixNano())
	fp, err := fingerprint(s.fsys)
	if err != nil {
		s.logger.Error("content: watch", "err", err)
		return
	}
	if fp == s.print {
		return
	}
	if err := s.reloadLocked(); err != nil {
		s.logger.Error("content: reload failed; serving the previous tree", "err", err)
		return
	}
	s.print = fp
	s.logger.Info("content: reloaded", "pages", len(s.cur.Load().Pages()))
}

func (s *Source) reloadLocked() error {
	t, err := Load(s.fsys, s.opts)
	if err != nil {
		return err
	}
	s.cur.Store(t)
	return nil
}

// fingerprint hashes every entry's name, size and mtime.
func fingerprint(fsys fs.FS) ([32]byte, error) {
	h := sha256.New()
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", name, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	var sum [32]byte
	if err != nil {
		return sum, fmt.Errorf("content: watch %w", err)
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}
