package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gtmgate/gtmgate/flock"
)

// dataDirLockFile is the file a process locks for as long as it serves
// from a data directory.
const dataDirLockFile = "gtmgate.lock"

// lockDataDir makes this process the only one serving from the data
// directory. A second one would share the SQLite store and the journal,
// and under --demo point the demo tenant's upstreams at its own sandboxes,
// breaking the first (#43 item 9). The lock is released when the process
// ends, however it ends.
func (a *App) lockDataDir() error {
	path := filepath.Join(a.cfg.DataDir, dataDirLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("GTMGATE_DATA_DIR (--data-dir): lock %s: %w", path, err)
	}
	ok, err := flock.TryLock(f)
	if err != nil || !ok {
		holder := []byte("another process")
		if b, rerr := os.ReadFile(path); rerr == nil && len(bytes.TrimSpace(b)) > 0 {
			holder = append([]byte("process "), bytes.TrimSpace(b)...)
		}
		f.Close()
		if err != nil {
			return fmt.Errorf("GTMGATE_DATA_DIR (--data-dir): lock %s: %w", path, err)
		}
		return fmt.Errorf("GTMGATE_DATA_DIR (--data-dir): %s is in use by another gtmgate (%s holds %s); "+
			"stop it, or start this one with its own --data-dir", a.cfg.DataDir, holder, dataDirLockFile)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	a.dataDirLock = f
	return nil
}

// unlockDataDir lets another process serve from the data directory.
func (a *App) unlockDataDir() {
	if a.dataDirLock != nil {
		a.dataDirLock.Close()
		a.dataDirLock = nil
	}
}
