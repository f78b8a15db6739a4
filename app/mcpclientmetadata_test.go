package app_test

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/mcpoauth"
)

var linkCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestDemoOAuthServerUsesClientMetadataDocument: under --demo, the sandbox
// OAuth MCP server accepts client ID metadata documents and gtmgate's
// gateway is on loopback http, so a connect link to crm-notes names
// gtmgate's document URL as its client_id (no registration), and the
// sandbox's consent page shows: it fetched the document from the gateway
// and found the connect callback in it.
func TestDemoOAuthServerUsesClientMetadataDocument(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	e := apptest.Start(t, func(c *config.Config) { c.GatewayAddr, c.GatewayURL = addr, "http://"+addr })

	doc := e.Do("GET", e.GatewayURL+mcpoauth.ClientMetadataPath, nil)
	if m := doc.JSON(t); doc.Status != 200 || m["client_id"] != e.GatewayURL+mcpoauth.ClientMetadataPath {
		t.Fatalf("the client ID metadata document: %d %s", doc.Status, doc.Body)
	}
	r := e.Do("POST", e.GatewayURL+"/admin/tenants/demo/connect-links", `{"provider":"mcp:crm-notes"}`, "x-admin-key", apptest.AdminKey)
	link, _ := r.JSON(t)["url"].(string)
	if r.Status != 201 || link == "" {
		t.Fatalf("create link: %d %s", r.Status, r.Body)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page := new(strings.Builder)
	_, _ = io.Copy(page, resp.Body)
	resp.Body.Close()
	m := linkCSRF.FindStringSubmatch(page.String())
	if resp.StatusCode != 200 || m == nil {
		t.Fatalf("link page: %d %s", resp.StatusCode, page)
	}
	req, _ := http.NewRequest("POST", link, strings.NewReader(url.Values{"csrf": {m[1]}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range resp.Cookies() {
		req.AddCookie(c)
	}
	resp, err = noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	authorize, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || authorize == nil || authorize.Query().Get("client_id") != e.GatewayURL+mcpoauth.ClientMetadataPath {
		t.Fatalf("continue: %d, to %s; want the sandbox's consent with the document's URL as client_id", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = noRedirect.Get(authorize.String())
	if err != nil {
		t.Fatal(err)
	}
	consent := new(strings.Builder)
	_, _ = io.Copy(consent, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(consent.String(), `id="allow"`) {
		t.Fatalf("the sandbox's consent page: %d %s", resp.StatusCode, consent)
	}
}
