// Package enrol makes a browser a clock of the hall: one-time clock links
// (Links.Issue: `hallctl clock-link`, the dashboard's "Use a tablet as this
// table's clock"), valid CodeTTL and spent once like sign-in links, and the
// page that spends one (GET /clock/enrol?code=..., whose button POSTs).
// Spending a link makes a device of kind tablet with a device token of its
// own, assigned to the link's board or put at its table of the hall plan
// (and given the board there whose game is not over), audited; the page
// keeps {device_id, token, label} in the browser's localStorage under
// StorageKey and opens the clock face (/clock). The device is then like any
// clock: listed, assigned, revocable (revoking its token ends its stream).
package enrol
