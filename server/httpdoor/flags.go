package httpdoor

import (
	"flag"
	"fmt"
	"strconv"
	"time"
)

// minFlagConns is the least -http-max-conns: the reserve's eight and
// room beside them.
const minFlagConns = 16

// Flags registers a command's flags of l on fs — -http-max-conns,
// -http-max-anonymous, -http-body-timeout — with their defaults from the
// environment (env(name, default): HALL_HTTP_MAX_CONNS, ...). Call the
// returned function once fs is parsed: it sets l, or says which flag is
// wrong.
func (l *Limits) Flags(fs *flag.FlagSet, env func(name, def string) string) (parse func() error) {
	conns := env("HALL_HTTP_MAX_CONNS", "0")
	anon := env("HALL_HTTP_MAX_ANONYMOUS", "0")
	body := env("HALL_HTTP_BODY_TIMEOUT", DefaultBodyTimeout.String())
	fs.StringVar(&conns, "http-max-conns", conns, "HTTP connections held at once, the reserve for health checks included; 0: half the process's descriptor limit, the rest left to gRPC (HALL_HTTP_MAX_CONNS)")
	fs.StringVar(&anon, "http-max-anonymous", anon, "of them, connections no request has shown a token or session on yet; 0: half of -http-max-conns (HALL_HTTP_MAX_ANONYMOUS)")
	fs.StringVar(&body, "http-body-timeout", body, "how long a request's body may take to arrive, from its headers; a slower one is cut (HALL_HTTP_BODY_TIMEOUT)")
	return func() error {
		var err error
		if l.Conns, err = strconv.Atoi(conns); err != nil || l.Conns < 0 || l.Conns > 0 && l.Conns < minFlagConns {
			return fmt.Errorf("-http-max-conns %q: want %d connections or more, or 0 for half the descriptor limit", conns, minFlagConns)
		}
		if l.Anonymous, err = strconv.Atoi(anon); err != nil || l.Anonymous < 0 {
			return fmt.Errorf("-http-max-anonymous %q: want a number of connections, or 0 for half of -http-max-conns", anon)
		}
		if l.BodyTimeout, err = time.ParseDuration(body); err != nil || l.BodyTimeout <= 0 {
			return fmt.Errorf("-http-body-timeout %q: want a duration such as 30s", body)
		}
		return nil
	}
}
