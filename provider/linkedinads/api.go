package linkedinads

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// api holds the client the tools call LinkedIn with.
type api struct{ c *upstream.Client }

var digits = regexp.MustCompile(`^[0-9]{1,20}$`)

// account returns the call's sponsored account id.
func account(call *gtmgate.Call) (string, error) {
	id := AccountID(call.Account.ID)
	if !digits.MatchString(id) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "account %q is not a LinkedIn sponsored account id", call.Account.ID)
	}
	return id, nil
}

// get reads path?rawQuery; rawQuery is Rest.li-encoded, so it is sent as is.
func (a *api) get(ctx context.Context, call *gtmgate.Call, path, rawQuery string, out any) error {
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	req := &upstream.Request{Method: http.MethodGet, Path: path, Token: call.Token}
	if err := a.c.Do(ctx, req, out); err != nil {
		return fmt.Errorf("linkedin ads: GET %s: %w", path, a.versionRefused(err))
	}
	return nil
}

var versionError = regexp.MustCompile(`"code"\s*:\s*"(NONEXISTENT_VERSION|VERSION_MISSING)"`)

// versionRefused names the setting that moves the LinkedIn-Version when
// LinkedIn refuses the one sent: 426 NONEXISTENT_VERSION for a version past
// its sunset or never released, 400 VERSION_MISSING without one.
func (a *api) versionRefused(err error) error {
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		return err
	}
	if d, _ := e.Detail.(gtmgate.UpstreamDetail); !versionError.MatchString(d.Body) {
		return err
	}
	cat := catalogue()
	version := a.c.APIVersion()
	if version == "" {
		version = "(none)"
	}
	e.Message += fmt.Sprintf("; LinkedIn does not serve Marketing API version %s: set %s to an active version", version, cat.Setting)
	e.Hint = fmt.Sprintf("the gateway's operator must set %s to a LinkedIn-Version LinkedIn still serves (this release's default is %s, the newest it knows %s)",
		cat.Setting, cat.Default, cat.Newest())
	return err
}

// currency reads the ad account's currency.
func (a *api) currency(ctx context.Context, call *gtmgate.Call) (string, error) {
	id, err := account(call)
	if err != nil {
		return "", err
	}
	var out accountCurrency
	if err := a.get(ctx, call, "/rest/adAccounts/"+id, "", &out); err != nil {
		return "", err
	}
	return out.Currency, nil
}

// accountCurrency is what the tools read of an ad account (adAccounts.get).
type accountCurrency struct {
	Currency string `json:"currency"`
}

// number reads LinkedIn's numbers, which are JSON numbers or decimal strings.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		n, err := strconv.ParseFloat(x, 64)
		return n, err == nil
	}
	return 0, false
}

// listResult is the shape of every list result (see the package doc).
func listResult(items []map[string]any, next, currency string) map[string]any {
	out := map[string]any{"items": items, "currency": currency}
	if next != "" {
		out["next_cursor"] = next
	}
	return out
}

// offsetCursor encodes a position in a result that LinkedIn returns whole,
// bound to the query it pages.
func offsetCursor(offset int, query string) string {
	h := fnv.New32a()
	h.Write([]byte(query))
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d:%x", offset, h.Sum32())))
}

// readOffsetCursor decodes offsetCursor; 0 for an empty cursor.
func readOffsetCursor(cursor, query string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	n, _, ok := strings.Cut(string(b), ":")
	off, err2 := strconv.Atoi(n)
	if err != nil || err2 != nil || !ok || off < 0 || offsetCursor(off, query) != cursor {
		return 0, gtmgate.Errorf(gtmgate.EValidation, "cursor is not a cursor this tool returned for these parameters")
	}
	return off, nil
}
