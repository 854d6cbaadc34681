package standings

// The FIDE Rating Regulations' conversion tables (B.02, art. 8.1): dp
// from a fractional score p (8.1.1, p in hundredths 0..100), and the
// expected score PD of the higher rated player from a rating difference
// D (8.1.2; the lower rated player's is 1-PD). TPR (art. 10.2 of the
// Tie-Break Regulations) and PTP (10.3) are defined through them.
var dpOfP = [101]int{
	-800,
	-677, -589, -538, -501, -470, -444, -422, -401, -383, -366,
	-351, -336, -322, -309, -296, -284, -273, -262, -251, -240,
	-230, -220, -211, -202, -193, -184, -175, -166, -158, -149,
	-141, -133, -125, -117, -110, -102, -95, -87, -80, -72,
	-65, -57, -50, -43, -36, -29, -21, -14, -7, 0,
	7, 14, 21, 29, 36, 43, 50, 57, 65, 72,
	80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
	158, 166, 175, 184, 193, 202, 211, 220, 230, 240,
	251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
	383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
}

// pdTop[k] is the largest rating difference whose PD is 50+k hundredths
// (8.1.2); a difference above 735 is 1.00.
var pdTop = [...]int{
	3, 10, 17, 25, 32, 39, 46, 53, 61, 68, // .50-.59
	76, 83, 91, 98, 106, 113, 121, 129, 137, 145, // .60-.69
	153, 162, 170, 179, 188, 197, 206, 215, 225, 235, // .70-.79
	245, 256, 267, 278, 290, 302, 315, 328, 344, 357, // .80-.89
	374, 391, 410, 432, 456, 484, 517, 559, 619, 735, // .90-.99
}

// expected returns, in hundredths, the score a player rated r expects
// against one rated opp (8.1.2).
func expected(r, opp int) int {
	d := r - opp
	neg := d < 0
	if neg {
		d = -d
	}
	pd := 100
	for k, top := range pdTop {
		if d <= top {
			pd = 50 + k
			break
		}
	}
	if neg {
		return 100 - pd
	}
	return pd
}

// halfUp returns num/den rounded to the nearest whole number, halves up
// (num >= 0, den > 0).
func halfUp(num, den int64) int64 { return (2*num + den) / (2 * den) }

// aro is the average of ratings, rounded (art. 10.1).
func aro(ratings []int) int {
	if len(ratings) == 0 {
		return 0
	}
	var s int64
	for _, r := range ratings {
		s += int64(r)
	}
	return int(halfUp(s, int64(len(ratings))))
}

// tpr is ARO + dp(p), p the fractional score rounded to hundredths
// (art. 10.2); score in hundredths of a point on the 1-½-0 scale.
func tpr(score int64, ratings []int) int {
	if len(ratings) == 0 {
		return 0
	}
	p := halfUp(score, int64(len(ratings)))
	p = max(0, min(100, p))
	return aro(ratings) + dpOfP[p]
}

// ptp is the lowest rating R whose expected score against the ratings
// reaches the score (art. 10.3: perfect tournament performance); a zero
// score is the lowest rating less 800.
func ptp(score int64, ratings []int) int {
	if len(ratings) == 0 {
		return 0
	}
	lo, hi := ratings[0], ratings[0]
	for _, r := range ratings {
		lo, hi = min(lo, r), max(hi, r)
	}
	if score <= 0 {
		return lo - 800
	}
	if score > int64(100*len(ratings)) {
		return hi + 800
	}
	sum := func(r int) int64 {
		var s int64
		for _, o := range ratings {
			s += int64(expected(r, o))
		}
		return s
	}
	// sum is non-decreasing in r: find the least r with sum(r) >= score.
	a, b := lo-801, hi+801 // sum(a) < score <= sum(b)
	for b-a > 1 {
		m := a + (b-a)/2
		if sum(m) >= score {
			b = m
		} else {
			a = m
		}
	}
	return b
}
