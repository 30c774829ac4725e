/**
 * What the document readers share (SPEC §4.3, issue 17 §1): the `url` and `{text, url}` inputs, fetching the document
 * through the safe fetcher (HTML, PDF or plain text), the `read` object, the summary, and the two operations (GET by
 * URL, POST with text or a URL) each reader is. The readers themselves are pure (services/documents/*).
 */
import { thousands } from "../../shared/format";
import { z } from "@hono/zod-openapi";
import { INPUT_LIMITS, nonSpacePattern } from "../../platform/schemas";
import { type OpContext, type Operation, defineOperation } from "../../platform/registry";
import type { Services } from "../../platform/services";
import { type Doc, MAX_DOC_CHARS, MAX_PDF_PAGES, PDF_LIMITS_TEXT, docFromHtml, docFromPdf, docFromText } from "../../services/documents/document";
import { Reading } from "../../services/documents/evidence";
import { redactQuotes } from "../../services/documents/names";
import { type Summary, composeSummary, summarise } from "../../services/documents/summary";
import { InputError } from "../../shared/errors";
import { PAGE_ERRORS, describedUrl, isHtmlPage, pageOf } from "../web/page";
import { HTML_LIMITS_TEXT } from "../../services/html/parse";

/** Characters of `text` taken at most (about 300 pages of prose). */
export const TEXT_MAX = INPUT_LIMITS.text.max;
/** The POST body taken at most: `text` at its longest, JSON-escaped. */
export const READER_BODY_BYTES = 4 * 1024 * 1024;
/** A fetched document taken at most (a long PDF with images). */
const FETCH_MAX_BYTES = 15 * 1024 * 1024;
/** Fewer characters than this is not a document to read. */
const MIN_CHARS = 40;
/** `text` with at least MIN_CHARS characters besides white space: validation and the description's pattern are one. */
const TEXT_PATTERN = nonSpacePattern(MIN_CHARS);

const ACCEPT = "application/pdf, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.5, */*;q=0.1";

export const DocumentUrl = describedUrl(
  "The document's address: a web page (HTML) or a PDF, fetched by the service (`https://` is assumed when no scheme is given). Redirects are followed, each checked; a name that resolves to a private or local address is refused when fetched.",
);

export const UrlQuery = z.object({ url: DocumentUrl });

export const TextOrUrl = z
  .object({
    text: z
      .string()
      .max(TEXT_MAX, `must be at most ${thousands(TEXT_MAX)} characters`)
      .regex(TEXT_PATTERN, `must be the document's text (at least ${MIN_CHARS} characters besides spaces)`)
      .optional()
      .describe(
        `The document's text, pasted or extracted (at least ${MIN_CHARS} characters besides spaces, at most ${thousands(TEXT_MAX)} characters). Headings on their own lines (or Markdown \`#\` headings) help the reader find its sections. When both \`text\` and \`url\` are sent, the text is read and the URL is not fetched; it is kept as the document's address.`,
      ),
    url: describedUrl("The document's address, fetched when no `text` is sent (HTML or PDF; `https://` is assumed when no scheme is given).").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.text === undefined && v.url === undefined)
      ctx.addIssue({ code: "custom", path: ["text"], message: "give `text` (the document's text) or `url` (its address)" });
  });

export const ReadObject = z
  .object({
    from: z.enum(["text", "url"]).describe("`text`: the text sent was read; `url`: the document was fetched from `url`."),
    url: z.string().nullable().describe("The document's address: as fetched (after redirects), or as sent alongside `text`; null when only text was sent."),
    format: z
      .enum(["html", "pdf", "text"])
      .describe("How it was read: a web page (navigation, header, footer, scripts and forms dropped), a PDF (page by page) or plain text."),
    chars: z.number().int().describe("Characters of text read (headings and sentences)."),
    pages: z.number().int().nullable().describe("PDF pages read; null for a web page or text."),
    totalPages: z.number().int().nullable().describe("The PDF's pages; more than `pages` when it was cut."),
    cut: z
      .boolean()
      .describe(
        `True when the document was longer than was read (a PDF is read up to ${MAX_PDF_PAGES} pages, a web page or a text up to ${thousands(MAX_DOC_CHARS)} characters of its text).`,
      ),
    sections: z.number().int().describe("Headed sections found."),
    sentences: z.number().int().describe("Sentences read."),
    passages: z
      .array(
        z.object({
          section: z.string().nullable().describe("The section's heading; null before the first heading."),
          pages: z.array(z.number().int()).describe("The PDF pages the quoted sentences are on."),
          sentences: z.number().int().describe("Sentences of the section quoted as evidence."),
        }),
      )
      .describe("The passages the answers rest on, by section in document order. Answers about whether something is mentioned come from the full text."),
    note: z.string().nullable().describe("Anything to know about what was read: which input was taken when both were sent, or that the document was cut."),
  })
  .openapi("DocumentRead");

