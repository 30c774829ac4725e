/**
 * An SVG logo drawn as pixels (issue 32), with resvg (@cf-wasm/resvg: the Rust resvg renderer in WebAssembly; the
 * `workerd` build in a Worker, the `node` build in Node's tests). A third party's SVG is a document that can hold
 * scripts, event handlers, HTML in a <foreignObject> and links to other resources: served as it was published it is
 * active content. Drawn here, it is only pixels. resvg runs none of that: it has no script engine, does not draw a
 * <foreignObject>, and loads nothing from outside the file (an <image> that is not a data: URI is left out; no system
 * fonts are loaded, so text is drawn only if it has none to draw with, which is to say not at all).
 *
 * Before resvg sees a file, src/services/images/svgBudget.ts checks its markup in one linear pass: its size, its
 * elements, its <use> references expanded (a reference bomb), and its embedded images (each probed as a raster image).
 * It belongs to the readers Worker, beside Photon (src/sources/images/transform.ts): its WebAssembly is 2.4 MB.
 */
import { Resvg, initResvg } from "@cf-wasm/resvg";
import { checkSvgBudget } from "../../services/images/svgBudget";
import { InputError } from "../../shared/errors";

// Both builds start compiling resvg's WebAssembly when imported; a Resvg made before that has finished throws. This
// module is loaded lazily (src/readers.ts imports the image maker on its first call), so waiting here costs no start-up
// time, and lets rasteriseSvg be synchronous like the rest of the image maker. A failure is kept for the first SVG.
const ready: true | Error = await initResvg.ensure().then(
  () => true as const,
  (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
);

const unreadable = (message: string) => new InputError("unreadable_input", message);

export interface Rasterised {
  /** RGBA, 4 bytes a pixel, row by row. */
  pixels: Uint8Array;
  width: number;
  height: number;
}

/**
 * The SVG drawn so that its longer side is `size` pixels (its aspect ratio from its own width and height, or viewBox;
 * with neither, resvg's default size, 100 × 100, scaled). Throws unreadable_input for a file that is over the budget or
 * that resvg cannot read.
 */
export function rasteriseSvg(file: Uint8Array, size: number): Rasterised {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(file);
  } catch {
    throw unreadable("The SVG is not valid UTF-8 text; it was not drawn.");
  }
  const budget = checkSvgBudget(text);
  if (!budget.ok) throw unreadable(budget.message);
  if (ready !== true) throw unreadable(`The SVG renderer could not be started (${ready.message.slice(0, 120)}).`);

  let resvg: InstanceType<typeof Resvg> | undefined;
  let rendered: ReturnType<InstanceType<typeof Resvg>["render"]> | undefined;
  try {
    // Fitted to its width; when it is taller than wide (its own size is known once it is read, before anything is
    // drawn), read again fitted to its height.
    resvg = new Resvg(text, { font: { loadSystemFonts: false }, fitTo: { mode: "width", value: size } });
    if (resvg.height > resvg.width) {
      const wide = resvg;
      resvg = undefined;
      wide.free();
      resvg = new Resvg(text, { font: { loadSystemFonts: false }, fitTo: { mode: "height", value: size } });
    }
    rendered = resvg.render();
    const [width, height] = [rendered.width, rendered.height];
    if (width < 1 || height < 1 || width > size || height > size)
      throw unreadable(`The SVG was drawn ${width} × ${height} pixels, not within the ${size} pixel square asked for.`);
    // A copy: the view resvg returns is of its WebAssembly memory, freed below.
    const pixels = new Uint8Array(rendered.pixels);
    if (pixels.length !== width * height * 4) throw unreadable(`The SVG was drawn as ${pixels.length} bytes, not ${width} × ${height} pixels.`);
    return { pixels, width, height };
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw unreadable(`The SVG could not be drawn (${String((e as Error)?.message ?? e).slice(0, 120)}).`);
  } finally {
    rendered?.free();
    resvg?.free();
  }
}
