package opsgenimpl

// NotComparable, as the first field of a struct (_ opsgenimpl.NotComparable),
// makes the struct not comparable: == on it does not compile, nor does its
// use as a map key. Every object and parameter struct opsgen generates
// starts with one. Their optional fields are pointers, which == compares
// by address, not by what they point to, so an == that compiled would be
// wrong in the way that is hardest to see; compare generated values with
// reflect.DeepEqual or go-cmp. It also spares the compiler an equality
// function for every struct, which in a large package (GitHub's API: 2,500
// structs) is a tenth of its build memory. It takes no space.
type NotComparable [0]func()
