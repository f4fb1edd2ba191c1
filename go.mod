module github.com/gamerules/gamerules

go 1.26
