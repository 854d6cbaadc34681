// Package trf reads and writes the FIDE Tournament Report File, TRF-16
// (FIDE Handbook C.04 Annex 2, "Format of Tournament Report File", by
// Christian Krause, approved 2015) and its successor TRF-2026, with the
// extensions of the pairing engines JaVaFo (TRF(x)) and bbpPairings
// (TRF(bx)), and the pairing output of both engines. It is pure: no I/O
// beyond the readers and writers it is handed, no clock.
//
// # The TRF-16 player line
//
// A player is one line beginning "001", in fixed columns (1-based,
// inclusive; a column is a character, not a byte):
//
//	 1- 3  001                     49-52  FIDE rating
//	 5- 8  starting rank 1..9999   54-56  FIDE federation
//	10     sex (m/w)               58-68  FIDE number
//	11-13  title (GM, IM, WGM...)  70-79  birth date YYYY/MM/DD
//	15-47  name "Lastname, First"  81-84  points, e.g. " 4.5"
//	                               86-89  rank
//
// and, for each round r (from 1), ten columns from 92+10(r-1): the
// opponent's starting rank (four columns; "0000" or blank for none), a
// blank, the colour (w, b, or - for none), a blank, and the result code:
//
//	1 = 0   win, draw, loss of a game played
//	+ -     forfeit win, forfeit loss (the game was not played)
//	W D L   win, draw, loss of a game that lasted less than one move (not rated)
//	H F U Z half-point bye, full-point bye, pairing-allocated bye, zero-point bye
//	blank   equivalent to Z; in a file written before the round is
//	        played, a scheduled game whose result is not known yet
//
// Letter codes are read in either case; a Z with an opponent is lichess's
// game in progress, read as not played yet.
//
// Every player line is checked by its columns, whatever else comes with
// the file: the columns between fields must be blank, a line must reach
// the points (81-84), a game needs its colour, a bye no opponent. A line
// that breaks one is refused with its line and the column, so a
// mis-aligned or truncated export never slips through as wrong numbers,
// and never shows up as a disagreement blamed on an opponent's line.
//
// Lines of other kinds — tournament data (012 name, 022 city, 042 start
// date, 122 time control, 132 round dates, 142 rounds...), team lines
// (013, 310), comments (###), national rating lines, the extension codes
// of JaVaFo's TRF(x) (XXR number of rounds, XXC configuration, XXS
// scoring, XXZ absent players, XXP, XXA) and bbpPairings' TRF(bx) (BBW,
// BBD... points) — are kept as read.
//
// # Text
//
// Lines end in LF, CR LF or CR (TRF-16's "each line shall have a CR as
// last character"; bbpPairings writes CR alone), in a TRF and in a
// pairing output alike. A file that is valid UTF-8 is read as UTF-8
// (JaVaFo's recommendation); one that is not, in the code page
// ReadOptions names ("windows-1250", ...), else Windows-1252 — which
// File.Encoding reports as assumed, and a byte Windows-1252 has no
// character for is refused asking for the file's encoding. A line longer
// than 64 KiB is refused with its number: no tournament program writes
// one.
//
// # Writing back
//
// Write gives back a file that was read byte for byte — its line ends,
// blank lines, comments, the order of its lines, a title aligned as its
// program aligned it, an unrated "   0", a "0000 - -" — but for the
// fields that changed: a round SetRound wrote and the points it moved,
// written in their columns. It writes in the encoding the file came in,
// unless WriteOptions names another. A File built by hand is written
// header first, then players by starting rank, lines ended by CR LF.
//
// # Points
//
// A file may state what results score (PointSystem): JaVaFo's XXS
// ("XXS W=3 D=1"), bbpPairings' BBW, BBD, BBL, BBZ, BBF, BBU, or
// TRF-2026's 162 ("162  W 3.0    D 1.0"); otherwise 1, ½, 0. SetRound
// moves points with it, as the pairing engines count them before they
// pair the next round; CheckPoints names the players whose points are
// not what their rounds score.
//
// # Pairing output
//
// JaVaFo's Advanced User Manual ("How to read the output of JaVaFo") and
// bbpPairings' README (which follows it) define the pairing file: the
// first line holds the number of pairs P; each of the next P lines holds
// a pair of starting ranks, White first; a player who gets the
// pairing-allocated bye is paired with 0 ("12 0"). [ReadPairings] and
// [WritePairings] read and write it.
//
// # Rounds
//
// [File.Round] reads a round from the round columns of a file written
// after pairing (or after playing): each game once, checked from both
// players' lines (each names the other, with opposite colours and
// matching results), boards ordered as FIDE's Swiss rules publish them
// (C.04.1 F.1, C.04.2): by the higher score of the pair, then the sum of
// the scores, then the better starting rank.
//
// [File.Import] reads the round a hall imports. A file has paired rounds
// 1 to n (PairedRounds) when each has a game and round n+1 has none; byes
// entered for rounds ahead ("0000 - H" in round 7 while round 5 is
// paired) pair nobody. With a pairing output the round is n+1 (or n, if
// n has no result yet: a TRF written after pairing), read by
// [File.Paired]: boards in the order of the pairs, checked against what
// the TRF says of the round — a bye asked for in its columns, its XXZ
// line, TRF-2026's 240 lines, a pairing already in its columns — every
// disagreement a Conflict naming both files, every player neither
// places listed (allowed only with ImportOptions.AllowAbsent). From the
// columns alone the round is n. Rounds before it are checked by Round.
//
// [File.SetRound] writes a round's results into the columns and moves the
// points, for the pairing program to read back before pairing the next
// round. [Codes] and [ResultOf] map the hall's results ("1-0", "+-",
// "0-0", "1/2-0", ...) to the codes of both players and back.
package trf
