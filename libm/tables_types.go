package libm

// logTables is the layout of glibc's struct log_data (math_config.h).
type logTables struct {
	ln2hi, ln2lo float64
	poly         [5]float64      // A: log1p(r) − r on |r| < 1/256
	poly1        [11]float64     // B: log(1+r) near 1
	tab          [128][2]float64 // {1/c, log(c)} per subinterval
	tab2         [128][2]float64 // {c, c − (double)c}: the path without FMA
}

// logfTables is the layout of glibc's struct logf_data.
type logfTables struct {
	tab  [16][2]float64 // {1/c, log(c)}
	ln2  float64
	poly [3]float64
}
