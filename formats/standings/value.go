package standings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Points are a number of points in hundredths: 1 point is 100, ½ is 50,
// a 3-1-0 win 300. Every scoring system a tournament announces (a TRF's
// XXS, BBW, 162 lines) is written with at most two decimals.
type Points int64

// PointsOf converts points read as a number (3.0, 0.5) to Points; it
// fails on a value with more than two decimals or out of range.
func PointsOf(f float64) (Points, error) {
	h := math.Round(f * 100)
	if math.Abs(f*100-h) > 1e-6 || math.Abs(h) > 1e12 {
		return 0, inputErr("%v points: want a value with at most two decimals", f)
	}
	return Points(h), nil
}

// Value returns the points as a tie-break value.
func (p Points) Value() Value { return Value(p) * 100 }

func (p Points) String() string { return p.Value().String() }

// Value is a tie-break value, exact: in ten-thousandths, so that a
// Sonneborn-Berger product of two scores in hundredths (35.25, 3 × 6.5)
// is exact, as is an average rounded to two decimals (AOB). Ratings (ARO,
// TPR) are whole numbers of it: Value(2450 * Unit).
type Value int64

// Unit is the Value of 1.
const Unit Value = 10000

// Int returns the Value of a whole number.
func Int(n int) Value { return Value(n) * Unit }

// String prints the value with as few decimals as it needs: "20.5",
// "35.25", "7", "2450".
func (v Value) String() string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(int64(v/Unit), 10)
	if frac := int64(v % Unit); frac != 0 {
		f := strings.TrimRight(fmt.Sprintf("%04d", frac), "0")
		s += "." + f
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Fixed prints the value with exactly d decimals (0 to 4), rounded half
// up: Fixed(1) of 20.5 is "20.5", of 45 "45.0".
func (v Value) Fixed(d int) string {
	d = max(0, min(4, d))
	scale := Value(1)
	for range 4 - d {
		scale *= 10
	}
	neg := v < 0
	if neg {
		v = -v
	}
	r := (v + scale/2) / scale // in 10^-d
	den := int64(1)
	for range d {
		den *= 10
	}
	s := strconv.FormatInt(int64(r)/den, 10)
	if d > 0 {
		s += "." + fmt.Sprintf("%0*d", d, int64(r)%den)
	}
	if neg && r != 0 {
		s = "-" + s
	}
	return s
}

// divRound returns num/den rounded half up to a multiple of step (both
// num and den positive or num zero).
func divRound(num, den, step Value) Value {
	if den == 0 {
		return 0
	}
	// num/den in units of step, half up: floor((2*num + den*step) / (2*den*step)) * step
	return ((2*num + den*step) / (2 * den * step)) * step
}
