export const BOMB_LINE: string;
export function flateBombPdf(inflatedBytes: number, opts?: { asContents?: boolean }): Uint8Array;
export function manyPagesPdf(pages: number, opts?: { text?: string }): Uint8Array;
export function hugePagePdf(textItems: number): Uint8Array;
export function plainPdf(pages?: number): Uint8Array;
export function zipBomb(inflatedBytes: number, opts?: { name?: string; entries?: number }): Uint8Array;
export function gzipBomb(inflatedBytes: number): Uint8Array;
export function md5(data: Uint8Array): Uint8Array;
export function encryptedPdf(opts: {
  method: "rc4-40" | "rc4-128" | "aes-128" | "aes-256" | "none";
  pages?: number;
  text?: string;
  bombBytes?: number;
  userPassword?: string;
}): Promise<Uint8Array>;
