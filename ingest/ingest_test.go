package ingest

import (
	"errors"
	"strings"
	"testing"
)

func TestSum(t *testing.T) {
	const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := sum([]byte("abc")); got != abc {
		t.Errorf("sum = %s, want %s", got, abc)
	}
	got, err := sumReader(strings.NewReader("abc"))
	if err != nil || got != abc {
		t.Errorf("sumReader = %s, %v; want %s", got, err, abc)
	}
	if _, err := sumReader(failing{}); err == nil {
		t.Error("sumReader hid a read error")
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		of   func(string) string
		path string
		want string
	}{
		{"trace", TraceName, "/a/b/jac1d.ptr", "jac1d"},
		{"trace", TraceName, "jac1d_x1000.ptr.gz", "jac1d_x1000"},
		{"trace", TraceName, "x.gz", "x"},
		{"trace", TraceName, "x.gz.ptr", "x.gz"},
		{"trace", TraceName, "dir/a.b.ptr", "a.b"},
		{"trace", TraceName, "noext", "noext"},
		{"machine", MachineName, "machines/Predictor.par", "Predictor"},
		{"machine", MachineName, ".par", ".par"},
		{"machine", MachineName, "noext", "noext"},
		{"sts", StsName, "/d/jac.2x2.sts.gz+", "jac.2x2"},
		{"sts", StsName, "sts.gz+", "sts"},
		{"sts", StsName, ".sts.gz+", ".sts"},
		{"sts", StsName, "x/run.sts", "run"},
		{"sts", StsName, "plain", "plain"},
	} {
		if got := tc.of(tc.path); got != tc.want {
			t.Errorf("%s name of %q = %q, want %q", tc.name, tc.path, got, tc.want)
		}
	}
}
