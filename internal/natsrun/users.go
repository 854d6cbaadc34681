package natsrun

import (
	"github.com/nats-io/nats-server/v2/server"

	"github.com/chesshall/hallclock/formats/hallstream"
)

// User is a client allowed to connect to a server with Options.Users: a
// public nkey (U...) whose seed the client signs the server's challenge
// with (nats.NkeyOptionFromSeed), and what it may publish and subscribe
// to.
type User struct {
	NKey      string
	Publish   Permission
	Subscribe Permission
}

// Permission lists the subjects allowed and, within them, denied.
type Permission struct {
	Allow, Deny []string
}

func (u User) nkeyUser() *server.NkeyUser {
	sp := func(p Permission) *server.SubjectPermission {
		if len(p.Allow) == 0 && len(p.Deny) == 0 {
			return nil
		}
		return &server.SubjectPermission{Allow: p.Allow, Deny: p.Deny}
	}
	return &server.NkeyUser{Nkey: u.NKey, Permissions: &server.Permissions{Publish: sp(u.Publish), Subscribe: sp(u.Subscribe)}}
}

// jsAPI is JetStream's API prefix.
const jsAPI = "$JS.API."

// HallUser is the hall's own user for its stream: it may write hall's
// subjects and create, read and purge hall's stream, nothing else (not
// delete it, not touch another hall's). The same permissions suit an
// external server's configuration (docs/nats-security.md).
func HallUser(nkey, hall string) User {
	stream := hallstream.StreamName(hall)
	return User{NKey: nkey,
		Publish: Permission{Allow: []string{
			hallstream.Subjects(hall),
			jsAPI + "INFO",
			jsAPI + "STREAM.CREATE." + stream,
			jsAPI + "STREAM.UPDATE." + stream,
			jsAPI + "STREAM.INFO." + stream,
			jsAPI + "STREAM.PURGE." + stream,
			jsAPI + "STREAM.MSG.GET." + stream,
			jsAPI + "DIRECT.GET." + stream,
			jsAPI + "DIRECT.GET." + stream + ".>",
		}},
		Subscribe: Permission{Allow: []string{"_INBOX.>"}},
	}
}

// FollowerUser is a gateway's user: it may find the halls' streams, read
// them message by message, and follow them through ephemeral consumers
// created on JetStream's legacy ephemeral subject (CONSUMER.CREATE.<stream>,
// where the server refuses a durable name), with flow control. It writes
// nothing to any stream (no publish on hall.>, no stream created, changed,
// purged or deleted, no message deleted) and manages no consumer: none
// durable, none deleted, none listed, none pulled from.
func FollowerUser(nkey string) User {
	return User{NKey: nkey,
		Publish: Permission{Allow: []string{
			jsAPI + "INFO",
			jsAPI + "STREAM.NAMES",
			jsAPI + "STREAM.LIST",
			jsAPI + "STREAM.INFO.*",
			jsAPI + "STREAM.MSG.GET.*",
			jsAPI + "DIRECT.GET.>",
			jsAPI + "CONSUMER.CREATE.*",
			"$JS.FC.>",
		}},
		Subscribe: Permission{Allow: []string{"_INBOX.>"}},
	}
}
