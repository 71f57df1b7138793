/**
 * The web interface's pages (api/web/, docs/web.md) in the OpenAPI document: HTML answers at
 * COCONUT's page paths, and the HTML page that `/tools` and `/jobs/{id}` answer a browser's
 * navigation (Accept naming text/html) beside their JSON.
 */
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const PAGES: [string, string, string[]][] = [
  ['/search', 'Search page: one box (type detected as COCONUT does), structure editor, filters, results grid; the query in the URL (q, type, tagType, threshold, page)', []],
  ['/compounds/{identifier}', 'Compound page: depiction, 3D viewer, identifiers, properties, classes, organisms, citations, collections, similar compounds, downloads', ['identifier']],
  ['/collections', 'Collections page (the list needs a catalog token)', []],
  ['/dereplication', 'Dereplication page: m/z values, adducts, tolerance, taxon', []],
  ['/tools/{operation}', 'A chemistry operation as a form generated from this document (operation = its operationId)', ['operation']],
  ['/curator', 'Curators\' page: sign in, the report queue (approve, reject), imports', []],
];

/** Adds the pages to `paths` (and text/html to the negotiated API routes' 200 answers). */
export function addWebPages(paths: Record<string, Record<string, any>>): void {
  for (const [path, summary, params] of PAGES) {
    paths[path] = {
      get: {
        operationId: `web_${path.split('/')[1]}${params.length ? '_page' : ''}`,
        security: [],
        tags: ['web'],
        summary,
        ...(params.length ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) } : {}),
        responses: { '200': html('The page (an HTML shell; its script reads the API)') },
      },
    };
  }
  for (const path of ['/tools', '/jobs/{id}']) {
    const get = paths[path]?.get;
    const ok = get?.responses?.['200'];
    if (!ok) continue;
    // A copy: the routers' health routes share one answer object.
    get.responses = {
      ...get.responses,
      '200': { ...ok, description: `${ok.description}; a browser's navigation (Accept naming text/html) gets the web page`, content: { ...ok.content, 'text/html': { schema: { type: 'string' } } } },
    };
  }
}

/**
 * The document as Swagger UI gets it (/docs/json): without the pages, which are for people, not
 * API operations. Swagger UI (5.x, @fastify/swagger-ui 6) stopped rendering after the first 8
 * operations once the document held about 130 (the pages pushed it there): only the first tag
 * appeared, with no error. /openapi.json keeps them.
 */
export function withoutWebPages<T extends { paths: Record<string, Record<string, any>> }>(doc: T): T {
  const paths = Object.fromEntries(Object.entries(doc.paths).filter(([, ops]) => !Object.values(ops).some((op) => op?.tags?.[0] === 'web')));
  return { ...doc, paths };
}
