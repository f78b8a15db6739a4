package app

import (
	"fmt"

	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/webhook"
)

// CheckConfig makes the checks of a loaded configuration that New would
// otherwise make only once it has opened the data directory and the store:
// the formats of the encryption key and of the alert webhook's secret. With
// config.Load's validation it is the whole of `gtmgate serve --check`; what
// it leaves to start-up needs the machine itself (the data directory, the
// database, free ports). Its error names the setting, as New's does.
func CheckConfig(cfg config.Config) error {
	if cfg.EncryptionKey != "" {
		if _, err := secret.ParseKey(cfg.EncryptionKey); err != nil {
			return fmt.Errorf("GTMGATE_ENCRYPTION_KEY: %w", err)
		}
	}
	if cfg.AlertWebhookURL != "" {
		if _, err := webhook.ParseSecret(cfg.AlertWebhookSecret); err != nil {
			return fmt.Errorf("ALERT_WEBHOOK_SECRET: %w", err)
		}
	}
	return nil
}
