/** The sizes a logo image is made in (pixels a side) and its formats (issue 32). Pure: both Workers import it. */
export const LOGO_SIZES = [16, 32, 64, 128, 256, 512] as const;
export type LogoSize = (typeof LOGO_SIZES)[number];
/** What the image maker writes. An SVG is served as the site published it, never written. */
export type LogoFormat = "png" | "webp";
