package httpdoor_test

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/server/httpdoor"
)

func TestFlags(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		args []string
		want httpdoor.Limits
		err  string // the wrong flag's name, "" for none
	}{
		{nil, nil, httpdoor.Limits{BodyTimeout: httpdoor.DefaultBodyTimeout}, ""},
		{map[string]string{"HALL_HTTP_MAX_CONNS": "500", "HALL_HTTP_BODY_TIMEOUT": "10s"}, []string{"-http-max-anonymous", "100"},
			httpdoor.Limits{Conns: 500, Anonymous: 100, BodyTimeout: 10 * time.Second}, ""},
		{map[string]string{"HALL_HTTP_MAX_CONNS": "500"}, []string{"-http-max-conns", "40"}, httpdoor.Limits{Conns: 40, BodyTimeout: httpdoor.DefaultBodyTimeout}, ""},
		{nil, []string{"-http-max-conns", "-3"}, httpdoor.Limits{}, "-http-max-conns"},
		{nil, []string{"-http-max-conns", "5"}, httpdoor.Limits{}, "-http-max-conns"},
		{map[string]string{"HALL_HTTP_MAX_ANONYMOUS": "many"}, nil, httpdoor.Limits{}, "-http-max-anonymous"},
		{nil, []string{"-http-body-timeout", "30"}, httpdoor.Limits{}, "-http-body-timeout"},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var l httpdoor.Limits
		parse := l.Flags(fs, func(name, def string) string {
			if v, ok := c.env[name]; ok {
				return v
			}
			return def
		})
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		err := parse()
		switch {
		case c.err == "" && err != nil:
			t.Errorf("env %v, args %v: %v", c.env, c.args, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("env %v, args %v: %v; want an error naming %s", c.env, c.args, err, c.err)
		case c.err == "" && l != c.want:
			t.Errorf("env %v, args %v: %+v; want %+v", c.env, c.args, l, c.want)
		}
	}
}
