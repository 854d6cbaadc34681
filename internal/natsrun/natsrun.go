// Package natsrun runs NATS servers with JetStream inside this process
// (github.com/nats-io/nats-server/v2): the hall server's embedded default,
// and the single servers and three-node clusters the tests and benchmarks
// start. Nothing needs to be installed.
//
// # Usage
//
//	n, err := natsrun.Start(natsrun.Options{Dir: "hall-data/nats"})   // 127.0.0.1, any free port
//	defer n.Shutdown()
//	nc, err := nats.Connect(n.URL())
//
//	c, err := natsrun.StartCluster("halls", dir, 3)   // three nodes, JetStream clustered
//	nc, err := nats.Connect(c.URLs())
//	c.Nodes[1].Shutdown(); c.Nodes[1].Restart()       // a node down and back, same ports and data
//
// A node keeps its ports across Restart, so clients' reconnect lists and
// the other nodes' routes find it again.
//
// # Authorization and TLS
//
// With Options.Users set, only those users connect (anonymous clients
// are refused), each with its own publish and subscribe permissions
// (users.go: HallUser may write one hall's stream, FollowerUser may only
// read streams). Options.TLS serves clients over TLS; connections inside
// the process (nats.InProcessServer) need no TLS.
//
// # Failing to start
//
// A server that cannot start (its port in use, its store unusable) says
// so at once: Start returns its error, wrapping ErrListen for a port it
// cannot bind, instead of waiting for a server that will never be ready.
package natsrun

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Options configure one NATS server.
type Options struct {
	Name string // server name, unique in a cluster (default "hall")
	Dir  string // JetStream's storage directory (required)
	Host string // listen host (default 127.0.0.1)
	Port int    // client port; 0: any free port
	// Cluster is the cluster's name; "" runs a single server.
	Cluster     string
	ClusterPort int      // 0: any free port
	Routes      []string // the other nodes' cluster URLs (nats://host:port)
	// Debug logs the server's notices to stderr.
	Debug bool
	// Users are the only clients allowed to connect; none: anyone may.
	Users []User
	// TLS, if set, serves clients over TLS.
	TLS *tls.Config
}

// ErrListen: the server cannot bind its client (or cluster) port, most
// likely because another program holds it.
var ErrListen = errors.New("cannot listen")

// Node is a running (or stopped) NATS server.
type Node struct {
	opts Options
	srv  *server.Server
}

// Start starts a NATS server with JetStream and waits until it accepts
// connections.
func Start(o Options) (*Node, error) {
	if o.Dir == "" {
		return nil, fmt.Errorf("natsrun: no JetStream directory")
	}
	if o.Name == "" {
		o.Name = "hall"
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	n := &Node{opts: o}
	return n, n.start()
}

// readyWait is how long a starting server may take to accept connections.
const readyWait = 20 * time.Second

func (n *Node) start() error {
	o := n.opts
	port := o.Port
	if port == 0 {
		port = -1 // nats-server: any free port
	}
	so := &server.Options{
		ServerName: o.Name, Host: o.Host, Port: port,
		JetStream: true, StoreDir: o.Dir,
		NoSigs: true, NoLog: true,
		// The embedded server is a guest in the hall's process: modest
		// limits, and no HTTP monitoring port.
		JetStreamMaxMemory: 64 << 20,
		TLSConfig:          o.TLS,
	}
	if o.TLS != nil {
		so.TLS, so.TLSTimeout = true, 5
	}
	for _, u := range o.Users {
		so.Nkeys = append(so.Nkeys, u.nkeyUser())
	}
	if o.Cluster != "" {
		cport := o.ClusterPort
		if cport == 0 {
			cport = -1
		}
		so.Cluster = server.ClusterOpts{Name: o.Cluster, Host: o.Host, Port: cport}
		for _, r := range o.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return fmt.Errorf("natsrun: route %q: %w", r, err)
			}
			so.Routes = append(so.Routes, u)
		}
	}
	s, err := server.NewServer(so)
	if err != nil {
		return fmt.Errorf("natsrun: %w", err)
	}
	log := newServerLog(o.Name, o.Debug)
	s.SetLogger(log, o.Debug, false)
	s.Start()
	if err := waitReady(s, log); err != nil {
		s.Shutdown()
		s.WaitForShutdown()
		return fmt.Errorf("natsrun: server %s: %w", o.Name, err)
	}
	n.srv = s
	// Keep the ports for a restart.
	n.opts.Port = s.Addr().(*net.TCPAddr).Port
	if o.Cluster != "" {
		n.opts.ClusterPort = s.ClusterAddr().Port
	}
	return nil
}

