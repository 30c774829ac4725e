import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeImage } from "../../src/services/images/probe";
import { InputError } from "../../src/shared/errors";
import { readersImages } from "../../src/sources/readers/client";

/**
 * Issue 32: an SVG logo drawn as pixels by resvg in the readers Worker, reached through the real READERS binding (the
 * test Worker's own `Readers` entrypoint), so resvg's workerd build (its WebAssembly imported as a module) is the one
 * that draws it.
 */

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("issue 32 an SVG logo behind the readers Worker's binding", () => {
  it("an SVG comes back as a PNG of the size asked, its source the SVG; a reference bomb as 422 unreadable_input", async () => {
    const images = readersImages(env.READERS);
    const svg = utf8(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><script>fetch("http://127.0.0.1:1/")</script><rect width="100" height="50" fill="#ff0000"/></svg>',
    );
    const out = await images.makeLogo(svg, { size: 128, format: "png" });
    expect(out).toMatchObject({ mime: "image/png", width: 128, height: 128, source: { format: "svg", width: 100, height: 50 } });
    expect(probeImage(out.bytes)).toMatchObject({ ok: true, image: { format: "png", width: 128, height: 128 } });
    const webp = await images.makeLogo(svg, { size: 32, format: "webp", greyscale: true });
    expect(probeImage(webp.bytes)).toMatchObject({ ok: true, image: { format: "webp", width: 32, height: 32 } });

    let defs = '<rect id="l0" width="1" height="1"/>';
    for (let l = 1; l <= 10; l++) defs += `<g id="l${l}">${`<use href="#l${l - 1}"/>`.repeat(10)}</g>`;
    const bomb = utf8(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>${defs}</defs><use href="#l10"/></svg>`);
    const refused = await images.makeLogo(bomb, { size: 64, format: "png" }).catch((e) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect(refused).toMatchObject({ code: "unreadable_input", message: expect.stringMatching(/expand to more than 100,000 elements/) });
  });
});
