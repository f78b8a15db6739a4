package content

import "testing"

func TestChooseEncoding(t *testing.T) {
	avail := []string{"br", "gzip"}
	tests := map[string]string{
		"": "", "gzip": "gzip", "br": "br", "gzip, br": "br", "br;q=0.1, gzip;q=0.9": "gzip",
		"*": "br", "*;q=0": "", "identity": "", "deflate": "", "gzip;q=0, br;q=0": "", "GZIP": "gzip",
		"br;q=abc": "", "gzip;q=1.0, identity;q=0.5": "gzip",
	}
	for in, want := range tests {
		if got := chooseEncoding(in, avail); got != want {
			t.Errorf("chooseEncoding(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrefersMarkdown(t *testing.T) {
	tests := map[string]bool{
		"": false, "text/markdown": true, "text/markdown, text/html;q=0.9": true, "text/html, text/markdown": false,
		"text/html,application/xhtml+xml,*/*;q=0.8": false, "*/*": false, "text/markdown;q=0": false, "text/*, text/markdown": true,
	}
	for in, want := range tests {
		if got := prefersMarkdown(in); got != want {
			t.Errorf("prefersMarkdown(%q) = %v, want %v", in, got, want)
		}
	}
}
