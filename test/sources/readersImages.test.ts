import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { monogramColour } from "../../src/services/images/monogram";
import { IMAGE_LIMITS, probeImage } from "../../src/services/images/probe";
import { InputError, UpstreamError } from "../../src/shared/errors";
import { readersImages } from "../../src/sources/readers/client";

/**
 * Issue 32: the image maker (Photon, WebAssembly) runs in the readers Worker, reached through the real READERS binding
 * (the test Worker's own `Readers` entrypoint), so its workerd build and the errors' crossing are what production has.
 */

const shared = async (path: string) => new Uint8Array(await (await fetch(`http://shared.test/${path}`)).arrayBuffer());

describe("issue 32 the image maker behind the readers Worker's binding", () => {
  it.skipIf(!env.SHARED_PRESENT)("a real PNG (the ACT rules' 512 × 512 logo) made a 64 square WebP and a greyscale PNG", async () => {
    const images = readersImages(env.READERS);
    expect(images.available).toBe(true);
    const file = await shared("corpora/act-rules/test-assets/shared/act-logo.png");
    const webp = await images.makeLogo(file, { size: 64, format: "webp" });
    expect(webp).toMatchObject({ mime: "image/webp", width: 64, height: 64, source: { format: "png", width: 512, height: 512 } });
    expect(probeImage(webp.bytes)).toMatchObject({ ok: true, image: { format: "webp", width: 64, height: 64 } });
    const grey = await images.makeLogo(file, { size: 32, format: "png", greyscale: true });
    expect(probeImage(grey.bytes)).toMatchObject({ ok: true, image: { format: "png", width: 32, height: 32 } });
  });

  it("a monogram's pixels; HTML sent as an image comes back as 422 unreadable_input, not a 500", async () => {
    const images = readersImages(env.READERS);
    const m = await images.makeMonogram("AW", monogramColour("Acme Widgets Ltd"), { size: 128, format: "png" });
    expect(probeImage(m.bytes)).toMatchObject({ ok: true, image: { format: "png", width: 128, height: 128 } });
    const refused = await images.makeLogo(new TextEncoder().encode("<!doctype html><p>Not found</p>"), { size: 64, format: "png" }).catch((e) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect(refused).toMatchObject({ code: "unreadable_input" });
    // Over the byte limit: refused before the file crosses the binding.
    const big = await images.makeLogo(new Uint8Array(IMAGE_LIMITS.maxBytes + 1), { size: 64, format: "png" }).catch((e) => e);
    expect(big).toBeInstanceOf(InputError);
    expect(big.message).toMatch(/over the 5 MiB taken/);
  });

  it("without the binding it is not available, and a call is 503 not_configured", async () => {
    const images = readersImages(undefined);
    expect(images.available).toBe(false);
    const e = await images.makeMonogram("A", "#1d4ed8", { size: 32, format: "png" }).catch((x) => x);
    expect(e).toBeInstanceOf(UpstreamError);
    expect(e).toMatchObject({ source: "readers", kind: "not_configured" });
  });
});
