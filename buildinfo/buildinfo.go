// Package buildinfo says which build of gtmgate is running: the version
// stamped at link time and the commit and Go version the binary records.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// Version and Commit are set at link time:
//
//	go build -ldflags "-X github.com/gtmgate/gtmgate/buildinfo.Version=v1.2.0 -X github.com/gtmgate/gtmgate/buildinfo.Commit=$(git rev-parse HEAD)"
//
// Without -ldflags, Version is "dev" and Commit is read from the VCS stamp
// the go command records in binaries built inside a git checkout.
var (
	Version = "dev"
	Commit  = ""
)

// Info describes the running build.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version"`
}

var read = sync.OnceValue(func() Info {
	info := Info{Version: Version, Commit: Commit, GoVersion: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if info.Commit == "" {
				info.Commit = s.Value
			}
		case "vcs.modified":
			info.Modified = s.Value == "true" && Commit == ""
		}
	}
	return info
})

// Get returns the running build's information.
func Get() Info { return read() }
