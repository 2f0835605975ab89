package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/presage-dvm/presage/exports/table"
	"github.com/presage-dvm/presage/internal/outfile"
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
// it in out's place only once it is complete (outfile's WriteFolder): a
// failed, stopped or killed export leaves the previous one whole (a
// killed one a hidden .NAME.presage-tmp.* folder, which the next export
// there removes), and a new export never mixes with the files of an
// older one. out must be missing, empty, or an earlier export of the same
// format (with its manifest); with --force, of another format too.
func writeExportDir(ctx context.Context, guard *outfile.Guard, out string, m manifest, write func(dir string) (table.Summary, error)) (table.Summary, error) {
	var sum table.Summary
	out = filepath.Clean(out) // "results/" names the folder results, beside which the new one is written
	folder := outfile.Folder{Path: out, Flag: "--out", Replaceable: func(path string, force bool) error {
		return checkReplaceable(path, m.Format, force)
	}}
	err := guard.WriteFolder(ctx, folder, func(tmp string) error {
		var err error
		if sum, err = write(tmp); err != nil {
			return err
		}
		for i := range sum.Files {
			rel, err := filepath.Rel(tmp, sum.Files[i].Path)
			if err != nil {
				return err
			}
			sum.Files[i].Path = filepath.Join(out, rel)
			m.Files = append(m.Files, sum.Files[i])
			m.Files[i].Path = filepath.ToSlash(rel)
		}
		m.Created, m.Rows, m.Bytes = time.Now().UTC().Format(time.RFC3339), sum.Rows, sum.Bytes
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, exportManifest), append(b, '\n'), 0o644)
	})
	return sum, err
}

// checkReplaceable refuses an out, a folder that holds files, unless it
// is an export of format (or of another format and force): replacing
// the files of another format would lose them unasked, and a folder of
// other files is never replaced, --force or not.
func checkReplaceable(out, format string, force bool) error {
	b, err := os.ReadFile(filepath.Join(out, exportManifest))
	if err != nil {
		return fmt.Errorf("--out %s: the folder holds files and is not a Presage export (no %s): choose a new or empty folder", out, exportManifest)
	}
	var old manifest
	if err := json.Unmarshal(b, &old); err == nil && old.Format != format && !force {
		return fmt.Errorf("--out %s holds a %s export, which a %s export would replace: choose another folder, or --force to replace it", out, old.Format, format)
	}
	return nil
}
