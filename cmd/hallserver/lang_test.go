package main

import (
	"io"
	"strings"
	"testing"
)

// -lang (or HALL_LANG) sets the pages' default language, one the hall has
// a catalogue for; another is refused, naming those there are.
func TestLangFlag(t *testing.T) {
	m := &Main{Stderr: io.Discard}
	if err := m.ParseFlags(nil, func(k string) string { return map[string]string{"HALL_LANG": "hy"}[k] }); err != nil || m.Lang != "hy" {
		t.Errorf("HALL_LANG=hy: Lang %q, %v", m.Lang, err)
	}
	m = &Main{Stderr: io.Discard}
	if err := m.ParseFlags([]string{"-lang", "ko"}, func(string) string { return "" }); err != nil || m.Lang != "ko" {
		t.Errorf("-lang ko: Lang %q, %v", m.Lang, err)
	}
	m = &Main{Stderr: io.Discard}
	if err := m.ParseFlags(nil, func(string) string { return "" }); err != nil || m.Lang != "en" {
		t.Errorf("no -lang: Lang %q, %v; want en", m.Lang, err)
	}
	err := (&Main{Stderr: io.Discard}).ParseFlags([]string{"-lang", "de"}, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "en, hy, ko, ru") {
		t.Errorf("-lang de: %v, want a refusal naming the languages", err)
	}
}
