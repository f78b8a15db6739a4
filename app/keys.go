package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/secret"
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
