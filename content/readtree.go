package content

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// sourceFile is one markdown file read from the tree, or an asset to read
// when first asked for.
type sourceFile struct {
	data    []byte
	modTime time.Time
	// read reads an asset: images are most of a tree's bytes and few are
	// ever requested from one process, so they are not held from the start.
	read func() ([]byte, error)
}

// assetTypes are the files besides markdown a tree serves as they are, at
// their own path: images a page shows (the docs' screenshots, a diagram).
var assetTypes = map[string]string{
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".svg":  "image/svg+xml",
}

// readTree reads every .md file of fsys, and lists every image (assetTypes)
// in assets with a func to read it, skipping dot files and directories. Underscore files are kept
// (they hold curated prose, not pages).
func readTree(fsys fs.FS) (files, assets map[string]sourceFile, err error) {
	files, assets = map[string]sourceFile{}, map[string]sourceFile{}
	if fsys == nil {
		return files, assets, nil
	}
	err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
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
		_, asset := assetTypes[strings.ToLower(path.Ext(base))]
		if d.IsDir() || !strings.HasSuffix(base, ".md") && !asset {
			return nil
		}
		var mod time.Time
		if info, err := d.Info(); err == nil {
			mod = info.ModTime()
		}
		if asset {
			assets[name] = sourceFile{modTime: mod, read: func() ([]byte, error) { return fs.ReadFile(fsys, name) }}
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		files[name] = sourceFile{data: data, modTime: mod}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("content: read tree: %w", err)
	}
	return files, assets, nil
}