// waitReady waits until s accepts connections, or reports why it never
// will as soon as it logs a fatal error. Generous: a node started under
// load (the race detector, browsers and fleets beside it in CI) may take
// seconds to be ready.
func waitReady(s *server.Server, log *serverLog) error {
	deadline := time.Now().Add(readyWait)
	for !s.ReadyForConnections(50 * time.Millisecond) {
		if f := log.failure(); f != "" {
			if strings.Contains(f, "Error listening") {
				return fmt.Errorf("%w: %s", ErrListen, f)
			}
			return errors.New(f)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %s", readyWait)
		}
	}
	return nil
}

// Name is the server's name.
func (n *Node) Name() string { return n.opts.Name }

// URL is the client URL (nats://host:port).
func (n *Node) URL() string { return fmt.Sprintf("nats://%s:%d", n.opts.Host, n.opts.Port) }

// ClusterURL is the URL other nodes route to.
func (n *Node) ClusterURL() string {
	return fmt.Sprintf("nats://%s:%d", n.opts.Host, n.opts.ClusterPort)
}

// Server is the running server (nil once shut down), for in-process
// connections (nats.InProcessServer).
func (n *Node) Server() *server.Server { return n.srv }

// Running reports whether the node serves.
func (n *Node) Running() bool { return n.srv != nil }

// Shutdown stops the server and waits until it has stopped. Its data
// stay for Restart.
func (n *Node) Shutdown() {
	if n.srv == nil {
		return
	}
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
	n.srv = nil
}

// Restart starts the node again on the same ports and data.
func (n *Node) Restart() error {
	if n.srv != nil {
		return fmt.Errorf("natsrun: %s is running", n.opts.Name)
	}
	return n.start()
}

// Cluster is a NATS cluster of nodes with JetStream clustered.
type Cluster struct {
	Nodes []*Node
}

// StartCluster starts size nodes named n1, n2... with their data under
// dir, routed to each other. JetStream in a cluster needs every node's
// routes from the start, so the cluster ports are chosen first (free
// ports on 127.0.0.1, then bound by the nodes).
//
// A port chosen free may be taken before its node binds it (by another
// process, or an outgoing connection's local port while tests beside it
// connect hundreds of clocks): then that node never gets ready, and the
// whole cluster is started again on new ports and fresh directories, up
// to three times.
func StartCluster(name, dir string, size int) (*Cluster, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var c *Cluster
		sub := dir
		if attempt > 1 {
			sub = filepath.Join(dir, fmt.Sprintf("attempt%d", attempt))
		}
		if c, err = startCluster(name, sub, size); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func startCluster(name, dir string, size int) (*Cluster, error) {
	var routes []string
	ports := make([]int, size)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("natsrun: %w", err)
		}
		ports[i] = l.Addr().(*net.TCPAddr).Port
		l.Close()
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	c := &Cluster{}
	// Start the nodes together: each waits for the others' routes.
	type started struct {
		i   int
		n   *Node
		err error
	}
	ch := make(chan started, size)
	for i := range size {
		go func() {
			o := Options{Name: fmt.Sprintf("n%d", i+1), Dir: filepath.Join(dir, fmt.Sprintf("n%d", i+1)), Cluster: name,
				ClusterPort: ports[i], Routes: routes}
			n, err := Start(o)
			ch <- started{i, n, err}
		}()
	}
	c.Nodes = make([]*Node, size)
	var firstErr error
	for range size {
		s := <-ch
		c.Nodes[s.i] = s.n
		if s.err != nil && firstErr == nil {
			firstErr = s.err
		}
	}
	if firstErr != nil {
		c.Shutdown()
		return nil, firstErr
	}
	if err := c.WaitJetStream(30 * time.Second); err != nil {
		c.Shutdown()
		return nil, err
	}
	return c, nil
}

// WaitJetStream waits until the running nodes have a JetStream meta
// leader and are current with it: before that, JetStream requests go
// unanswered (a new cluster takes a few seconds to elect one).
func (c *Cluster) WaitJetStream(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		leader, current := false, true
		for _, n := range c.Nodes {
			if n == nil || n.srv == nil {
				continue
			}
			leader = leader || n.srv.JetStreamIsLeader()
			current = current && n.srv.JetStreamIsCurrent()
		}
		if leader && current {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natsrun: no JetStream meta leader after %v", timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// URLs lists the nodes' client URLs, comma-separated (nats.Connect takes
// them so).
func (c *Cluster) URLs() string {
	urls := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		urls[i] = n.URL()
	}
	return strings.Join(urls, ",")
}

// Shutdown stops every node.
func (c *Cluster) Shutdown() {
	for _, n := range c.Nodes {
		if n != nil {
			n.Shutdown()
		}
	}
}
