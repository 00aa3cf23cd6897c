module github.com/flitsim/flitsim

go 1.26
