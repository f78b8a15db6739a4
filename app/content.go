package app

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"

	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/docs"
	"github.com/gtmgate/gtmgate/middleware"
	"github.com/gtmgate/gtmgate/site"
	"github.com/gtmgate/gtmgate/telemetry"
)

// buildContentSurfaces builds the site and docs listeners' handlers from the
// embedded trees or the directories given by --site-content/--docs-content.
func (a *App) buildContentSurfaces(context.Context) error {
	if config.Enabled(a.cfg.SiteAddr) {
		h, err := site.New(site.Options{
			Tree: dirOrNil(a.cfg.SiteContent), SiteURL: a.cfg.SiteURL, GatewayURL: a.cfg.GatewayURL, DocsURL: a.cfg.DocsURL,
			Registry: a.registry, Version: a.version, ContentSignal: a.cfg.ContentSignal, Watch: a.cfg.Watch, Logger: a.logger,
		})
		if err != nil {
			return fmt.Errorf("site content: %w", err)
		}
		a.handlers[SurfaceSite] = a.observe(SurfaceSite, h)
	}
	if config.Enabled(a.cfg.DocsAddr) {
		// The docs host publishes gtmgate's own documentation, not the
		// operator's content: it keeps the default content signal.
		var gatewayAPI func() ([]byte, error)
		if a.gatewayAPI != nil {
			gatewayAPI = a.gatewayAPI.Bytes
		}
		h, err := docs.New(docs.Options{
			Tree: dirOrNil(a.cfg.DocsContent), DocsURL: a.cfg.DocsURL, GatewayURL: a.cfg.GatewayURL,
			Registry: a.registry, Version: a.version, GatewayAPI: gatewayAPI, Watch: a.cfg.Watch, Logger: a.logger,
		})
		if err != nil {
			return fmt.Errorf("docs content: %w", err)
		}
		a.handlers[SurfaceDocs] = a.observe(SurfaceDocs, h)
	}
	return nil
}

// observe gives a content surface request ids, access logs, metrics, panic
// recovery and its security headers.
func (a *App) observe(surface string, h http.Handler) http.Handler {
	return middleware.Chain(h, middleware.RequestID(a.logger), telemetry.ServerMiddleware(surface),
		middleware.Observe(surface, a.metrics), middleware.Recover,
		middleware.Headers(middleware.ContentSecurityHeaders))
}

// dirOrNil returns the directory as a file system, or nil for the embedded tree.
func dirOrNil(dir string) fs.FS {
	if dir == "" {
		return nil
	}
	return os.DirFS(dir)
}
