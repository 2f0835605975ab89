package cluster

import (
	"flag"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders"
)

// Package orders defines the -orders.* flags, this package's among
// them, without importing it: the token file's help names this
// package's variable.
func TestTokenFlagNamesTokenEnv(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var cfg orders.Config
	cfg.AddFlags(fs)
	f := fs.Lookup("orders.token-file")
	if f == nil {
		t.Fatal("no -orders.token-file flag")
	}
	if !strings.Contains(f.Usage, "$"+TokenEnv) {
		t.Errorf("-orders.token-file's help %q does not name $%s", f.Usage, TokenEnv)
	}
}
