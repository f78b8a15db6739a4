package webfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// detailProvider names the web in error details.
const detailProvider = "web"

// acceptedTypes are the media types web_fetch converts.
var acceptedTypes = map[string]bool{
	"text/html": true, "application/xhtml+xml": true, "text/plain": true, "text/markdown": true,
}

// Page is web_fetch's result.
type Page struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url"`
	Status      int    `json:"status"`
	Title       string `json:"title,omitempty"`
	ContentType string `json:"content_type"`
	Markdown    string `json:"markdown"`
	// Truncated is set when the body exceeded the size cap and was cut.
	Truncated bool `json:"truncated"`
	// Bytes is the number of body bytes read (before charset decoding).
	Bytes int64 `json:"bytes"`
}

// redirectError stops a redirect web_fetch will not follow.
type redirectError struct {
	msg        string
	validation bool
}

func (e *redirectError) Error() string { return e.msg }

// validateURL parses raw and checks what can be checked before any DNS
// lookup; the dialled address is checked again by the transport.
func (f *fetcher) validateURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "url is not a valid URL: %v", err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "url must be http or https, not %q", u.Scheme).
			WithHint("pass an absolute URL such as https://example.com/page")
	}
	if u.Hostname() == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "url %q has no host", raw)
	}
	if u.User != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "url must not carry credentials")
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
		if err := f.check(u.Hostname(), netip.AddrPortFrom(ip, port(u))); err != nil {
			return nil, refused(err)
		}
	}
	u.Fragment = ""
	return u, nil
}

// port returns u's port, defaulting by scheme.
func port(u *url.URL) uint16 {
	if p, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
		return uint16(p)
	}
	if u.Scheme == "https" {
		return 443
	}
	return 80
}

// checkRedirect re-validates every redirect target and bounds their number.
func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.opts.MaxRedirects {
		return &redirectError{msg: fmt.Sprintf("stopped after %d redirects", f.opts.MaxRedirects)}
	}
	if _, err := f.validateURL(req.URL.String()); err != nil {
		var e *gtmgate.Error
		errors.As(err, &e)
		return &redirectError{msg: "redirect to " + req.URL.Redacted() + " refused: " + e.Message, validation: true}
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	return nil
}

// fetch reads one page and converts it.
func (f *fetcher) fetch(ctx context.Context, raw string) (*Page, error) {
	u, err := f.validateURL(raw)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "url cannot be requested: %v", err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.transportError(err, u.Hostname())
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream,
			Message: fmt.Sprintf("%s answered HTTP %d", resp.Request.URL.Host, resp.StatusCode),
			Detail:  gtmgate.UpstreamDetail{Provider: detailProvider, Status: resp.StatusCode, Body: upstream.Excerpt(upstream.Redact(excerpt))}}
	}
	body, truncated, err := readCapped(resp.Body, f.opts.MaxBytes)
	if err != nil {
		return nil, f.transportError(err, u.Hostname())
	}
	mediaType, params := contentType(resp.Header.Get("Content-Type"), body)
	if !acceptedTypes[mediaType] {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "%s is %s, which web_fetch does not read", resp.Request.URL.Redacted(), mediaType).
			WithHint("web_fetch reads HTML, plain text and markdown pages")
	}
	text := decode(body, mediaType, params)
	title, md, err := render(mediaType, text, resp.Request.URL)
	if err != nil {
		return nil, fmt.Errorf("webfetch: convert %s: %w", resp.Request.URL.Redacted(), err)
	}
	return &Page{URL: raw, FinalURL: resp.Request.URL.String(), Status: resp.StatusCode, Title: title,
		ContentType: mediaType, Markdown: md, Truncated: truncated, Bytes: int64(len(body))}, nil
}

// readCapped reads at most limit bytes and says whether more were left.
func readCapped(r io.Reader, limit int64) ([]byte, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(b)) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// contentType returns the media type and its parameters, sniffing when the
// server sent none.
func contentType(header string, body []byte) (string, map[string]string) {
	if header == "" {
		header = http.DetectContentType(body)
	}
	mt, params, err := mime.ParseMediaType(header)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(header, ";")[0])), nil
	}
	return mt, params
}

// refused names the host but never what it resolves to: a caller must not
// learn the operator's internal addresses through web_fetch.
func refused(err error) *gtmgate.Error {
	host := "the URL"
	var re *egress.RefusedError
	if errors.As(err, &re) {
		host = re.Host
	}
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: "refusing to fetch " + host + ": the address is not allowed", Err: err,
		Hint: "web_fetch only reads pages on public internet addresses"}
}

// unreachableHint is the one hint for every host web_fetch could not reach.
const unreachableHint = "web_fetch reads only pages on public internet addresses; check that the URL is right and the site is up"

// transportError maps a failed request to a gtmgate error. host is the
// URL's host; when the failure names the request that failed (a redirect
// target), that request's host is named instead.
//
// A host name that resolves to a refused address answers exactly as one
// that does not resolve, or that refuses the connection: "could not be
// reached". Telling them apart would let a caller probe which names exist
// in the operator's internal DNS. Only an IP literal, which the caller
// already knows, is answered "not allowed".
func (f *fetcher) transportError(err error, host string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
	}
	var re *egress.RefusedError
	if errors.As(err, &re) {
		if _, perr := netip.ParseAddr(re.Host); perr == nil {
			return refused(err)
		}
		return f.unreachable(err, host)
	}
	var rd *redirectError
	if errors.As(err, &rd) {
		if rd.validation {
			return &gtmgate.Error{Code: gtmgate.EValidation, Message: rd.msg, Err: err}
		}
		return &gtmgate.Error{Code: gtmgate.EUpstream, Message: host + ": " + rd.msg, Err: err,
			Detail: gtmgate.UpstreamDetail{Provider: detailProvider}}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &gtmgate.Error{Code: gtmgate.EUpstreamTimeout, Err: err,
			Message: fmt.Sprintf("%s did not answer within %s", host, f.opts.Timeout),
			Detail:  gtmgate.UpstreamDetail{Provider: detailProvider}}
	}
	return f.unreachable(err, host)
}

// unreachable is the answer for a host that does not resolve, resolves to
// a refused address, or refuses the connection; the cause is logged only.
func (f *fetcher) unreachable(err error, host string) *gtmgate.Error {
	return &gtmgate.Error{Code: gtmgate.EUpstream, Message: fmt.Sprintf("%s could not be reached", host), Err: err,
		Hint: unreachableHint, Detail: gtmgate.UpstreamDetail{Provider: detailProvider}}
}
