//go:build !js

package wsdial

import "github.com/coder/websocket"

func (t *Transport) dialOptions(protocols []string) *websocket.DialOptions {
	return &websocket.DialOptions{HTTPClient: t.HTTPClient, Subprotocols: protocols}
}
