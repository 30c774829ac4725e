/**
 * The Gazette's notice feed (shared/formats/gazette.md): `GET /insolvency/notice/data.json` (the Atom feed as
 * JSON) → notices (their codes are read in services/risk/gazette.ts).
 * Tolerant of members it does not know; `entry` is an object when the feed has one hit, an array otherwise.
 */
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import type { GazetteNotice } from "../../services/risk/gazette";

export type { GazetteNotice };

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof v === "object" ? [v] : []);

/** Tags removed and whitespace collapsed: the notice's words only (never parsed for facts). */
const textOf = (html: unknown) => {
  const s =
    typeof html === "string"
      ? html
      : html && typeof html === "object"
        ? (str((html as Record<string, unknown>)["#text"]) ?? str((html as Record<string, unknown>)["$"]) ?? "")
        : "";
  let out = "";
  let inTag = false;
  for (const c of s) {
    if (c === "<") inTag = true;
    else if (c === ">") {
      inTag = false;
      out += " ";
    } else if (!inTag) out += c;
  }
  return out.replace(/\s+/g, " ").trim().slice(0, 2000);
};

/** The notices of a feed page; null when the body is not a Gazette feed. */
export function parseNoticeFeed(body: string): { notices: GazetteNotice[]; total: number | null; nextPage: boolean } | null {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    return null;
  }
  if (!j || typeof j !== "object") return null;
  const feed = j as Record<string, unknown>;
  if (!("entry" in feed) && !("f:total" in feed) && !("title" in feed)) return null;
  const notices: GazetteNotice[] = [];
  for (const e of list(feed.entry)) {
    const x = e as Record<string, unknown>;
    const rawId = str(x.id) ?? "";
    const id = rawId.split("/").pop() ?? rawId;
    if (!id) continue;
    // The notice's own page: a link to /notice/{id} that is not one of its data.* alternates.
    const page = list(x.link)
      .map((l) => str((l as Record<string, unknown>)["@href"]))
      .find((h) => h !== null && /\/notice\/[^/]+$/.test(h));
    const published = str(x.published) ?? str(x.updated);
    const numberText = str(x["f:company-number"]) ?? str(x.companyNumber) ?? str((x["gazorg:companyNumber"] as unknown) ?? null);
    notices.push({
      id,
      code: str(x["f:notice-code"]),
      title: str(x.title) ?? "",
      publishedOn: published && /^\d{4}-\d{2}-\d{2}/.test(published) ? published.slice(0, 10) : null,
      url: page ?? null,
      companyNumber: numberText ? normaliseCompanyNumber(numberText) : null,
      text: textOf(x.content),
    });
  }
  const total = Number(feed["f:total"]);
  const next = list(feed.link).some((l) => (l as Record<string, unknown>)["@rel"] === "next");
  return { notices, total: Number.isFinite(total) ? total : null, nextPage: next };
}
