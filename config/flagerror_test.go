package config

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestFlagErrors: a bad flag is named with what it wants and where the flags
// are listed, never Go's bare "parse error"; -h is flag.ErrHelp.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--grader-sample-rate=abc"}, []string{`-grader-sample-rate: "abc"`, `give one like "0.1"`, "gtmgate serve -h"}},
		{[]string{"--job-rescue-after=5"}, []string{`-job-rescue-after: "5"`, `like "5m0s"`}},
		{[]string{"--bogus"}, []string{"-bogus", "gtmgate serve -h"}},
	} {
		_, err := Load(tc.args, nil)
		if err == nil {
			t.Errorf("%v: no error", tc.args)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) || strings.Contains(err.Error(), "parse error") {
				t.Errorf("%v: %q lacks %q (or says parse error)", tc.args, err, w)
			}
		}
	}
	if _, err := Load([]string{"-h"}, nil); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
}
