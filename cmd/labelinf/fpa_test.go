package main

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFPACommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-format", "binary64", "-op", "add", "1", "2"}, "0x1.8p+01"},
		{[]string{"--format", "binary64", "--op", "sub", "1", "-2"}, "0x1.8p+01"},
		{[]string{"-format", "5,10", "-round", "up", "-op", "div", "1", "3"}, "0x1.558p-02"},
		{[]string{"-format", "5,10", "-round", "down", "-op", "div", "1", "3"}, "0x1.554p-02"},
		{[]string{"-op", "sqrt", "-1"}, "nan"},
		{[]string{"-op", "div", "1", "0"}, "inf"},
		{[]string{"-op", "div", "-1", "0"}, "-inf"},
		{[]string{"-op", "mul", "0x1p-1074", "0.5"}, "0x0p+00"},
		{[]string{"-op", "mul", "0x1p-1074", "0.5", "-round", "up"}, "0x1p-1074"},
		{[]string{"-op", "exp", "710"}, "inf"},
		{[]string{"-round", "zero", "-op", "exp", "710"}, strconv.FormatFloat(math.MaxFloat64, 'x', -1, 64)},
		{[]string{"-op", "fma", "0x1.0000001p0", "0x1.0000001p0", "-1"}, strconv.FormatFloat(math.FMA(0x1.0000001p0, 0x1.0000001p0, -1), 'x', -1, 64)},
		{[]string{"-op", "log", "10"}, strconv.FormatFloat(math.Log(10), 'x', -1, 64)},
		{[]string{"-format", "binary32", "-op", "log", "10", "-acc"}, "0x1.26bb1cp+01 Above"},
		{[]string{"-format", "binary16", "-op", "add", "65504", "15"}, "0x1.ffcp+15"},
		{[]string{"-format", "binary16", "-op", "add", "65504", "16"}, "inf"}, // the tie goes to the even 2^16: overflow
		{[]string{"-format", "binary16", "-round", "zero", "-op", "add", "65504", "16"}, "0x1.ffcp+15"},
		{[]string{"-format", "phi:21", "-op", "log1p", "1e-9"}, "0x1.13p-30"}, // 1e−9 rounds up to 0x1.13p−30 on input
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(append([]string{"fpa"}, tt.args...), &out, &errb)
		assert.Equal(t, 0, code, "%v: stderr %s", tt.args, errb.String())
		// HEX DECIMAL [ACC]: the decimal identifies the same value.
		f := strings.Fields(out.String())
		require.GreaterOrEqual(t, len(f), 2, "labelinf fpa %v: %q", tt.args, out.String())
		got := append([]string{f[0]}, f[2:]...)
		assert.Equal(t, tt.want, strings.Join(got, " "), "labelinf fpa %v", tt.args)
		format := fpa.Binary64
		for i, a := range tt.args {
			if strings.TrimLeft(a, "-") == "format" {
				var err error
				format, err = fpa.ParseFormat(tt.args[i+1])
				require.NoError(t, err)
			}
		}
		dec, err := fpa.Parse(f[1], format, fpa.ToNearestEven)
		require.NoError(t, err, "decimal %q", f[1])
		assert.Equal(t, f[0], dec.Text('x', -1), "labelinf fpa %v: decimal %s is not the hex value", tt.args, f[1])
	}
}

func TestFPAUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-format", "1,52", "-op", "add", "1", "2"},
		{"-format", "11,0", "-op", "add", "1", "2"},
		{"-format", "binary99", "-op", "add", "1", "2"},
		{"-round", "sideways", "-op", "add", "1", "2"},
		{"-op", "pow", "1", "2"},
		{"-op", "add", "1"},
		{"-op", "sqrt", "1", "2"},
		{"-op", "add", "1", "x"},
		{"-op", "add", "1", "0x1p"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"fpa"}, args...), &out, &errb)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out.String(), "%v", args)
		assert.Contains(t, errb.String(), "labelinf fpa", "%v", args)
	}
}
