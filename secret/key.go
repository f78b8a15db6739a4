package secret

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// errKeyFormat never includes the key itself: the value may be a real key
// with a typo.
var errKeyFormat = errors.New("secret: encryption key must be 64 hex characters or the base64 of 32 bytes")

// ParseKey decodes an encryption key given as 64 hex characters or as the
// base64 (standard or URL alphabet, padded or not) of 32 bytes, as in
// GTMGATE_ENCRYPTION_KEY. Surrounding white space is ignored.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%w (it is empty)", errKeyFormat)
	}
	if len(s) == 2*KeySize {
		if k, err := hex.DecodeString(s); err == nil {
			return k, nil
		}
	}
	for _, enc := range []*base64.Encoding{
		base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding,
	} {
		if k, err := enc.DecodeString(s); err == nil {
			if len(k) != KeySize {
				return nil, fmt.Errorf("%w (it decodes to %d bytes)", errKeyFormat, len(k))
			}
			return k, nil
		}
	}
	return nil, errKeyFormat
}

// LoadOrCreateKey reads the encryption key stored at path (hex or base64, see
// ParseKey). When the file does not exist it generates a random key, writes it
// as hex with mode 0600 (creating the directory with mode 0700) and reports
// created, so the caller can warn that the key must be kept with the data.
// Two processes starting at once agree on one key.
func LoadOrCreateKey(path string) (key []byte, created bool, err error) {
	key, err = readKeyFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, false, err
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, false, fmt.Errorf("secret: generate key: %w", err)
	}
	won, err := writeFileOnce(path, []byte(hex.EncodeToString(key)+"\n"))
	if err != nil {
		return nil, false, fmt.Errorf("secret: write key file: %w", err)
	}
	if !won { // another process created it first: use theirs.
		key, err = readKeyFile(path)
		return key, false, err
	}
	return key, true, nil
}

func readKeyFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("secret: read key file: %w", err)
	}
	k, err := ParseKey(string(b))
	if err != nil {
		return nil, fmt.Errorf("secret: key file %s: %w", path, err)
	}
	return k, nil
}

// writeFileOnce creates path with data and mode 0600 unless it exists. The
// data is written to a temporary file, synced, then hard-linked into place, so
// a reader never sees a partial file and only one of several racing writers
// wins. It reports whether this call created the file.
func writeFileOnce(path string, data []byte) (bool, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return false, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
