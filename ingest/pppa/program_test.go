package pppa

import "testing"

func TestProgramName(t *testing.T) {
	tests := []struct {
		name  string
		procs int
		want  string
	}{
		{"jac_e4.2x2", 4, "jac_e4"},
		{"jac_e4.1x2", 2, "jac_e4"},
		{"jac.1", 1, "jac"},
		{"jac3d.1x1x2", 2, "jac3d"},
		{"jac.2x2", 2, "jac.2x2"}, // the suffix is not this run's grid
		{"prog.v2", 4, "prog.v2"}, // not a grid
		{"jac", 1, "jac"},         // no suffix
		{".4", 4, ".4"},           // nothing left of the name
		{"a.2xx2", 4, "a.2xx2"},   // a malformed grid
		{"a.0", 0, "a.0"},         // sizes are positive
	}
	for _, tt := range tests {
		if got := ProgramName(tt.name, tt.procs); got != tt.want {
			t.Errorf("ProgramName(%q, %d) = %q, want %q", tt.name, tt.procs, got, tt.want)
		}
	}
}
