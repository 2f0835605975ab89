package numfmt

import (
	"math"
	"testing"
)

func TestFormats(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name, got, want string
	}{
		{"Fixed", Fixed(1.23456789, 6, "-"), "1.234568"},
		{"Fixed 4", Fixed(-0.00001, 4, "-"), "-0.0000"},
		{"Fixed NaN", Fixed(nan, 4, "–"), "–"},
		{"Fixed Inf", Fixed(inf, 4, "–"), "+Inf"},
		{"Signed +", Signed(2, 6, "-"), "+2.000000"},
		{"Signed 0", Signed(0, 6, "-"), "+0.000000"},
		{"Signed -", Signed(-1.5, 6, "-"), "-1.500000"},
		{"Signed NaN", Signed(nan, 6, "-"), "-"},
		{"Sig", Sig(12.3456, 4, "–"), "12.35"},
		{"Sig large", Sig(123456, 4, "–"), "1.235e+05"},
		{"Sig NaN", Sig(nan, 4, "–"), "–"},
		{"Percent", Percent(0.1667, "-"), "16.7%"},
		{"Percent Inf", Percent(inf, "-"), "-"},
		{"SignedPercent +", SignedPercent(0.25, "-"), "+25.0%"},
		{"SignedPercent -", SignedPercent(-0.25, "-"), "-25.0%"},
		{"SignedPercent NaN", SignedPercent(nan, "-"), "-"},
		{"SignedPercent -Inf", SignedPercent(math.Inf(-1), "-"), "-"},
		{"Micros", Micros(20e-6, "from file"), "20 µs"},
		{"Micros 0", Micros(0, "from file"), "from file"},
		{"Override", Override(1.5, "from file"), "1.5"},
		{"Override 0", Override(0, "from the machine file"), "from the machine file"},
		{"Unsigned residue", Fixed(Unsigned(-1.35e-19, 6), 6, "-"), "0.000000"},
		{"Unsigned residue signed", Signed(Unsigned(-4e-7, 6), 6, "-"), "+0.000000"},
		{"Unsigned keeps", Signed(Unsigned(-6e-7, 6), 6, "-"), "-0.000001"},
		{"Unsigned NaN", Fixed(Unsigned(nan, 6), 6, "-"), "-"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
