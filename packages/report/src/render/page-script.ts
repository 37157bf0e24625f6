/**
 * The page's only script (allowed by its hash in the Content-Security-Policy; it holds no
 * data from the run). A clip's <video> is created when its card's "play clip" is opened:
 * hundreds of idle players would cost the page seconds to lay out. The player's source is
 * the card's `data-clip`, a percent-encoded path relative to the page.
 */
export const PAGE_SCRIPT = `document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (!(details instanceof HTMLDetailsElement) || !details.open) return;
  const clip = details.getAttribute("data-clip");
  if (!clip || details.querySelector("video")) return;
  const video = document.createElement("video");
  video.controls = true;
  video.preload = "metadata";
  video.playsInline = true;
  video.src = clip;
  details.append(video);
}, true);`;