export interface Loaded {
  doc: Doc;
  from: "text" | "url";
  url: string | null;
  note: string | null;
}

/** The document the input names: the text sent, or the URL fetched and read as a PDF, a web page or text. */
export async function loadDocument(services: Pick<Services, "web" | "pdf">, input: { text?: string; url?: string }, query: unknown): Promise<Loaded> {
  if (input.text !== undefined) {
    const doc = docFromText(input.text);
    return {
      doc,
      from: "text",
      url: input.url === undefined ? null : pageOf({ url: input.url }),
      note:
        [
          input.url === undefined ? null : "Both `text` and `url` were sent: the text was read, and the URL was not fetched (text takes precedence).",
          doc.cut
            ? `The text is longer than ${MAX_DOC_CHARS.toLocaleString("en-GB")} characters as read; the first ${MAX_DOC_CHARS.toLocaleString("en-GB")} were read.`
            : null,
        ]
          .filter(Boolean)
          .join(" ") || null,
    };
  }
  const asked = pageOf({ url: input.url! });
  const { doc, url } = await fetchDocument(services, asked).catch((e: unknown) => {
    throw e instanceof InputError && !e.field ? new InputError(e.code, e.message, { field: "url", query }) : e;
  });
  if (doc.chars < MIN_CHARS)
    throw new InputError(
      "unreadable_input",
      doc.kind === "html"
        ? "The page has almost no text to read (it may be built by scripts in the browser, or be a page linking to the document: give the document's own address)."
        : "The document has almost no text to read.",
      { field: "url", query },
    );
  const note = !doc.cut
    ? null
    : doc.totalPages !== null && doc.pages !== null && doc.totalPages > doc.pages
      ? `The PDF has ${doc.totalPages} pages; the first ${doc.pages} were read.`
      : `The document's text is longer than ${MAX_DOC_CHARS.toLocaleString("en-GB")} characters; the first ${MAX_DOC_CHARS.toLocaleString("en-GB")} were read.`;
  return { doc, from: "url", url, note };
}

/** A fetched document: read as a PDF (by its bytes), a web page or text; `html` kept for its links. */
export interface FetchedDocument {
  url: string;
  doc: Doc;
  html: string | null;
}

/**
 * Fetches a document through the safe fetcher and reads it (crp-check reads candidate pages with it too). Refusals are
 * InputError without a field (the caller names its own); an upstream that cannot be reached is UpstreamError (503).
 */
export async function fetchDocument(services: Pick<Services, "web" | "pdf">, url: string, timeoutMs = 15_000): Promise<FetchedDocument> {
  const got = await services.web.fetch(url, { accept: ACCEPT, timeoutMs, maxBytes: FETCH_MAX_BYTES });
  if (services.pdf.isPdf(got.body)) return { url: got.url, doc: docFromPdf(await services.pdf.read(got.body)), html: null };
  if (isHtmlPage(got.contentType, got.text)) return { url: got.url, doc: docFromHtml(got.text), html: got.text };
  if (/^text\/(plain|markdown)\b/i.test(got.contentType)) return { url: got.url, doc: docFromText(got.text), html: null };
  throw new InputError("unreadable_input", `The address is not a web page, a PDF or text (its content type is ${got.contentType || "not given"}).`);
}

export function readObjectOf(loaded: Loaded, reading: Reading): z.infer<typeof ReadObject> {
  const { doc } = loaded;
  return {
    from: loaded.from,
    url: loaded.url,
    format: doc.kind,
    chars: doc.chars,
    pages: doc.pages,
    totalPages: doc.totalPages,
    cut: doc.cut,
    sections: doc.sections.filter((s) => s.heading !== null).length,
    sentences: doc.sentences.length,
    passages: reading.passages(),
    note: loaded.note,
  };
}

/** The day a reader judges "out of date" and "within a year" against. */
export const todayOf = (now: Date) => now.toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------------------------------
// The two operations of a reader.

