package config

import (
	"flag"
	"fmt"

	"github.com/gtmgate/gtmgate/content"
)

// contentSignalEnv sets the site's content usage signal.
const contentSignalEnv = "GTMGATE_CONTENT_SIGNAL"

// contentSignalMeaning describes GTMGATE_CONTENT_SIGNAL.
const contentSignalMeaning = "the site's content usage signal: search, ai-input and ai-train, each yes or no, all three (e.g. search=yes, ai-input=yes, ai-train=no); " +
	"sent as the Content-Signal header of every site response and stated in robots.txt, llms.txt and the read-site skill. The docs host keeps the default"

// contentSignalSetting documents GTMGATE_CONTENT_SIGNAL; its default is the
// zero content.Signal's, which permits all three uses.
var contentSignalSetting = Setting{contentSignalEnv, "content-signal", content.Signal{}.String(), contentSignalMeaning}

// readContentSignal fills c.ContentSignal from GTMGATE_CONTENT_SIGNAL, and
// registers --content-signal, which overrides it.
func (c *Config) readContentSignal(env *envReader, fs *flag.FlagSet) error {
	if v := env.str(contentSignalEnv, ""); v != "" {
		s, err := content.ParseSignal(v)
		if err != nil {
			return fmt.Errorf("%s: %w", contentSignalEnv, err)
		}
		c.ContentSignal = s
	}
	fs.Var(signalFlag{&c.ContentSignal}, contentSignalSetting.Flag, contentSignalMeaning)
	return nil
}

// signalFlag is --content-signal: parsed and checked as it is set, so a bad
// value is refused naming the flag.
type signalFlag struct{ dst *content.Signal }

func (f signalFlag) String() string {
	if f.dst == nil {
		return "" // the flag package's zero value, so -h prints the default
	}
	return f.dst.String()
}

func (f signalFlag) Set(v string) error {
	s, err := content.ParseSignal(v)
	if err != nil {
		return err
	}
	*f.dst = s
	return nil
}
