package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlstore"
)

func adminKeyHash(cfg config.Config) (hash, generated string, err error) {
	hash, generated, err = secret.LoadOrCreateAdminKeyHash(cfg.DataDir, cfg.AdminKeyHash)
	if err != nil {
		return "", "", fmt.Errorf("ADMIN_API_KEY: %w", err)
	}
	return hash, generated, nil
}

// DemoTenant is the id of the tenant --demo seeds.
const DemoTenant = "demo"

// seedDemo provisions the demo tenant with every sandbox's accounts and
// tokens. Its bearer token is derived from the encryption key so it stays the
// same across restarts of one installation and differs between installations.
func (a *App) seedDemo(ctx context.Context, sandboxes []gtmgate.ProviderSandbox) error {
	t := &gtmgate.Tenant{ID: DemoTenant, Name: "Demo tenant (sandbox upstreams)", Status: gtmgate.TenantActive,
		Providers: map[string]gtmgate.ProviderAccounts{}}
	for _, sb := range sandboxes {
		if len(sb.Accounts) == 0 {
			continue
		}
		t.Providers[sb.Provider] = gtmgate.ProviderAccounts{Accounts: sb.Accounts, Default: sb.Accounts[0].ID}
	}
	if existing, err := a.store.GetTenant(ctx, DemoTenant); err == nil {
		t.CreatedAt, t.Approval, t.AllowedModels = existing.CreatedAt, existing.Approval, existing.AllowedModels
	}
	if _, err := a.store.PutTenant(ctx, t); err != nil {
		return fmt.Errorf("seed demo tenant: %w", err)
	}
	for _, sb := range sandboxes {
		for _, acct := range sb.Accounts {
			if err := a.store.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: DemoTenant, Provider: sb.Provider,
				AccountID: acct.ID, AccessToken: sb.Token, TokenType: "Bearer"}); err != nil {
				return fmt.Errorf("seed demo token %s: %w", sb.Provider, err)
			}
		}
	}
	token := a.demoToken()
	err := a.store.CreateTenantToken(ctx, &gtmgate.TenantToken{ID: gtmgate.NewID("tok_"), TenantID: DemoTenant,
		Hash: secret.HashToken(token), Prefix: secret.TokenPrefix(token), Label: "demo"})
	if err != nil && !errors.Is(err, gtmgate.ErrConflict) {
		return fmt.Errorf("seed demo bearer token: %w", err)
	}
	a.DemoToken = token
	return nil
}

func (a *App) demoToken() string {
	return "demo_" + hex.EncodeToString(a.derivedKey("gtmgate demo tenant token"))[:40]
}

// derivedKey derives a purpose-specific key from the encryption key, so every
// replica sharing the key derives the same value.
func (a *App) derivedKey(purpose string) []byte {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// checkEncryptionKey refuses to start a replica whose encryption key is not
// the one that seals the store's secrets: it would otherwise answer every
// call that needs a provider token with an error. The refusal is one line
// naming GTMGATE_ENCRYPTION_KEY, where this key came from and what to do.
func (a *App) checkEncryptionKey(ctx context.Context, st *sqlstore.Store) error {
	outcome, err := st.CheckEncryptionKey(ctx)
	if errors.Is(err, secret.ErrWrongKey) {
		from := "it came from GTMGATE_ENCRYPTION_KEY"
		if a.cfg.EncryptionKey == "" {
			from = "GTMGATE_ENCRYPTION_KEY is unset, so this replica uses the key generated into " + a.keyFile()
		}
		return fmt.Errorf("GTMGATE_ENCRYPTION_KEY: this replica's encryption key is not the one the store's secrets are sealed with (%s; %w); "+
			"every replica must use the key of the first replica that started on this store: set GTMGATE_ENCRYPTION_KEY "+
			"(or GTMGATE_ENCRYPTION_KEY_FILE) to it on every replica — a key gtmgate generated is the file encryption.key in that replica's data directory", from, err)
	}
	if err != nil {
		return fmt.Errorf("check the encryption key against the store: %w", err)
	}
	if outcome != sqlstore.KeyMatched {
		a.logger.Info("encryption key check "+string(outcome), "key_id", a.sealer.KeyCheck().ID)
	}
	return nil
}

// keyFile is where a generated encryption key is kept.
func (a *App) keyFile() string { return filepath.Join(a.cfg.DataDir, "encryption.key") }
