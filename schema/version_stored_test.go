package schema

import (
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
)

// TestVersionIsStored checks that the schema version the model states
// (and exports write in their metadata) is the number of migrations.
func TestVersionIsStored(t *testing.T) {
	if Version != stored.SchemaVersion {
		t.Fatalf("%d migrations, stored.SchemaVersion %d: update it with the new migration", Version, stored.SchemaVersion)
	}
}
