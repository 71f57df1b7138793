/**
 * Content-Security-Policy directives. Data answers (JSON, SVG, molblocks) get a policy under which
 * nothing can run: SVG depictions style their paths with `style` attributes, hence the inline
 * styles, and nothing else. HTML pages (the 3D viewer, descriptor tables, Swagger UI, Bull Board)
 * get scripts and styles from this origin plus exactly the inline blocks of the page being sent,
 * by their SHA-256: no 'unsafe-inline', and a script injected into a page could never match.
 */
import { createHash } from 'node:crypto';

export type Directives = Record<string, string[]>;

export function dataPolicy(frames: string[]): Directives {
  return {
    'default-src': ["'none'"],
    'style-src': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': frames,
  };
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const STYLE = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
const STYLE_ATTR = /\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const ENTITIES: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
const decode = (s: string) => s.replace(/&(?:quot|#39|lt|gt|amp);/g, (e) => ENTITIES[e]!);

/**
 * The page's policy: its own inline scripts, styles and style attributes, by hash. `anyInlineStyle`
 * is for the third-party UIs (Swagger UI, Bull Board): their React code renders SVG icons holding
 * `<style>` elements at run time, which no hash of the page can name, so their pages allow inline
 * styles (a hash in the directive would cancel that). Their scripts still come from this origin only.
 */
export function pagePolicy(html: string, frames: string[], anyInlineStyle = false): string {
  const scripts = new Set<string>();
  for (const m of html.matchAll(SCRIPT)) if (!/\ssrc\s*=/i.test(m[1]!)) scripts.add(sha256(m[2]!));
  const styles = new Set<string>();
  for (const m of html.matchAll(STYLE)) styles.add(sha256(m[1]!));
  const attrs = new Set<string>();
  for (const m of html.matchAll(STYLE_ATTR)) attrs.add(sha256(decode(m[1] ?? m[2]!)));
  return serialize({
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scripts],
    'script-src-attr': ["'none'"],
    'style-src': anyInlineStyle ? ["'self'", "'unsafe-inline'"] : ["'self'", ...styles, ...(attrs.size ? ["'unsafe-hashes'", ...attrs] : [])],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': frames,
  });
}

export const serialize = (d: Directives) =>
  Object.entries(d)
    .map(([k, v]) => (v.length ? `${k} ${v.join(' ')}` : k))
    .join('; ');
