import { z } from "@hono/zod-openapi";
import { INPUT_LIMITS } from "../../../platform/schemas";
import type { Services } from "../../../platform/services";
import { InputError } from "../../../shared/errors";

/** A page a caller gives (`url`): an absolute http(s) address, at most 500 characters; the safe fetcher checks the rest. */
export const PageUrl = z
  .string()
  .trim()
  .min(1, "is required")
  .max(INPUT_LIMITS.url.max, `must be at most ${INPUT_LIMITS.url.max} characters`)
  .openapi({ example: "https://www.example.co.uk/", type: "string", maxLength: INPUT_LIMITS.url.max });

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i;

/**
 * Fetches a caller's page through the safe fetcher (redirects followed and each checked) for the browser to render:
 * 422 `unreadable_input` unless it is an HTML page. The body is handed to the browser as its document, so the page
 * is fetched once.
 */
export async function fetchHtmlPage(services: Pick<Services, "web">, url: string) {
  const page = await services.web.fetch(url, { accept: "text/html,application/xhtml+xml", timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 }).catch((e: unknown) => {
    // The caller's own value is at fault: say which field.
    throw e instanceof InputError && !e.field ? new InputError(e.code, e.message, { field: "url" }) : e;
  });
  const type = page.contentType.split(";")[0].trim();
  // Without a content type the body must look like markup.
  if (type ? !HTML.test(type) : !/^\s*</.test(page.text.slice(0, 200)))
    throw new InputError("unreadable_input", `The address is not a web page (its content type is ${type || "not given and it does not look like HTML"}).`, { field: "url" });
  const headers: Record<string, string> = {};
  for (const k of ["content-language", "x-robots-tag", "link", "refresh"]) {
    const v = page.headers.get(k);
    if (v) headers[k] = v;
  }
  const cookies = page.headers.getAll("set-cookie");
  if (cookies.length) headers["set-cookie"] = cookies.join("\n");
  return { ...page, document: { body: page.body, contentType: page.contentType || "text/html", status: page.status, headers } };
}
