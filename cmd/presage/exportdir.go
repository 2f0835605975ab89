package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/presage-dvm/presage/exports/table"
)

// exportManifest marks a folder as a Presage export and says what it
// holds: the one kind of folder an export replaces.
const exportManifest = "presage-export.json"

// manifest is the content of exportManifest.
type manifest struct {
	Format  string       `json:"format"`
	Store   string       `json:"store"`
	Sweep   int64        `json:"sweep,omitempty"`
	Created string       `json:"created"`
	Rows    int64        `json:"rows"`
	Bytes   int64        `json:"bytes"`
	Files   []table.File `json:"files"`
}

// writeExportDir writes an export into a new folder beside out and puts
// it in out's place only once it is complete: a failed or killed export
// leaves the previous one whole (and at most a hidden .NAME.tmp-* folder),
// and a new export never mixes with the files of an older one. out must
// be missing, empty, or an earlier export of the same format (with its
// manifest).
func writeExportDir(out string, m manifest, write func(dir string) (table.Summary, error)) (table.Summary, error) {
	var sum table.Summary
	out = filepath.Clean(out) // "results/" names the folder results, beside which the new one is written
	if err := checkReplaceable(out, m.Format); err != nil {
		return sum, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return sum, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(tmp)                      // nothing left after the rename
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		return sum, err
	}
	if sum, err = write(tmp); err != nil {
		return sum, err
	}
	for i := range sum.Files {
		rel, err := filepath.Rel(tmp, sum.Files[i].Path)
		if err != nil {
			return sum, err
		}
		sum.Files[i].Path = filepath.Join(out, rel)
		m.Files = append(m.Files, sum.Files[i])
		m.Files[i].Path = filepath.ToSlash(rel)
	}
	m.Created, m.Rows, m.Bytes = time.Now().UTC().Format(time.RFC3339), sum.Rows, sum.Bytes
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return sum, err
	}
	if err := os.WriteFile(filepath.Join(tmp, exportManifest), append(b, '\n'), 0o644); err != nil {
		return sum, err
	}
	return sum, replaceDir(out, tmp)
}

// checkReplaceable refuses an out that holds anything but an export of
// format: replacing the files of another format would lose them unasked.
func checkReplaceable(out, format string) error {
	entries, err := os.ReadDir(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--out %s: %w", out, err)
	case len(entries) == 0:
		return nil
	}
	if b, err := os.ReadFile(filepath.Join(out, exportManifest)); err == nil {
		var old manifest
		if err := json.Unmarshal(b, &old); err == nil && old.Format != format {
			return fmt.Errorf("--out %s holds a %s export, which a %s export would replace: choose another folder, or remove that one first", out, old.Format, format)
		}
		return nil
	}
	return fmt.Errorf("--out %s: the folder holds files and is not a Presage export (no %s): choose a new or empty folder", out, exportManifest)
}

// replaceDir puts the folder tmp in out's place.
func replaceDir(out, tmp string) error {
	if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, out)
	}
	old := tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out) // put the previous export back
		return err
	}
	return os.RemoveAll(old)
}
