package browsertest

import (
	"context"

	"github.com/chromedp/chromedp"
)

// widerJS lists the shown elements of the page that reach past the
// viewport's left or right edge (more than half a pixel), each as
// "tag#id.class: left–right px", outermost first, and the page itself
// when it is wider than the viewport. An element counts wherever it is:
// inside a panel that scrolls or clips (a close button pushed off a panel
// is as out of reach as one off the page). Only the outermost of a chain
// of elements that all reach past is named, so one cause is one line.
const widerJS = `(() => {
	const W = document.documentElement.clientWidth, out = [];
	const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
		(typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\s+/).join(".") : "");
	if (document.documentElement.scrollWidth > W + 0.5) out.push("the page: " + document.documentElement.scrollWidth + " px wide");
	const past = new Set();
	for (const e of document.body.querySelectorAll("*")) {
		if (!e.getClientRects().length) continue;
		if (getComputedStyle(e).visibility === "hidden") continue;
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		if (r.right <= W + 0.5 && r.left >= -0.5) continue;
		past.add(e);
		if (e.parentElement && past.has(e.parentElement)) continue;
		out.push(name(e) + ": " + Math.round(r.left) + "–" + Math.round(r.right) + " px" +
			(e.textContent.trim() ? " (" + JSON.stringify(e.textContent.trim().slice(0, 40)) + ")" : ""));
	}
	return out;
})()`

// Wider returns the shown elements of the page in ctx that reach past
// the viewport's edges (and the page itself if it is wider than the
// viewport), one line each: "button#link-open: 412–534 px ("Sign in
// another device")". Empty: everything fits the width. Tests of a page
// at a phone's width fail on any.
func Wider(ctx context.Context) ([]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](widerJS))
}
