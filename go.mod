module github.com/labelinf/labelinf

go 1.26.8

require (
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/ALTree/bigfloat v0.2.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
