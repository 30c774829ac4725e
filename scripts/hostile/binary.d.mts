export const BOMB_LINE: string;
export function flateBombPdf(inflatedBytes: number, opts?: { asContents?: boolean }): Uint8Array;
export function manyPagesPdf(pages: number, opts?: { text?: string }): Uint8Array;
export function hugePagePdf(textItems: number): Uint8Array;
export function plainPdf(pages?: number): Uint8Array;
export function zipBomb(inflatedBytes: number, opts?: { name?: string; entries?: number }): Uint8Array;
export function gzipBomb(inflatedBytes: number): Uint8Array;
