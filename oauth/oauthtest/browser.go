// Package oauthtest drives gtmgate's OAuth consent page the way a browser
// does (cookies, hidden CSRF fields, a form POST, a redirect not followed),
// for tests of the authorization flow.
package oauthtest

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"

	"golang.org/x/net/html"
)

// Browser returns a client with a cookie jar that does not follow redirects.
func Browser(t testing.TB) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// ConsentForm GETs the consent page and returns the response and its hidden form fields.
func ConsentForm(t testing.TB, b *http.Client, authURL string) (*http.Response, url.Values) {
	t.Helper()
	resp, err := b.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := html.Parse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "input" {
			attrs := map[string]string{}
			for _, a := range n.Attr {
				attrs[a.Key] = a.Val
			}
			if attrs["type"] == "hidden" {
				form.Set(attrs["name"], attrs["value"])
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return resp, form
}

// Approve opens the consent page at authURL, enters credential (a tenant
// token or a connect code), approves, and returns the redirect location.
func Approve(t testing.TB, authURL, authorizeEndpoint, credential string) *url.URL {
	t.Helper()
	b := Browser(t)
	resp, form := ConsentForm(t, b, authURL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("consent page: status %d", resp.StatusCode)
	}
	form.Set("credential", credential)
	form.Set("decision", "approve")
	post, err := b.PostForm(authorizeEndpoint, form)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusSeeOther {
		t.Fatalf("consent submit: status %d, want 303", post.StatusCode)
	}
	loc, err := url.Parse(post.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
