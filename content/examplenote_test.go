package content

import (
	"strings"
	"testing"
)

// TestNotRunExampleShowsItsReason: the reason an example is not run by the
// docs tests is on the rendered page, escaped; other fences render as
// before.
func TestNotRunExampleShowsItsReason(t *testing.T) {
	src := "```sh not-run: needs a real <Google Ads> account\ngtmgate admin x\n```\n\n```sh\ncurl -s x\n```\n"
	out, err := HTML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	want := `<p class="example-note">Not run by the docs tests: needs a real &lt;Google Ads&gt; account</p>` + "\n" +
		`<pre><code class="language-sh">gtmgate admin x`
	if !strings.Contains(html, want) {
		t.Fatalf("no note before the marked example:\n%s", html)
	}
	if strings.Count(html, "example-note") != 1 || !strings.Contains(html, `<pre><code class="language-sh">curl -s x`) {
		t.Fatalf("unmarked example changed:\n%s", html)
	}
}