export interface ReaderSpec<R extends { facts: string[] }, X extends z.ZodRawShape = Record<never, never>> {
  /** e.g. /api/v1/modern-slavery */
  path: string;
  /** OpenAPI name of the reply. */
  schemaName: string;
  title: string;
  summary: string;
  /** What the reader reads and gives (Markdown); the inputs and the `read` object are described after it. */
  description: string;
  /** What the document is, for the summary writer ("a modern slavery statement"). */
  documentName: string;
  /** The reader's fields. */
  reply: z.ZodObject;
  /** Fields the operation adds from our own data (the charity register's trustee count). */
  extra?: X;
  read(reading: Reading, opts: { today: string }): R;
  /** Fills `extra` (may call upstreams; an upstream failure is 503, credits back). */
  enrich?(report: R, ctx: OpContext): Promise<z.infer<z.ZodObject<X>>>;
  notice: string;
  price: number;
  /** A short document of this kind, the documented POST example (its reply is computed by the real reader). */
  exampleText: string;
  /** The documented GET example's address. */
  exampleUrl: string;
  /** `extra` for the documented example. */
  exampleExtra?: z.infer<z.ZodObject<X>>;
  timeoutMs?: number;
}

const NOW_OF_EXAMPLE = new Date("2026-11-25T09:00:00.000Z");

/** The reply's own keys, which no reader's field may take. */
const ENVELOPE = ["query", "document", "summary", "summaryBy", "read", "checkedAt", "notice"];

function outputOf(spec: ReaderSpec<{ facts: string[] }, z.ZodRawShape>) {
  const taken = [...Object.keys(spec.reply.shape), ...Object.keys(spec.extra ?? {})].filter((k) => ENVELOPE.includes(k));
  if (taken.length) throw new Error(`${spec.schemaName}: the reader's field(s) ${taken.join(", ")} would hide the reply's own`);
  return z
    .object({
      query: z
        .object({
          url: z.string().nullable().describe("The `url` asked for, as sent; null when none."),
          textChars: z.number().int().nullable().describe("Characters of `text` sent; null when none (the text itself is not echoed)."),
        })
        .describe("What was asked for."),
      document: z
        .object({
          title: z.string().nullable().describe("The web page's title; null for a PDF or text."),
          url: z.string().nullable().describe("The document's address (after redirects); null when only text was sent."),
        })
        .describe("The document read."),
      ...spec.reply.shape,
      ...(spec.extra ?? {}),
      summary: z.string().describe("A plain-English summary stating only the facts above (written from them, never the source of them)."),
      summaryBy: z
        .enum(["facts", "model"])
        .describe(
          "`facts`: the summary is the extracted facts' own sentences; `model`: a language model worded them, and its text was checked to state nothing the facts do not (else the facts' sentences are given).",
        ),
      read: ReadObject.describe("How much text there was and what was read (SPEC §4.3)."),
      checkedAt: z.string().describe("When the document was read (ISO 8601 UTC)."),
      notice: z.string(),
    })
    .openapi(spec.schemaName);
}

/** The reply from what the reader found: its fields, the extra ones, the summary and the `read` object. */
function replyOf(
  spec: ReaderSpec<{ facts: string[] }, z.ZodRawShape>,
  loaded: Loaded,
  reading: Reading,
  query: { url: string | null; textChars: number | null },
  parts: { report: Record<string, unknown>; extra: Record<string, unknown>; summary: Summary; now: Date },
) {
  return {
    query,
    document: { title: loaded.doc.title, url: loaded.url },
    // Each reader takes names out of its quotes; every quote and heading passes the last guard too (SPEC §1 rule 7).
    ...redactQuotes(parts.report),
    ...parts.extra,
    summary: parts.summary.summary,
    summaryBy: parts.summary.by,
    read: readObjectOf(loaded, reading),
    checkedAt: parts.now.toISOString(),
    notice: spec.notice,
  };
}

async function answer<R extends { facts: string[] }>(
  spec: ReaderSpec<R, z.ZodRawShape>,
  loaded: Loaded,
  query: { url: string | null; textChars: number | null },
  ctx: OpContext,
) {
  const reading = new Reading(loaded.doc);
  const { facts, ...report } = spec.read(reading, { today: todayOf(ctx.now) });
  const extra = spec.enrich ? await spec.enrich({ facts, ...report } as R, ctx) : {};
  const summary = await summarise(ctx.services.phraser, spec.documentName, facts);
  return replyOf(spec as never, loaded, reading, query, { report, extra, summary, now: ctx.now });
}

