package main
import (
 _ "github.com/apache/arrow-go/v18/arrow"
 _ "github.com/apache/arrow-go/v18/arrow/memory"
 _ "github.com/apache/arrow-go/v18/arrow/array"
 _ "github.com/goccy/go-json"
 _ "github.com/spf13/pflag"
 _ "github.com/olekukonko/tablewriter"
 _ "github.com/klauspost/compress/zstd"
 _ "go.yaml.in/yaml/v3"
 _ "github.com/BurntSushi/toml"
)
func main(){}
