// Package apiversion is the catalogue of provider API versions gtmgate can
// speak: for each provider, the versions it supports with their release and
// sunset dates and the public page that gives them, the default, and the
// setting that moves it. Adapters read their version from here, sandboxes
// refuse versions past their sunset as the real APIs do, and health, the
// daily brief and the console warn before the configured version's sunset.
package apiversion

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// WarnBefore is how long before a version's sunset gtmgate starts warning.
const WarnBefore = 90 * 24 * time.Hour

// Version is one provider API version.
type Version struct {
	// Name is as the provider spells it in paths or headers: "v25", "v25.0", "202611".
	Name string
	// Released is the day the provider made it generally available.
	Released time.Time
	// Sunset is the day after which the provider refuses it; zero when none is announced.
	Sunset time.Time
	// Source is the public page that gives these dates.
	Source string
}

// Provider is the catalogue entry of one provider family.
type Provider struct {
	// Key is the provider key of accounts and tokens ("google_ads").
	Key string
	// Name is the API's name as its provider calls it.
	Name string
	// Setting is the environment variable that overrides Default.
	Setting string
	// Default is the version used when Setting is unset.
	Default string
	// Pattern is the shape of a version name; a configured version must match it.
	Pattern *regexp.Regexp
	// Where says where the version travels: "path" or a header name.
	Where string
	// Policy is the provider's published support policy, in one sentence.
	Policy string
	// Versions are the versions known to this release, oldest first.
	Versions []Version
}

// Lookup returns the named version of p.
func (p Provider) Lookup(name string) (Version, bool) {
	for _, v := range p.Versions {
		if v.Name == name {
			return v, true
		}
	}
	return Version{}, false
}

// Newest is the name of the newest version the catalogue knows.
func (p Provider) Newest() string { return p.Versions[len(p.Versions)-1].Name }

// Live reports whether version name is one the provider still serves on day
// now: known to the catalogue and not past its sunset. A version the
// catalogue does not know is taken as live (an operator may move to a version
// newer than this release), so only Status warns about it.
func (p Provider) Live(name string, now time.Time) bool {
	v, ok := p.Lookup(name)
	return !ok || v.Sunset.IsZero() || now.Before(v.Sunset)
}

// Level grades a version's standing.
type Level string

// Levels, from fine to refused by the provider.
const (
	LevelOK      Level = "ok"
	LevelUnknown Level = "unknown" // not in the catalogue: no sunset date known
	LevelWarning Level = "warning" // sunset within WarnBefore
	LevelSunset  Level = "sunset"  // past its sunset: the provider refuses it
)

// Status is the standing of one configured version on one day.
type Status struct {
	Provider string    `json:"provider"`
	Name     string    `json:"name"`
	Setting  string    `json:"setting"`
	Version  string    `json:"version"`
	Default  bool      `json:"default"`
	Level    Level     `json:"level"`
	Released time.Time `json:"released,omitzero"`
	Sunset   time.Time `json:"sunset,omitzero"`
	// DaysLeft is the number of whole days until the sunset (negative past it);
	// zero when no sunset is known.
	DaysLeft int    `json:"days_left,omitempty"`
	Source   string `json:"source,omitempty"`
	Message  string `json:"message"`
}

// Status grades version (Default when empty) of p on day now.
func (p Provider) Status(version string, now time.Time) Status {
	if version == "" {
		version = p.Default
	}
	s := Status{Provider: p.Key, Name: p.Name, Setting: p.Setting, Version: version, Default: version == p.Default}
	v, ok := p.Lookup(version)
	if !ok {
		s.Level = LevelUnknown
		s.Message = fmt.Sprintf("%s version %s is not in this release's catalogue, so its sunset date is unknown; the catalogue's newest is %s (%s)",
			p.Name, version, p.Newest(), p.Setting)
		return s
	}
	s.Released, s.Sunset, s.Source = v.Released, v.Sunset, v.Source
	if v.Sunset.IsZero() {
		s.Level = LevelOK
		s.Message = fmt.Sprintf("%s version %s: no sunset announced", p.Name, version)
		return s
	}
	s.DaysLeft = daysBetween(now, v.Sunset)
	switch {
	case !now.Before(v.Sunset):
		s.Level = LevelSunset
		s.Message = fmt.Sprintf("%s version %s was sunset on %s: calls fail; set %s to a current version (newest known: %s)",
			p.Name, version, v.Sunset.Format(time.DateOnly), p.Setting, p.Newest())
	case v.Sunset.Sub(now) <= WarnBefore:
		s.Level = LevelWarning
		s.Message = fmt.Sprintf("%s version %s is sunset on %s (%d days): move %s to a newer version (newest known: %s)",
			p.Name, version, v.Sunset.Format(time.DateOnly), s.DaysLeft, p.Setting, p.Newest())
	default:
		s.Level = LevelOK
		s.Message = fmt.Sprintf("%s version %s is supported until %s", p.Name, version, v.Sunset.Format(time.DateOnly))
	}
	return s
}

func daysBetween(from, to time.Time) int {
	return int(to.Sub(from).Hours() / 24)
}

// Of returns the catalogue entry of provider key.
func Of(key string) (Provider, bool) {
	for _, p := range All() {
		if p.Key == key {
			return p, true
		}
	}
	return Provider{}, false
}

// MustOf is Of for keys known to exist (an adapter's own provider key).
func MustOf(key string) Provider {
	p, ok := Of(key)
	if !ok {
		panic("apiversion: no catalogue entry for " + key)
	}
	return p
}

// day is a catalogue date.
func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic("apiversion: bad date " + s)
	}
	return t
}

// Statuses grades every provider's version on day now; version returns the
// configured version of a provider key ("" for its default).
func Statuses(version func(key string) string, now time.Time) []Status {
	all := All()
	out := make([]Status, len(all))
	for i, p := range all {
		out[i] = p.Status(version(p.Key), now)
	}
	return out
}

// NeedAttention keeps the statuses an operator must act on: a sunset within
// WarnBefore or past.
func NeedAttention(list []Status) []Status {
	var out []Status
	for _, s := range list {
		if s.Level == LevelWarning || s.Level == LevelSunset {
			out = append(out, s)
		}
	}
	return out
}

// MarkdownTables renders the catalogue for the docs host's Provider
// versions page: the version each provider speaks by default, then every
// version known with its dates.
func MarkdownTables() string {
	var b strings.Builder
	b.WriteString("| Provider | Setting | Default | Sent | Default's sunset | Policy |\n|---|---|---|---|---|---|\n")
	for _, p := range All() {
		sunset := "none announced"
		if v, ok := p.Lookup(p.Default); ok && !v.Sunset.IsZero() {
			sunset = v.Sunset.Format(time.DateOnly)
		}
		where := "in the path"
		if p.Where != "path" {
			where = "`" + p.Where + "` header"
		}
		fmt.Fprintf(&b, "| %s (`%s`) | `%s` | `%s` | %s | %s | %s |\n", p.Name, p.Key, p.Setting, p.Default, where, sunset, p.Policy)
	}
	b.WriteString("\n| Provider | Version | Released | Sunset | Source |\n|---|---|---|---|---|\n")
	for _, p := range All() {
		for _, v := range p.Versions {
			sunset := "none announced"
			if !v.Sunset.IsZero() {
				sunset = v.Sunset.Format(time.DateOnly)
			}
			name := "`" + v.Name + "`"
			if v.Name == p.Default {
				name += " (default)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | [source](%s) |\n", p.Key, name, v.Released.Format(time.DateOnly), sunset, v.Source)
		}
	}
	return b.String()
}
