package secret

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AdminKeyFile is the name, inside the data directory, of the file holding
// the SHA-256 (hex) of a generated admin key.
const AdminKeyFile = "admin_key.sha256"

// AdminKeyPrefix starts every generated admin key, so a leaked one is
// recognisable.
const AdminKeyPrefix = "gtmadm_"

// LoadOrCreateAdminKeyHash returns the SHA-256 (lower-case hex) of the admin
// key. envHash, the value of ADMIN_API_KEY, wins when set and must be 64 hex
// characters. Else the hash stored in <dataDir>/admin_key.sha256 is used.
// Else a new key is generated, its hash written to that file (mode 0600) and
// the key itself returned as generatedKey, once, for the caller to print; it
// is stored nowhere.
func LoadOrCreateAdminKeyHash(dataDir, envHash string) (hash, generatedKey string, err error) {
	if envHash = strings.TrimSpace(envHash); envHash != "" {
		h, err := parseHash(envHash)
		if err != nil {
			return "", "", fmt.Errorf("secret: ADMIN_API_KEY: %w", err)
		}
		return h, "", nil
	}
	path := filepath.Join(dataDir, AdminKeyFile)
	h, err := readHashFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return h, "", err
	}
	key, err := NewToken(AdminKeyPrefix)
	if err != nil {
		return "", "", err
	}
	h = HashToken(key)
	won, err := writeFileOnce(path, []byte(h+"\n"))
	if err != nil {
		return "", "", fmt.Errorf("secret: write admin key hash: %w", err)
	}
	if !won { // another process generated a key first: theirs counts.
		h, err = readHashFile(path)
		return h, "", err
	}
	return h, key, nil
}

func readHashFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("secret: read admin key hash: %w", err)
	}
	h, err := parseHash(string(b))
	if err != nil {
		return "", fmt.Errorf("secret: admin key hash file %s: %w", path, err)
	}
	return h, nil
}

// parseHash validates a SHA-256 hex digest and lower-cases it.
func parseHash(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) != 64 {
		return "", fmt.Errorf("must be the SHA-256 of the key as 64 hex characters, got %d characters", len(s))
	}
	if _, err := hex.DecodeString(s); err != nil {
		return "", errors.New("must be the SHA-256 of the key as 64 hex characters, found a non-hex character")
	}
	return s, nil
}
