package brave

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/upstream"
)

// hintRateLimited is the hint of a Brave 429.
const hintRateLimited = "wait retry_after seconds (Brave's X-RateLimit-Reset for the limit that was reached) before retrying; " +
	"a plan's monthly quota used up resets only with the plan's month"

// classify reads Brave's own retry signal on a 429. Brave lists, for each
// limit of the subscription's plan (per second first, then per month), the
// quota left in X-RateLimit-Remaining and the seconds until it resets in
// X-RateLimit-Reset ("1, 1419704": one second, and 1419704 seconds until
// the monthly quota is whole again), per its "Response Headers" reference
// (api.search.brave.com/app/documentation/web-search/response-headers, read
// 2026-11). The wait is the reset of the limits with nothing left, the
// longest of them; with none at 0, the first limit's. A Retry-After, when
// Brave sends one, counts too.
func classify(resp *upstream.Response, f upstream.Failure) upstream.Failure {
	if resp.Status != http.StatusTooManyRequests {
		return f
	}
	resets := headerList(resp.Header.Get("X-RateLimit-Reset"))
	remaining := headerList(resp.Header.Get("X-RateLimit-Remaining"))
	var wait int64 = -1
	for i, r := range resets {
		if i < len(remaining) && remaining[i] == 0 {
			wait = max(wait, r)
		}
	}
	if wait < 0 && len(resets) > 0 {
		wait = resets[0]
	}
	if wait > 0 {
		f.RetryAfter = max(f.RetryAfter, time.Duration(wait)*time.Second)
	}
	f.Hint = hintRateLimited
	return f
}

// headerList reads Brave's comma-separated list of non-negative integers;
// nil when any entry is not one.
func headerList(v string) []int64 {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []int64
	for _, s := range strings.Split(v, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 || n > 1<<32 {
			return nil
		}
		out = append(out, n)
	}
	return out
}
