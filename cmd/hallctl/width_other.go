//go:build !unix

package main

import "os"

// terminalWidth is 0 where hallctl cannot ask the terminal: the width
// comes from -width or $COLUMNS.
func terminalWidth(*os.File) int { return 0 }
