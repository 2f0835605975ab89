package query_test

import (
	"os"

	"github.com/presage-dvm/presage/exports/query"
)

func ExampleWrite() {
	rows := func(header func([]string) error, row func([]any) error) error {
		if err := header([]string{"id", "program", "tstart"}); err != nil {
			return err
		}
		if err := row([]any{int64(1), "jac", nil}); err != nil {
			return err
		}
		return row([]any{int64(2), "gauss", 2e-5})
	}
	if err := query.Write(os.Stdout, query.Options{Format: "csv"}, rows); err != nil {
		panic(err)
	}
	// Output:
	// id,program,tstart
	// 1,jac,
	// 2,gauss,2e-05
}
