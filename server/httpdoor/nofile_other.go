//go:build !unix

package httpdoor

// DescriptorLimit returns 0: the process's limit is not known here.
func DescriptorLimit() int { return 0 }
