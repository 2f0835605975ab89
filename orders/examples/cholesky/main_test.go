package main

import (
	"testing"

	"github.com/presage-dvm/presage/orders/examples/programs/programstest"
)

func TestModes(t *testing.T) { programstest.Modes(t, "cholesky", run) }
