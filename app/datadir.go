package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gtmgate/gtmgate/secret"
)

// dataDirFile is a file this process opens in the data directory when it
// is there: read, or read and written.
type dataDirFile struct {
	path     string
	readOnly bool
}

// dataDirFiles lists the files the configuration has this process keep in
// the data directory.
func (a *App) dataDirFiles() []dataDirFile {
	var files []dataDirFile
	if a.cfg.EncryptionKey == "" {
		files = append(files, dataDirFile{a.keyFile(), true})
	}
	if a.cfg.AdminKeyHash == "" {
		files = append(files, dataDirFile{filepath.Join(a.cfg.DataDir, secret.AdminKeyFile), true})
	}
	if a.cfg.DatabaseURL == "" {
		db := filepath.Join(a.cfg.DataDir, "gtmgate.db")
		files = append(files, dataDirFile{db, false}, dataDirFile{db + "-wal", false}, dataDirFile{db + "-shm", false})
	}
	return files
}

// usesDataDir reports whether this process keeps files in the data
// directory.
func (a *App) usesDataDir() bool { return len(a.dataDirFiles()) > 0 || a.cfg.AuditJournal }

// makeDataDir creates the data directory when this process keeps files in
// it (the SQLite store, a generated encryption key or admin key hash, the
// audit journal), and checks that it can write there and open what is
// already there. A directory it cannot use (another user's, read-only) is
// then named as GTMGATE_DATA_DIR, not blamed on the setting whose file
// happens to be opened first (GTMGATE_ENCRYPTION_KEY, ADMIN_API_KEY).
func (a *App) makeDataDir() error {
	files := a.dataDirFiles()
	if !a.usesDataDir() {
		return nil
	}
	dir := a.cfg.DataDir
	fail := func(err error) error {
		return fmt.Errorf("GTMGATE_DATA_DIR (--data-dir): %s cannot be used as the data directory (%w); "+
			"point it at a directory this process can write, holding no files it cannot read and write", dir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	if err := probeWrite(dir); err != nil {
		return fail(err)
	}
	for _, f := range files {
		if err := f.check(); err != nil {
			return fail(err)
		}
	}
	if a.cfg.AuditJournal {
		if err := checkJournalDir(filepath.Join(dir, "journal")); err != nil {
			return fail(err)
		}
	}
	return nil
}

// probeWrite creates and removes a file in dir, as the key files' writes
// and SQLite's journal do.
func probeWrite(dir string) error {
	probe, err := os.CreateTemp(dir, ".write-check-*")
	if err != nil {
		return err
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// check opens the file as this process will, when it exists, and reads a
// byte of it (a directory opens, but does not read).
func (f dataDirFile) check() error {
	flag := os.O_RDWR
	if f.readOnly {
		flag = os.O_RDONLY
	}
	h, err := os.OpenFile(f.path, flag, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer h.Close()
	if _, err := h.Read(make([]byte, 1)); err != nil && err != io.EOF {
		return fmt.Errorf("read %s: %w", f.path, err)
	}
	return nil
}

// checkJournalDir checks the audit journal's directory, when it exists: the
// writer replays and removes its segments at start, then appends new ones.
func checkJournalDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := probeWrite(dir); err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := (dataDirFile{filepath.Join(dir, e.Name()), true}).check(); err != nil {
				return err
			}
		}
	}
	return nil
}
