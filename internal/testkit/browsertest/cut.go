package browsertest

import (
	"context"

	"github.com/chromedp/chromedp"
)

// cutJS lists the shown elements whose text is cut without an ellipsis
// the design meant: an element that clips what overflows it (overflow
// hidden or clip, on either axis) and whose content is wider than its box
// (scrollWidth > clientWidth) without text-overflow: ellipsis, or taller
// (scrollHeight > clientHeight, by more than 2 px of rounding) without a
// line clamp. A box of 1 px that clips (text for screen readers only) is
// meant. Each as "tag#id.class: 212 > 180 px wide ("text…")".
const cutJS = `(() => {
	const out = [];
	const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
		(typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\s+/).join(".") : "");
	const clips = v => v === "hidden" || v === "clip";
	for (const e of document.body.querySelectorAll("*")) {
		if (!e.getClientRects().length) continue;
		const s = getComputedStyle(e);
		if (s.visibility === "hidden") continue;
		if (!e.textContent.trim()) continue;
		// visually hidden for screen readers (a 1 px box that clips): meant
		if (e.clientWidth <= 1 || e.clientHeight <= 1) continue;
		const text = " (" + JSON.stringify(e.textContent.trim().slice(0, 40)) + ")";
		if (clips(s.overflowX) && e.scrollWidth > e.clientWidth + 1 && s.textOverflow !== "ellipsis")
			out.push(name(e) + ": " + e.scrollWidth + " > " + e.clientWidth + " px wide" + text);
		else if (clips(s.overflowY) && e.scrollHeight > e.clientHeight + 2 && (s.webkitLineClamp === "none" || !s.webkitLineClamp))
			out.push(name(e) + ": " + e.scrollHeight + " > " + e.clientHeight + " px tall" + text);
	}
	return out;
})()`

// Cut returns the shown elements of the page in ctx whose text is cut
// without an intended ellipsis (see cutJS), one line each. Empty: every
// text is whole, or ends in the ellipsis its style asks for.
func Cut(ctx context.Context) ([]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](cutJS))
}