const inputsText = (spec: ReaderSpec<{ facts: string[] }, z.ZodRawShape>) => `

**Reading.** A web page is read without its navigation, header, footer, scripts and forms, keeping its headings; a PDF page by page (up to ${MAX_PDF_PAGES} pages; a PDF with no text layer, a scan, answers 422 \`unreadable_input\` and costs nothing). ${PDF_LIMITS_TEXT} ${HTML_LIMITS_TEXT} The text is split into headed sections and sentences. Every factual field quotes the sentence it rests on (with its page, for a PDF) or says the reader couldn't tell; \`read\` says how much was read and which passages the answers rest on. The \`summary\` only restates the facts (SPEC §1 rule 2: not ${spec.documentName === "a modern slavery statement" ? "legal" : "professional"} advice).`;

/** What the GET and POST variants of a reader have alike. */
const shared = (s: ReaderSpec<{ facts: string[] }, z.ZodRawShape>) => ({
  family: "documents",
  output: outputOf(s),
  price: s.price,
  auth: "key" as const,
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: s.timeoutMs ?? 30_000,
});

/** The GET variant: `?url=`. */
export function readerByUrl<R extends { facts: string[] }, X extends z.ZodRawShape>(operationId: string, spec: ReaderSpec<R, X>): Operation {
  const s = spec as unknown as ReaderSpec<R, z.ZodRawShape>;
  return defineOperation({
    operationId,
    method: "get",
    path: spec.path,
    title: `${spec.title} (by URL)`,
    // The two variants' summaries differ: the API reference names each operation's section by it.
    summary: `By URL (a web page or a PDF): ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)}`,
    description: `${spec.description}${inputsText(s)} The document at \`url\` (HTML or PDF) is fetched by the service; to send the text instead, POST to the same path.`,
    input: UrlQuery,
    ...shared(s),
    example: { url: spec.exampleUrl },
    exampleReply: undefined,
    async handler({ url }, ctx) {
      const query = { url, textChars: null };
      const loaded = await loadDocument(ctx.services, { url }, { url });
      return answer(s, loaded, query, ctx);
    },
  }) as unknown as Operation;
}

/** The POST variant: `{ text?, url? }`, text first. */
export function readerByText<R extends { facts: string[] }, X extends z.ZodRawShape>(operationId: string, spec: ReaderSpec<R, X>): Operation {
  const s = spec as unknown as ReaderSpec<R, z.ZodRawShape>;
  const example = { text: spec.exampleText };
  return defineOperation({
    operationId,
    method: "post",
    path: spec.path,
    title: spec.title,
    summary: `From text or a URL: ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)}`,
    description: `${spec.description}${inputsText(s)} Send the document's \`text\`, or its \`url\` to have it fetched; when both are sent the text is read and the URL is not fetched (\`read.note\` says so).`,
    input: TextOrUrl,
    ...shared(s),
    maxBodyBytes: READER_BODY_BYTES,
    example,
    // Computed by the real reader from the example text (the summary is the facts' own sentences), when the docs ask.
    exampleReply: () => exampleReplyOf(s, { doc: docFromText(spec.exampleText), from: "text", url: null, note: null }),
    async handler(input, ctx) {
      const query = { url: input.url ?? null, textChars: input.text === undefined ? null : input.text.length };
      const loaded = await loadDocument(ctx.services, input, query);
      return answer(s, loaded, query, ctx);
    },
  } as Operation<typeof TextOrUrl, ReturnType<typeof outputOf>>) as unknown as Operation;
}

/** The documented example's reply, computed by the real reader without a context (no model, the example's own extra fields). */
function exampleReplyOf(spec: ReaderSpec<{ facts: string[] }, z.ZodRawShape>, loaded: Loaded) {
  const reading = new Reading(loaded.doc);
  const { facts, ...report } = spec.read(reading, { today: todayOf(NOW_OF_EXAMPLE) });
  const summary: Summary = { summary: composeSummary(facts), by: "facts" };
  return replyOf(
    spec,
    loaded,
    reading,
    { url: null, textChars: spec.exampleText.length },
    { report, extra: spec.exampleExtra ?? {}, summary, now: NOW_OF_EXAMPLE },
  );
}
