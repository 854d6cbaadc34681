//go:build js

package wsdial

import "github.com/coder/websocket"

// In a browser the page's own WebSocket dials: no HTTP client.
func (t *Transport) dialOptions(protocols []string) *websocket.DialOptions {
	return &websocket.DialOptions{Subprotocols: protocols}
}
