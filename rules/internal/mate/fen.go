package mate

import (
	"math/bits"
	"strconv"
	"strings"
)

// FEN parsing and validation.

// FENError says what is wrong with a FEN: Value is the FEN (cut to 120
// bytes), Problem what is wrong with it.
type FENError struct {
	Value, Problem string
}

func (e *FENError) Error() string { return "FEN " + strconv.Quote(e.Value) + ": " + e.Problem }

func mtFENError(fen, problem string) error {
	v := fen
	if len(v) > 120 {
		v = v[:120] + "..."
	}
	return &FENError{Value: v, Problem: problem}
}

func mtPieceOf(c byte) uint8 {
	switch c {
	case 'P':
		return mtPawn
	case 'N':
		return mtKnight
	case 'B':
		return mtBishop
	case 'R':
		return mtRook
	case 'Q':
		return mtQueen
	case 'K':
		return mtKing
	case 'p':
		return mtPawn | mtBlackBit
	case 'n':
		return mtKnight | mtBlackBit
	case 'b':
		return mtBishop | mtBlackBit
	case 'r':
		return mtRook | mtBlackBit
	case 'q':
		return mtQueen | mtBlackBit
	case 'k':
		return mtKing | mtBlackBit
	}
	return 0
}

func mtSqName(s int) string { return string([]byte{byte('a' + mtFile(s)), byte('1' + mtRank(s))}) }

var mtColourName = [2]string{"white", "black"}

// parseMateFEN reads and validates a FEN (see ValidateFEN). Its grammar is
// the chess library's, only stricter (castling rights "-" or distinct
// letters of KQkq), so whatever it accepts the library reads too.
func parseMateFEN(fen string) (matePos, error) {
	var p matePos
	p.ep = -1
	s := strings.TrimSpace(fen)
	if s == "" {
		return p, mtFENError(fen, "empty")
	}
	fields := strings.Split(s, " ")
	if len(fields) != 6 {
		return p, mtFENError(fen, "has "+strconv.Itoa(len(fields))+" space-separated fields, want 6 (placement, side to move, castling, en passant, halfmove clock, move number)")
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return p, mtFENError(fen, "placement has "+strconv.Itoa(len(ranks))+" ranks, want 8 separated by '/'")
	}
	var kings [2]int
	for i, rk := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(rk); j++ {
			c := rk[j]
			if c >= '1' && c <= '8' {
				f += int(c - '0')
				if f > 8 {
					break
				}
				continue
			}
			pc := mtPieceOf(c)
			if pc == 0 {
				return p, mtFENError(fen, "rank "+strconv.Itoa(r+1)+" has "+strconv.Quote(string(rk[j:j+1]))+", which is neither a piece letter (KQRBNP, kqrbnp) nor a digit 1-8")
			}
			if f > 7 {
				f++
				break
			}
			sq := r*8 + f
			if pc&7 == mtPawn && (r == 0 || r == 7) {
				return p, mtFENError(fen, mtColourName[pc>>3]+" pawn on "+mtSqName(sq)+": pawns cannot stand on rank 1 or 8")
			}
			if pc&7 == mtKing {
				kings[pc>>3]++
				p.king[pc>>3] = int8(sq)
			}
			p.sq[sq] = pc
			f++
		}
		if f != 8 {
			return p, mtFENError(fen, "rank "+strconv.Itoa(r+1)+" ("+strconv.Quote(rk)+") does not have 8 squares")
		}
	}
	for c := 0; c < 2; c++ {
		if kings[c] != 1 {
			return p, mtFENError(fen, mtColourName[c]+" has "+strconv.Itoa(kings[c])+" kings, want exactly 1")
		}
	}
	switch fields[1] {
	case "w":
		p.turn = mtWhite
	case "b":
		p.turn = mtBlack
	default:
		return p, mtFENError(fen, "side to move "+strconv.Quote(fields[1])+" is neither w nor b")
	}
	cs := fields[2]
	if cs != "-" {
		if len(cs) == 0 || len(cs) > 4 {
			return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" are neither - nor letters from KQkq")
		}
		for j := 0; j < len(cs); j++ {
			var bit uint8
			switch cs[j] {
			case 'K':
				bit = mtCastleWK
			case 'Q':
				bit = mtCastleWQ
			case 'k':
				bit = mtCastleBK
			case 'q':
				bit = mtCastleBQ
			default:
				return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" are neither - nor letters from KQkq")
			}
			if p.castle&bit != 0 {
				return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" repeat a letter")
			}
			p.castle |= bit
		}
	}
	if e := fields[3]; e != "-" {
		if len(e) != 2 || e[0] < 'a' || e[0] > 'h' || (e[1] != '3' && e[1] != '6') {
			return p, mtFENError(fen, "en passant square "+strconv.Quote(e)+" is neither - nor a square on rank 3 or 6")
		}
		p.ep = int8(int(e[1]-'1')*8 + int(e[0]-'a'))
	}
	if n, err := strconv.Atoi(fields[4]); err != nil || n < 0 {
		return p, mtFENError(fen, "halfmove clock "+strconv.Quote(fields[4])+" is not a whole number of 0 or more")
	}
	if n, err := strconv.Atoi(fields[5]); err != nil || n < 1 {
		return p, mtFENError(fen, "move number "+strconv.Quote(fields[5])+" is not a whole number of 1 or more")
	}
	p.normalize()
	return p, nil
}

