import type { RegisterRecord } from "./types";

/** FNV-1a over the record's JSON: a cheap fingerprint to notice any change in an entry. */
export function fingerprint(r: RegisterRecord): string {
  const s = JSON.stringify([r.entity, r.part, r.name, r.companyNumber, r.altNames, r.status, r.rating, r.town, r.data]);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + s.length.toString(36);
}
