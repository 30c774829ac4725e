import { API_TITLE, API_VERSION } from "./openapi";
import { type AnyOperation, priceText, slugOf } from "./registry";

/** RFC 9727 API catalog as an RFC 9264 linkset (application/linkset+json). */
export function catalogLinkset(base: string) {
  return {
    linkset: [
      {
        anchor: `${base}/.well-known/api-catalog`,
        item: [{ href: `${base}/api/v1`, title: API_TITLE }],
      },
      {
        anchor: `${base}/api/v1`,
        "service-desc": [
          { href: `${base}/openapi.yaml`, type: "application/yaml" },
          { href: `${base}/openapi.json`, type: "application/json" },
        ],
        "service-doc": [{ href: `${base}/apis.md`, type: "text/markdown" }],
        "service-meta": [{ href: `${base}/apis.json`, type: "application/json" }],
        status: [{ href: `${base}/api/status`, type: "application/json" }],
      },
    ],
  };
}

/** The Link header that HEAD /.well-known/api-catalog answers with (RFC 9727 §2). */
export const catalogLinkHeader = (base: string) =>
  [
    `<${base}/.well-known/api-catalog>; rel="api-catalog"`,
    `<${base}/openapi.yaml>; rel="service-desc"; type="application/yaml"`,
    `<${base}/apis.md>; rel="service-doc"`,
  ].join(", ");

/** APIs.json description of the service, one entry per operation. */
export function apisJson(ops: readonly AnyOperation[], base: string) {
  return {
    aid: "uk-business-intelligence-api",
    name: API_TITLE,
    description: "HTTP/JSON API over UK public data: registers, filings, documents and change feeds; the same operations as MCP tools.",
    url: `${base}/apis.json`,
    specificationVersion: "0.19",
    version: API_VERSION,
    apis: ops.map((op) => ({
      aid: `uk-business-intelligence-api:${op.operationId}`,
      name: op.title,
      description: `${op.summary} Price: ${priceText(op.price)}.`,
      humanURL: `${base}/apis/${slugOf(op)}.md`,
      baseURL: `${base}${op.path}`,
      properties: [
        { type: "OpenAPI", url: `${base}/openapi.json` },
        { type: "Documentation", url: `${base}/apis/${slugOf(op)}.md` },
      ],
    })),
  };
}