// normalize drops castling rights whose king or rook has left its original
// square and an en passant square that no pawn could have passed or that no
// pawn can take on, then computes the hash.
func (p *matePos) normalize() {
	if p.sq[4] != mtKing || p.sq[7] != mtRook {
		p.castle &^= mtCastleWK
	}
	if p.sq[4] != mtKing || p.sq[0] != mtRook {
		p.castle &^= mtCastleWQ
	}
	if p.sq[60] != mtKing|mtBlackBit || p.sq[63] != mtRook|mtBlackBit {
		p.castle &^= mtCastleBK
	}
	if p.sq[60] != mtKing|mtBlackBit || p.sq[56] != mtRook|mtBlackBit {
		p.castle &^= mtCastleBQ
	}
	if p.ep >= 0 {
		e := int(p.ep)
		ok := false
		// White to move: ep on rank 6, black pawn on rank 5 below it,
		// its origin on rank 7 empty. Mirror for black.
		if p.turn == mtWhite && mtRank(e) == 5 {
			ok = p.sq[e] == 0 && p.sq[e+8] == 0 && p.sq[e-8] == mtPawn|mtBlackBit
		} else if p.turn == mtBlack && mtRank(e) == 2 {
			ok = p.sq[e] == 0 && p.sq[e-8] == 0 && p.sq[e+8] == mtPawn
		}
		if ok && !p.pawnCanTakeOn(e) {
			ok = false
		}
		if !ok {
			p.ep = -1
		}
	}
	p.occ = 0
	for s, pc := range p.sq {
		if pc != 0 {
			p.occ |= 1 << uint(s)
		}
	}
	p.hash = p.computeHash()
}

// pawnCanTakeOn reports whether a pawn of the side to move attacks square e.
func (p *matePos) pawnCanTakeOn(e int) bool {
	us := p.turn
	for b := mtGeo.pawnFrom[us][e]; b != 0; b &= b - 1 {
		if p.sq[bits.TrailingZeros64(b)] == mtPawn|us<<3 {
			return true
		}
	}
	return false
}

func (p *matePos) computeHash() uint64 {
	var h uint64
	for s, pc := range p.sq {
		if pc != 0 {
			h ^= mtGeo.zPiece[pc][s]
		}
	}
	h ^= mtGeo.zCastle[p.castle]
	if p.ep >= 0 {
		h ^= mtGeo.zEp[mtFile(int(p.ep))]
	}
	if p.turn == mtBlack {
		h ^= mtGeo.zTurn
	}
	return h
}
