// Command conformance runs the clock conformance vectors (spec/conformance.md)
// against the rules package.
//
//	go run ./tools/conformance DIR...
//
// It runs every *.json below each DIR, prints one line per failing vector
// naming the step and the fields that differ, and ends with the line
// "N passed, M failed". The exit status is 0 only when nothing failed; a
// file that cannot be read or parsed counts as one failure. With -v it also
// prints a line per passing vector.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/chesshall/hallclock/rules/conformance"
)

func main() {
	verbose := flag.Bool("v", false, "print passing vectors too")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: conformance [-v] DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	passed, failed := 0, 0
	for _, dir := range flag.Args() {
		vs, errs := conformance.LoadDir(dir)
		for _, err := range errs {
			fmt.Println(err)
			failed++
		}
		for i := range vs {
			if f := vs[i].Run(); f != nil {
				fmt.Println(f)
				failed++
				continue
			}
			if *verbose {
				fmt.Printf("ok %s: %s\n", vs[i].File, vs[i].Name)
			}
			passed++
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
