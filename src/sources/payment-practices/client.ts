/**
 * Downloads the Payment Practices export (`GET {PAYMENT_PRACTICES_URL}`, the "Check payment practices"
 * service's /export/csv/: every report ever filed, about 100 MB, no key). The file is read as a stream,
 * more than once (see parsePaymentPractices), and carries no date of its own: the edition is the UTC
 * day of the fetch.
 */
import { answeredBadly, unreachable } from "../upstream";
import { chunksOf } from "../streams";

const SOURCE = "payment-practices";

export interface PaymentPracticesEdition {
  url: string;
  fileName: string;
  /** The UTC day of the fetch. */
  editionDate: string;
  /** The export's bytes: the first call reads the reply already fetched, later calls fetch it again. */
  open(): AsyncGenerator<Uint8Array>;
}

async function get(url: string, fetchImpl: typeof fetch): Promise<ReadableStream<Uint8Array>> {
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { accept: "text/csv, */*" } });
  } catch (e) {
    throw unreachable(SOURCE, `payment-practices: ${url} could not be fetched (${(e as Error).message})`, e);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw answeredBadly(SOURCE, res.status, `payment-practices: the export answered HTTP ${res.status}`);
  }
  return res.body;
}

/** Asks for the export now (so an upstream failure shows at once) and hands back its body to stream. */
export async function fetchPaymentPracticesExport(cfg: { url: string; fetchImpl?: typeof fetch }): Promise<PaymentPracticesEdition> {
  const fetchImpl = cfg.fetchImpl ?? fetch;
  let first: ReadableStream<Uint8Array> | null = await get(cfg.url, fetchImpl);
  const name = new URL(cfg.url).pathname.split("/").filter(Boolean).pop() ?? "";
  return {
    url: cfg.url,
    fileName: /\.csv$/i.test(name) ? name : "payment-practices-export.csv",
    editionDate: new Date().toISOString().slice(0, 10),
    async *open() {
      const body = first ?? (await get(cfg.url, fetchImpl));
      first = null;
      yield* chunksOf(body);
    },
  };
}
