package content

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestChooseEncoding(t *testing.T) {
	avail := []string{"br", "gzip"}
	tests := map[string]string{
		"": "", "gzip": "gzip", "br": "br", "gzip, br": "br", "br;q=0.1, gzip;q=0.9": "gzip",
		"*": "br", "*;q=0": "", "identity": "", "deflate": "", "gzip;q=0, br;q=0": "", "GZIP": "gzip",
		"br;q=abc": "", "gzip;q=1.0, identity;q=0.5": "gzip",
	}
	for in, want := range tests {
		if got := ChooseEncoding(in, avail); got != want {
			t.Errorf("ChooseEncoding(%q) = %q, want %q", in, got, want)
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

// qualitiesReference is the straightforward parse that quality replaced: a
// map of every listed value to its highest q. FuzzQuality holds quality to it.
func qualitiesReference(header string) map[string]float64 {
	out := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		if name == "" {
			continue
		}
		q := 1.0
		for _, param := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		if old, seen := out[name]; !seen || q > old {
			out[name] = q
		}
	}
	return out
}

func FuzzQuality(f *testing.F) {
	for _, s := range []string{"", "gzip, br;q=0.5", "text/html,application/xhtml+xml,*/*;q=0.8", "BR;Q=0.3, br;q=0.7",
		"text/markdown;charset=utf-8;q=0.9", "*;q=0", " , ;q=1,", "gzip;q=abc", "a;q=2"} {
		f.Add(s, "br")
		f.Add(s, "text/html")
	}
	f.Fuzz(func(t *testing.T, header, name string) {
		name = strings.ToLower(strings.TrimSpace(name))
		want, wantListed := qualitiesReference(header)[name]
		if name == "" {
			return // the reference skips empty names; quality is never asked for one
		}
		got, listed := quality(header, name)
		// NaN never equals itself; the reference and quality both keep it.
		if listed != wantListed || (got != want && !(math.IsNaN(got) && math.IsNaN(want))) {
			t.Fatalf("quality(%q, %q) = %v, %v; reference %v, %v", header, name, got, listed, want, wantListed)
		}
	})
}

func TestNegotiationDoesNotAllocate(t *testing.T) {
	avail := []string{"br", "gzip"}
	allocs := testing.AllocsPerRun(100, func() {
		ChooseEncoding("gzip, deflate, br;q=0.9, *;q=0.1", avail)
		prefersMarkdown("text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.95,*/*;q=0.8")
		prefersHTML("text/html,*/*;q=0.8")
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per negotiation", allocs)
	}
}
