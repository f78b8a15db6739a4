package googleads

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
)

// failureMessage finds the messages of a GoogleAdsFailure in an error body.
var failureMessage = regexp.MustCompile(`"message"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// explain makes an upstream error say what Google meant. Google puts a
// generic "Request contains an invalid argument." at the top and the useful
// message in error.details[].errors[].message, so those are added (the
// error's code and hint come from classify, which reads the whole body). A 404
// without a GoogleAdsFailure is Google's plain page for a path it does not
// serve, which for a well-formed path means the version in it: the error then
// names the setting that moves the version.
func (a *api) explain(err error) error {
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		return err
	}
	d, ok := e.Detail.(gtmgate.UpstreamDetail)
	if !ok {
		return err
	}
	if d.Status == http.StatusNotFound && !strings.Contains(d.Body, "GoogleAdsFailure") {
		e.Message, e.Hint = versionNotServed(a.version(), time.Now())
		return err
	}
	ms := failureMessage.FindAllStringSubmatch(d.Body, -1)
	var extra []string
	for _, m := range ms {
		if !strings.Contains(e.Message, m[1]) {
			extra = append(extra, strings.ReplaceAll(m[1], `\"`, `"`))
		}
	}
	if len(extra) > 0 {
		e.Message += " — " + strings.Join(extra, "; ")
	}
	return err
}

// versionNotServed is the message and hint of a 404 for API version version.
func versionNotServed(version string, now time.Time) (message, hint string) {
	p := apiversion.MustOf(Provider)
	message = fmt.Sprintf("Google Ads answered HTTP 404 for API version %s", version)
	if s := p.Status(version, now); s.Level == apiversion.LevelSunset {
		message += " (sunset on " + s.Sunset.Format(time.DateOnly) + ")"
	}
	newest := p.Newest()
	message += fmt.Sprintf(": set %s to a version Google still serves (default %s, newest known %s)", p.Setting, p.Default, newest)
	hint = fmt.Sprintf("unset %s to use the default %s; Google's schedule: https://developers.google.com/google-ads/api/docs/sunset-dates", p.Setting, p.Default)
	return message, hint
}
