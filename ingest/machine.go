package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/trace"
)

// maxMachineSource bounds the file read by Machine; machinefile.Parse
// refuses larger files anyway.
const maxMachineSource = 1 << 22

// MachineName is the name a machine file is stored under: its base name
// without a .par suffix.
func MachineName(path string) string { return storedName(path, ".par") }

// Machine stores the machine file at path unless a file with the same
// bytes is stored already, in which case it returns that machine with
// Existing set. The file is parsed first: a defective file (a
// *machinefile.Error) is not stored. The source is stored verbatim.
func Machine(ctx context.Context, st *store.Store, path string) (stored.MachineInfo, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return stored.MachineInfo{}, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(contextReader{ctx, f}, maxMachineSource+1))
	if err != nil {
		if ctx.Err() != nil {
			return stored.MachineInfo{}, ctx.Err()
		}
		return stored.MachineInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(src) > maxMachineSource {
		return stored.MachineInfo{}, fmt.Errorf("%s: larger than %d bytes, not a machine file", path, maxMachineSource)
	}
	digest := sum(src)
	if info, found, err := st.MachineBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	m, err := machinefile.Parse(bytes.NewReader(src), path)
	if err != nil {
		return stored.MachineInfo{}, err
	}
	return st.SaveMachine(ctx, stored.MachineInfo{Name: MachineName(path), Path: path, SHA256: digest}, m, src)
}

// ParseStored gives what a store made before schema 12 kept only as text
// its parsed form, which the store now loads without parsing: machines
// (their source) and traces' headers. It does nothing when everything has
// one.
func ParseStored(ctx context.Context, st *store.Store) error {
	if err := parseStoredMachines(ctx, st); err != nil {
		return err
	}
	infos, texts, err := st.UnparsedTraceHeaders(ctx)
	if err != nil || len(infos) == 0 {
		return err
	}
	headers := make(map[int64]*trace.Header, len(infos))
	for i, info := range infos {
		h, err := ptr.ParseHeader(texts[i], info.Name)
		if err != nil {
			return fmt.Errorf("stored trace %s: %w", info.Name, err)
		}
		headers[info.ID] = h
	}
	return st.SetTraceHeaders(ctx, headers)
}

// parseStoredMachines parses the source of the machines stored without
// their parsed form.
func parseStoredMachines(ctx context.Context, st *store.Store) error {
	infos, sources, err := st.UnparsedMachines(ctx)
	if err != nil || len(infos) == 0 {
		return err
	}
	trees := make(map[int64]*machine.Machine, len(infos))
	for i, info := range infos {
		m, err := machinefile.Parse(strings.NewReader(sources[i]), info.Path)
		if err != nil {
			return fmt.Errorf("stored machine %s: %w", info.Name, err)
		}
		trees[info.ID] = m
	}
	return st.SetMachineTrees(ctx, trees)
}
