package ident

import "testing"

func TestCheckHallID(t *testing.T) {
	for id, ok := range map[string]bool{
		"bergen": true, "hall-3f9a1c2e": true, "A_1": true, "x": true,
		"": false, "two words": false, "hall.bergen": false, "hall>": false, "*": false,
		"abcdefghijklmnopqrstuvwxyz0123456": false, // 33
	} {
		t.Run(id, func(t *testing.T) {
			if err := CheckHallID(id); (err == nil) != ok {
				t.Errorf("CheckHallID(%q) = %v, want ok %v", id, err, ok)
			}
		})
	}
}

func TestHashSecret(t *testing.T) {
	// The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
	if got, want := HashSecret("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("HashSecret(abc) = %s, want %s", got, want)
	}
}
