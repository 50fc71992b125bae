package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/labelinf/labelinf/fpa"
)

const fpaUsage = `usage: labelinf fpa -format NAME|E,M [-round MODE] -op OP [-acc] A [B [C]]
  OP: add sub mul div sqrt fma log log1p exp; MODE: nearest nearest-away zero away up down`

func init() {
	helpExtra["fpa"] = func() string {
		return "OP: add sub mul div sqrt fma log log1p exp\nMODE: nearest nearest-away zero away up down"
	}
}

// fpaArity is the number of operands of each fpa op.
var fpaArity = map[string]int{"add": 2, "sub": 2, "mul": 2, "div": 2, "sqrt": 1, "fma": 3, "log": 1, "log1p": 1, "exp": 1}

// runFPA evaluates one emulated operation and prints its result as a hex
// float (Go's %x form), inf, -inf or nan.
func runFPA(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("fpa", stderr)
	format := fs.String("format", "binary64", "format: a preset (binary16, bfloat16, binary32, binary64, binary128) or E,M (exponent and fraction bits)")
	round := fs.String("round", "nearest", "rounding mode: nearest, nearest-away, zero, away, up or down")
	op := fs.String("op", "", "operation: add, sub, mul, div, sqrt, fma, log, log1p or exp")
	acc := fs.Bool("acc", false, "also print the rounding's direction (Below, Exact, Above)")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "labelinf fpa: %s\n%s\n", plainError(fmt.Errorf(format, a...)), fpaUsage)
		return 2
	}
	flags, operands, err := splitFlags(fs, args)
	if err != nil {
		return fail("%v", err)
	}
	if !parseArgs(fs, flags, stderr) {
		return 2
	}
	f, err := fpa.ParseFormat(*format)
	if err != nil {
		return fail("-format: %v", err)
	}
	mode, err := fpa.ParseRoundingMode(*round)
	if err != nil {
		return fail("-round: %v", err)
	}
	n, ok := fpaArity[*op]
	if !ok {
		return fail("-op %q is not one of add, sub, mul, div, sqrt, fma, log, log1p, exp", *op)
	}
	if len(operands) != n {
		return fail("-op %s takes %d operand(s), got %d", *op, n, len(operands))
	}
	xs := make([]*fpa.Float, n)
	for i, s := range operands {
		// Operands are rounded into the format in the chosen mode, as a
		// server parsing them would.
		if xs[i], err = fpa.Parse(s, f, mode); err != nil {
			return fail("operand %d: %v", i+1, err)
		}
	}
	z := fpa.New(f).SetMode(mode)
	switch *op {
	case "add":
		z.Add(xs[0], xs[1])
	case "sub":
		z.Sub(xs[0], xs[1])
	case "mul":
		z.Mul(xs[0], xs[1])
	case "div":
		z.Quo(xs[0], xs[1])
	case "sqrt":
		z.Sqrt(xs[0])
	case "fma":
		z.FMA(xs[0], xs[1], xs[2])
	case "log":
		z.Log(xs[0])
	case "log1p":
		z.Log1p(xs[0])
	case "exp":
		z.Exp(xs[0])
	}
	// The exact hex form, then the shortest decimal that identifies the
	// result at its precision.
	if *acc {
		fmt.Fprintln(stdout, z.Text('x', -1), z.Text('g', -1), z.Acc())
	} else {
		fmt.Fprintln(stdout, z.Text('x', -1), z.Text('g', -1))
	}
	return 0
}

// splitFlags separates fs's flags from the operands wherever they appear,
// so that a negative operand ("-1.5", "-inf") is not taken for a flag: an
// argument starting with "-" is an operand if it reads as a number, and
// otherwise a flag, which must be one of fs's. "--" ends the flags.
func splitFlags(fs *flag.FlagSet, args []string) (flags, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(rest, args[i+1:]...), nil
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || isNumber(a) {
			rest = append(rest, a)
			continue
		}
		if name == "h" || name == "help" {
			flags = append(flags, a) // fs.Parse prints the help
			continue
		}
		if fs.Lookup(name) == nil {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
			return nil, nil, fmt.Errorf("flag provided but not defined: %s%s", a, didYouMean("-"+name, names))
		}
		flags = append(flags, a)
		if _, isBool := fs.Lookup(name).Value.(interface{ IsBoolFlag() bool }); !hasValue && !isBool && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, rest, nil
}

// isNumber reports whether s, which starts with "-", is a negative
// operand rather than a flag: a digit or "." after the dashes (fpa.Parse
// judges the rest), or inf, infinity or nan in any case.
func isNumber(s string) bool {
	t := strings.TrimLeft(s, "-")
	if t != "" && (t[0] >= '0' && t[0] <= '9' || t[0] == '.') {
		return true
	}
	switch strings.ToLower(t) {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}
