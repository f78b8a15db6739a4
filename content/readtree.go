package content

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// sourceFile is one markdown file read from the tree.
type sourceFile struct {
	data    []byte
	modTime time.Time
}

// readTree reads every .md file of fsys, skipping dot files and directories.
// Underscore files are kept (they hold curated prose, not pages).
func readTree(fsys fs.FS) (map[string]sourceFile, error) {
	files := map[string]sourceFile{}
	if fsys == nil {
		return files, nil
	}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := path.Base(name)
		if name != "." && strings.HasPrefix(base, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(base, ".md") {
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		var mod time.Time
		if info, err := d.Info(); err == nil {
			mod = info.ModTime()
		}
		files[name] = sourceFile{data: data, modTime: mod}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("content: read tree: %w", err)
	}
	return files, nil
}
