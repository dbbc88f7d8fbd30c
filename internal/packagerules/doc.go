// Package packagerules holds, as tests, the rules CONTRIBUTING.md sets for
// the packages of this module: the public packages export only public
// types, and no feature imports another. It has no code of its own.
package packagerules
