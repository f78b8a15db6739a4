//go:build tools

// Package deps pins modules the packages under construction will import, so
// parallel work does not race on go.mod. Removed once every import is real.
package deps

import (
	_ "github.com/JohannesKaufmann/html-to-markdown/v2"
	_ "github.com/andybalholm/brotli"
	_ "github.com/blevesearch/bleve/v2"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/modelcontextprotocol/go-sdk/auth"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/robfig/cron/v3"
	_ "github.com/yuin/goldmark"
	_ "github.com/yuin/goldmark/extension"
	_ "golang.org/x/net/html"
	_ "modernc.org/sqlite"
)
