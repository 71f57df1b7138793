/**
 * The 3D viewer page of depict_3d_molecule_depict_3D_get: one full-window 3Dmol.js viewer,
 * stick style, white background, as the upstream page (templates/mol.html) shows it. The viewer
 * script is served by this service (`/static/3Dmol-min.js`), never fetched from a CDN, so the
 * page works offline and loads nothing from third parties. No jQuery is needed.
 *
 * Checked in headless Chromium by test/api/depict3d-browser.test.ts. Two details come from it:
 * the molblock is added as 'sdf', because 3Dmol.js has no parser named 'mol' (it logs "Unknown
 * format" and guesses); and the page declares an empty icon, because otherwise every browser asks
 * the service for /favicon.ico, which it does not serve, and logs a failed request.
 */

/** Where the service serves node_modules/3dmol/build/3Dmol-min.js. */
export const VIEWER_SCRIPT = '/static/3Dmol-min.js';

/**
 * Text safe inside a `<script>` element: JSON string syntax, and every `<`, `>`, `&` and the
 * line separators U+2028/U+2029 escaped, so no `</script>` or `<!--` can end or confuse it.
 */
export function scriptString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function viewerPage(molblock: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>html, body { margin: 0; height: 100%; background: #fff; } #viewer { position: absolute; inset: 0; }</style>
<script src="${VIEWER_SCRIPT}"></script>
</head>
<body>
<div id="viewer"></div>
<script>
(function () {
  var molblock = ${scriptString(molblock)};
  var viewer = $3Dmol.createViewer(document.getElementById('viewer'), { backgroundColor: 'white' });
  viewer.addModel(molblock, 'sdf');
  viewer.setStyle({}, { stick: {} });
  viewer.zoomTo();
  viewer.render();
})();
</script>
</body>
</html>
`;
}
