package webfetch

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

const article = `<!doctype html><html><head><title>  Pricing   | Acme </title>
<style>body{color:red}</style><script>var secret = "tracking";</script></head>
<body><nav><a href="/">Home</a> NAVLINK</nav>
<main><h1>Plans</h1><p>Starter costs <strong>$20</strong> per seat.</p>
<p>See <a href="/docs/limits">limits</a>.</p><ul><li>SSO</li><li>Audit log</li></ul></main>
<footer>FOOTERTEXT © Acme</footer></body></html>`

// site serves the test pages.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, article)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-1")
		w.Write([]byte("caf\xe9 cr\xe8me"))
	})
	mux.HandleFunc("/meta-charset", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><meta charset="windows-1252"><title>Caf` + "\xe9" + `</title></head><body><p>na` + "\xef" + `ve</p></body></html>`))
	})
	mux.HandleFunc("/notes.md", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		fmt.Fprint(w, "Intro\n\n# Launch notes\n\n- one\n")
	})
	mux.HandleFunc("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		fmt.Fprint(w, "<html><head><title>Sniffed</title></head><body><p>hi</p></body></html>")
	})
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.7")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("é", 3000))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page; token=abc123secret", http.StatusNotFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.PathValue("n"), &n)
		if n == 0 {
			http.Redirect(w, r, "/article", http.StatusFound)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusMovedPermanently)
	})
	mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func fetchTool(t *testing.T, opts Options) gtmgate.Tool {
	t.Helper()
	tools := Tools(opts)
	if len(tools) != 1 || tools[0].Provider != "" {
		t.Fatalf("Tools() = %d tools, provider %q; want one tool without provider", len(tools), tools[0].Provider)
	}
	return tools[0]
}

func call(t *testing.T, tool gtmgate.Tool, u string) (map[string]any, error) {
	t.Helper()
	out, err := providertest.Run(t, tool, gtmgate.Account{}, "", `{"rationale":"read the page","url":"`+u+`"}`)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

func TestFetch(t *testing.T) {
	t.Parallel()
	srv := site(t)
	tool := fetchTool(t, Options{AllowLoopback: true, MaxBytes: 4000})
	tests := []struct {
		name, path    string
		wantType      string
		wantTitle     string
		wantFinal     string
		contains      []string
		excludes      []string
		wantTruncated bool
	}{
		{name: "html", path: "/article", wantType: "text/html", wantTitle: "Pricing | Acme",
			contains: []string{"# Plans", "**$20**", "[limits](" + srv.URL + "/docs/limits)", "- SSO"},
			excludes: []string{"tracking", "color:red", "NAVLINK", "FOOTERTEXT"}},
		{name: "five redirects followed", path: "/hop/4", wantType: "text/html", wantTitle: "Pricing | Acme", wantFinal: "/article",
			contains: []string{"# Plans"}},
		{name: "latin1 header charset", path: "/latin1", wantType: "text/plain", contains: []string{"café crème"}},
		{name: "meta charset", path: "/meta-charset", wantType: "text/html", wantTitle: "Café", contains: []string{"naïve"}},
		{name: "markdown", path: "/notes.md", wantType: "text/markdown", wantTitle: "Launch notes", contains: []string{"- one"}},
		{name: "sniffed html", path: "/untyped", wantType: "text/html", wantTitle: "Sniffed", contains: []string{"hi"}},
		{name: "truncated", path: "/big", wantType: "text/plain", wantTruncated: true, contains: []string{"éé"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := call(t, tool, srv.URL+tc.path)
			if err != nil {
				t.Fatalf("fetch: %v", err)
			}
			md := out["markdown"].(string)
			if out["content_type"] != tc.wantType || out["status"] != 200.0 {
				t.Errorf("content_type, status = %v, %v; want %s, 200", out["content_type"], out["status"], tc.wantType)
			}
			if got, _ := out["title"].(string); got != tc.wantTitle {
				t.Errorf("title = %q, want %q", got, tc.wantTitle)
			}
			final := tc.path
			if tc.wantFinal != "" {
				final = tc.wantFinal
			}
			if out["final_url"] != srv.URL+final || out["url"] != srv.URL+tc.path {
				t.Errorf("url, final_url = %v, %v", out["url"], out["final_url"])
			}
			for _, s := range tc.contains {
				if !strings.Contains(md, s) {
					t.Errorf("markdown lacks %q:\n%s", s, md)
				}
			}
			for _, s := range tc.excludes {
				if strings.Contains(md, s) {
					t.Errorf("markdown keeps noise %q:\n%s", s, md)
				}
			}
			if out["truncated"] != tc.wantTruncated {
				t.Errorf("truncated = %v, want %v", out["truncated"], tc.wantTruncated)
			}
			if tc.wantTruncated && out["bytes"] != 4000.0 {
				t.Errorf("bytes = %v, want the 4000-byte cap", out["bytes"])
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	t.Parallel()
	srv := site(t)
	tool := fetchTool(t, Options{AllowLoopback: true, Timeout: 300 * time.Millisecond})
	tests := []struct {
		name, url   string
		wantCode    string
		wantMessage string
		wantStatus  int
	}{
		{"not found", srv.URL + "/missing", gtmgate.EUpstream, "HTTP 404", 404},
		{"pdf", srv.URL + "/report.pdf", gtmgate.EValidation, "application/pdf", 0},
		{"slow", srv.URL + "/slow", gtmgate.EUpstreamTimeout, "did not answer", 0},
		{"six redirects refused", srv.URL + "/hop/5", gtmgate.EUpstream, "stopped after 5 redirects", 0},
		{"file scheme", "file:///etc/passwd", gtmgate.EValidation, "http or https", 0},
		{"gopher scheme", "gopher://example.com/", gtmgate.EValidation, "http or https", 0},
		{"relative", "/just/a/path", gtmgate.EValidation, "http or https", 0},
		{"credentials", "http://user:pw@example.com/", gtmgate.EValidation, "credentials", 0},
		{"metadata literal", "http://169.254.169.254/latest/meta-data/", gtmgate.EValidation, "refusing to fetch 169.254.169.254: the address is not allowed", 0},
		{"private literal v6", "http://[fd00::1]/", gtmgate.EValidation, "refusing to fetch fd00::1: the address is not allowed", 0},
		{"redirect to metadata", srv.URL + "/to?u=" + url.QueryEscape("http://169.254.169.254/"), gtmgate.EValidation, "refusing to fetch 169.254.169.254", 0},
		{"redirect to file", srv.URL + "/to?u=" + url.QueryEscape("file:///etc/passwd"), gtmgate.EValidation, "http or https", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := call(t, tool, tc.url)
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode {
				t.Fatalf("err = %v, want code %s", err, tc.wantCode)
			}
			if !strings.Contains(e.Message, tc.wantMessage) {
				t.Errorf("message = %q, want it to contain %q", e.Message, tc.wantMessage)
			}
			if tc.wantStatus != 0 {
				d, _ := e.Detail.(gtmgate.UpstreamDetail)
				if d.Provider != "web" || d.Status != tc.wantStatus || !strings.Contains(d.Body, "no such page") || strings.Contains(d.Body, "abc123secret") {
					t.Errorf("detail = %#v, want web status %d with a redacted excerpt", d, tc.wantStatus)
				}
			}
		})
	}
}

// TestLoopbackRefused runs with AllowLoopback false. The "public" server is
// let through by a dial check that stands in for a public address; any
// other loopback connection, reached directly, by name or by redirect, must
// be refused at dial time.
func TestLoopbackRefused(t *testing.T) {
	t.Parallel()
	public := site(t)
	internal := site(t)
	publicAddr := netip.MustParseAddrPort(strings.TrimPrefix(public.URL, "http://"))
	f := newFetcher(Options{})
	f.check = func(host string, ap netip.AddrPort) error {
		if ap == publicAddr {
			return nil
		}
		return f.policy.Check(host, ap.Addr())
	}
	tool := tool(f)
	_, port, _ := strings.Cut(strings.TrimPrefix(internal.URL, "http://"), ":")
	tests := []struct {
		name, url   string
		wantCode    string
		wantMessage string
	}{
		{"ip literal", internal.URL + "/article", gtmgate.EValidation, "refusing to fetch 127.0.0.1: the address is not allowed"},
		{"name resolving to loopback", "http://localhost:" + port + "/article", gtmgate.EUpstream, "localhost could not be reached"},
		{"redirect to loopback", public.URL + "/to?u=" + url.QueryEscape(internal.URL+"/article"), gtmgate.EValidation, "refusing to fetch 127.0.0.1"},
		{"redirect to loopback name", public.URL + "/to?u=" + url.QueryEscape("http://localhost:"+port+"/article"), gtmgate.EUpstream, "localhost could not be reached"},
		{"redirect to mapped loopback", public.URL + "/to?u=" + url.QueryEscape("http://[::ffff:127.0.0.1]:"+port+"/"), gtmgate.EValidation, "refusing to fetch ::ffff:127.0.0.1: the address is not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := call(t, tool, tc.url)
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode || !strings.Contains(e.Message, tc.wantMessage) {
				t.Fatalf("err = %v, want %s containing %q", err, tc.wantCode, tc.wantMessage)
			}
			if strings.Contains(tc.url, "localhost") && strings.Contains(e.Message+e.Hint, "127.0.0.1") {
				t.Fatalf("message reveals what the name resolves to: %q", e.Message)
			}
		})
	}
	if _, err := call(t, tool, public.URL+"/article"); err != nil {
		t.Errorf("the stand-in public host was refused too: %v", err)
	}
}

// TestRefusedNameAnswersAsUnresolved checks that web_fetch is no oracle on
// the operator's internal DNS: a name that resolves to a refused address
// gets the same code, message, hint and detail as a name that does not
// resolve, directly and behind a redirect.
func TestRefusedNameAnswersAsUnresolved(t *testing.T) {
	t.Parallel()
	public := site(t)
	publicAddr := netip.MustParseAddrPort(strings.TrimPrefix(public.URL, "http://"))
	f := newFetcher(Options{})
	f.check = func(host string, ap netip.AddrPort) error {
		if ap == publicAddr {
			return nil
		}
		return f.policy.Check(host, ap.Addr())
	}
	tool := tool(f)
	internal := site(t)
	_, port, _ := strings.Cut(strings.TrimPrefix(internal.URL, "http://"), ":")
	const unresolved = "no-such-host.invalid"
	tests := []struct {
		name string
		url  func(host string) string
	}{
		{"direct", func(host string) string { return "http://" + host + ":" + port + "/article" }},
		{"behind a redirect", func(host string) string {
			return public.URL + "/to?u=" + url.QueryEscape("http://"+host+":"+port+"/article")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			answer := func(host string) string {
				t.Helper()
				_, err := call(t, tool, tc.url(host))
				var e *gtmgate.Error
				if !errors.As(err, &e) {
					t.Fatalf("fetch via %s: err = %v, want a gtmgate error", host, err)
				}
				return strings.ReplaceAll(fmt.Sprintf("%s|%s|%s|%#v", e.Code, e.Message, e.Hint, e.Detail), host, "HOST")
			}
			private, missing := answer("localhost"), answer(unresolved)
			if private != missing {
				t.Errorf("a name resolving to loopback and one that does not resolve answer differently:\n  private: %s\n  missing: %s", private, missing)
			}
		})
	}
}

// FuzzValidateURL checks that every URL the pre-flight check accepts is
// http(s) and, when its host is an IP literal, a public one.
func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{"https://example.com/", "http://127.0.0.1/", "http://[::ffff:10.0.0.1]:8080/x",
		"HTTP://169.254.169.254", "file:///etc/passwd", "http://user@h/", "//example.com", "http://[fe80::1%25eth0]/",
		"http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/"} {
		f.Add(s)
	}
	fe := newFetcher(Options{})
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := fe.validateURL(raw)
		if err != nil {
			if gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Fatalf("validateURL(%q) = %v, want VALIDATION_ERROR", raw, err)
			}
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("validateURL(%q) accepted scheme %q", raw, u.Scheme)
		}
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil && egress.Classify(ip) != "" {
			t.Fatalf("validateURL(%q) accepted non-public %s", raw, ip)
		}
	})
}
