package server

import "errors"

// errNotMade is the answer of a method of a zero value: a stack that its
// constructor did not make does not serve.
var errNotMade = errors.New("server: the zero value does not serve; make one with its constructor (server.New, server.NewAPI)")
